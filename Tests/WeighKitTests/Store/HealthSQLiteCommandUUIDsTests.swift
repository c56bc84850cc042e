import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// In a command whose writer began on an empty table, a UUID that none of the command's own
/// rows may have is not looked up (`HealthSQLiteCommandUUIDs`); the answers are those of the
/// look-ups, exactly (a set) and past `exactLimit` (a Bloom filter).
@Suite struct HealthSQLiteCommandUUIDsTests {
  typealias Samples = HealthSQLiteStorageTests

  /// More saves than the exact set keeps, so the filter answers.
  static let many = HealthSQLiteCommandUUIDs.exactLimit + 904

  @Test func everyUUIDNotedIsMaybePresentAndOthersAreNot() {
    let own = HealthSQLiteCommandUUIDs()
    // UUIDs that differ in their last bytes only, as a caller's may.
    let noted = (1...Self.many).map { Samples.uuid($0) }
    let others = (1...Self.many).map { Samples.uuid(1_000_000 + $0) }
    for (index, uuid) in noted.enumerated() {
      own.insert(uuid)
      // Exact at first, then the filter: never a noted UUID said absent.
      #expect(own.mayContain(uuid))
      if index == HealthSQLiteCommandUUIDs.exactLimit - 1 {
        #expect(!others.contains(where: own.mayContain))
      }
    }
    #expect(noted.allSatisfy(own.mayContain))
    // 5,000 UUIDs in 2^27 bits: a false positive is about one chance in 10^15.
    #expect(others.filter(own.mayContain).isEmpty)
  }

  /// A storage in a command, in a new database.
  func withCommand(_ body: (HealthSQLiteStorage) throws -> Void) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    let sqlite = try HealthSQLiteStorage(path: path)
    try sqlite.beginCommand()
    try body(sqlite)
    try sqlite.commitCommand(pending: nil, appSequence: 0)
    try sqlite.close()
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
  }

  func saveMany(in sqlite: HealthSQLiteStorage) throws -> [UUID] {
    let last = try sqlite.lastPosition()
    let uuids = (1...Self.many).map { Samples.uuid($0) }
    try sqlite.apply(
      uuids.enumerated().map { index, uuid in
        .sampleSaved(Samples.sample(index, uuid: uuid), position: last + 1 + Int64(index))
      })
    return uuids
  }

  @Test func aCommandsOwnUUIDsAreFoundAndRefusedPastTheExactSet() throws {
    try withCommand { sqlite in
      let saved = try saveMany(in: sqlite)
      #expect(sqlite.commandWriter?.ownUUIDs != nil)
      let fresh = (1...50).map { Samples.uuid(2_000_000 + $0) }
      for uuid in [saved[0], saved[4000], saved.last!] {
        #expect(try sqlite.sample(uuid: uuid)?.sample.uuid == uuid)
      }
      for uuid in fresh { #expect(try sqlite.sample(uuid: uuid) == nil) }
      let asked = Array(saved.prefix(20)) + fresh + Array(saved.suffix(20))
      #expect(try sqlite.liveUUIDs(among: asked) == Set(saved.prefix(20) + saved.suffix(20)))
      #expect(try sqlite.liveUUIDs(among: fresh).isEmpty)
      let position = try sqlite.lastPosition() + 1
      let said = Samples.outcome {
        try sqlite.apply([.sampleSaved(Samples.sample(7, uuid: saved[10]), position: position)])
      }
      #expect(said?.contains("a live sample already has uuid \(saved[10].uuidString)") == true)
      try sqlite.apply([.sampleSaved(Samples.sample(7, uuid: fresh[0]), position: position)])
      #expect(try sqlite.counts(of: nil).samples == Int64(Self.many + 1))
    }
  }

  /// A deleted sample's UUID, and those of a step rolled back, may be saved again; those of
  /// the step's rows are still known to the filter, so they are looked up.
  @Test func deletedAndRolledBackUUIDsAreFreeAgain() throws {
    try withCommand { sqlite in
      var undone: [UUID] = []
      #expect(
        Samples.outcome {
          try sqlite.step {
            undone = try saveMany(in: sqlite)
            throw HealthStorageError("the step fails")
          }
        } != nil)
      #expect(try sqlite.counts(of: nil).samples == 0)
      #expect(try sqlite.liveUUIDs(among: undone).isEmpty)
      let saved = try saveMany(in: sqlite)
      #expect(saved == undone)
      var position = try sqlite.lastPosition() + 1
      try sqlite.apply([.sampleDeleted(uuid: saved[3], position: position, date: Samples.epoch)])
      #expect(try sqlite.sample(uuid: saved[3]) == nil)
      position += 1
      try sqlite.apply([.sampleSaved(Samples.sample(3, uuid: saved[3]), position: position)])
      #expect(try sqlite.sample(uuid: saved[3])?.position == position)
    }
  }

  /// A command that begins on a table with rows keeps no UUIDs of its own: every UUID is
  /// looked up, and one saved before it is refused.
  @Test func aTableWithRowsKeepsNoOwnUUIDs() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    let before = Samples.uuid(9)
    do {
      let sqlite = try HealthSQLiteStorage(path: path)
      try sqlite.apply([.sampleSaved(Samples.sample(1, uuid: before), position: 1)])
      try sqlite.close()
    }
    let sqlite = try HealthSQLiteStorage(path: path)
    defer { try? sqlite.close() }
    try sqlite.beginCommand()
    try sqlite.apply([.sampleSaved(Samples.sample(2, uuid: Samples.uuid(10)), position: 2)])
    #expect(sqlite.commandWriter != nil)
    #expect(sqlite.commandWriter?.ownUUIDs == nil)
    #expect(try sqlite.liveUUIDs(among: [before, Samples.uuid(11)]) == [before])
    let said = Samples.outcome {
      try sqlite.apply([.sampleSaved(Samples.sample(3, uuid: before), position: 3)])
    }
    #expect(said?.contains("a live sample already has uuid \(before.uuidString)") == true)
    sqlite.rollbackCommand()
  }
}
