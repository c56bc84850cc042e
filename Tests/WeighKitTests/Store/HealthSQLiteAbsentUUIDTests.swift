import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// Within a command, a UUID the storage found on no live sample is saved without a second
/// look-up (`HealthSQLiteStorage.Writer.absentUUIDs`); a UUID a live sample has is still
/// refused, in the same words, however the command's writes went since it was asked for.
@Suite struct HealthSQLiteAbsentUUIDTests {
  typealias Samples = HealthSQLiteStorageTests

  /// A storage in a command, in a new database.
  func withCommand(_ body: (HealthSQLiteStorage) throws -> Void) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let sqlite = try HealthSQLiteStorage(path: directory.file(HealthSQLiteStorage.fileName))
    defer { try? sqlite.close() }
    try sqlite.beginCommand()
    try body(sqlite)
    try sqlite.commitCommand(pending: nil, appSequence: 0)
  }

  func save(_ code: Int, uuid: UUID, in sqlite: HealthSQLiteStorage) throws {
    let position = try sqlite.lastPosition() + 1
    try sqlite.apply([.sampleSaved(Samples.sample(code, uuid: uuid), position: position)])
  }

  @Test func aUUIDFoundAbsentAndThenSavedIsRefusedTheSecondTime() throws {
    try withCommand { sqlite in
      let uuid = Samples.uuid(1)
      #expect(try sqlite.sample(uuid: uuid) == nil)
      try save(1, uuid: uuid, in: sqlite)
      let said = Samples.outcome { try save(2, uuid: uuid, in: sqlite) }
      #expect(said?.contains("a live sample already has uuid \(uuid.uuidString)") == true)
      #expect(try sqlite.sample(uuid: uuid)?.sample.value == Samples.sample(1, uuid: uuid).value)
      #expect(try sqlite.counts(of: nil).samples == 1)
    }
  }

  @Test func aSaveRolledBackLeavesTheUUIDFreeAgain() throws {
    try withCommand { sqlite in
      let uuid = Samples.uuid(2)
      #expect(try sqlite.sample(uuid: uuid) == nil)
      try sqlite.openSavepoint()
      try save(1, uuid: uuid, in: sqlite)
      sqlite.rollBackSavepoint()
      #expect(try sqlite.sample(uuid: uuid) == nil)
      try save(3, uuid: uuid, in: sqlite)
      #expect(Samples.outcome { try save(4, uuid: uuid, in: sqlite) } != nil)
      #expect(try sqlite.counts(of: nil).samples == 1)
    }
  }

  /// A write that fails without a step of its own leaves what it saved before the failure
  /// until the command rolls back: a UUID it saved is refused after it.
  @Test func aUUIDSavedByAFailedWriteIsRefusedAfterIt() throws {
    try withCommand { sqlite in
      let uuid = Samples.uuid(3)
      let other = Samples.uuid(4)
      #expect(try sqlite.sample(uuid: uuid) == nil)
      #expect(try sqlite.sample(uuid: other) == nil)
      let last = try sqlite.lastPosition()
      let failed = Samples.outcome {
        // A full statement's rows (`Writer.rowsPerInsert`), the first with `uuid`, are
        // inserted before the refusal; rows still waiting when a write fails are not.
        let full = HealthSQLiteStorage.Writer.rowsPerInsert
        var changes: [HealthChange] = [
          .sampleSaved(Samples.sample(1, uuid: uuid), position: last + 1)
        ]
        for index in 1..<full {
          let position = last + 1 + Int64(index)
          changes.append(
            .sampleSaved(Samples.sample(1, uuid: Samples.uuid(100 + index)), position: position))
        }
        // A position that does not grow: refused after the first saves were written.
        changes.append(.sampleSaved(Samples.sample(2, uuid: other), position: last + 1))
        try sqlite.apply(changes)
      }
      #expect(failed != nil)
      // The first save's row is in the command's transaction still.
      #expect(try sqlite.sample(uuid: uuid) != nil)
      let said = Samples.outcome { try save(5, uuid: uuid, in: sqlite) }
      #expect(said?.contains("a live sample already has uuid \(uuid.uuidString)") == true)
    }
  }

  @Test func aStepRolledBackLeavesItsUUIDsFreeAndTheOthersTaken() throws {
    try withCommand { sqlite in
      let kept = Samples.uuid(5)
      let undone = Samples.uuid(6)
      #expect(try sqlite.sample(uuid: kept) == nil)
      #expect(try sqlite.sample(uuid: undone) == nil)
      try save(1, uuid: kept, in: sqlite)
      #expect(
        Samples.outcome {
          try sqlite.step {
            try save(2, uuid: undone, in: sqlite)
            try save(3, uuid: kept, in: sqlite)
          }
        } != nil)
      #expect(try sqlite.sample(uuid: undone) == nil)
      #expect(Samples.outcome { try save(4, uuid: kept, in: sqlite) } != nil)
      try save(5, uuid: undone, in: sqlite)
      #expect(try sqlite.counts(of: nil).samples == 2)
    }
  }

  /// A UUID a live sample had before the command is refused whether or not it was asked for.
  @Test func aUUIDSavedBeforeTheCommandIsRefused() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    let uuid = Samples.uuid(7)
    do {
      let sqlite = try HealthSQLiteStorage(path: path)
      try save(1, uuid: uuid, in: sqlite)
      try sqlite.close()
    }
    let sqlite = try HealthSQLiteStorage(path: path)
    defer { try? sqlite.close() }
    try sqlite.beginCommand()
    #expect(try sqlite.sample(uuid: uuid) != nil)
    #expect(Samples.outcome { try save(2, uuid: uuid, in: sqlite) } != nil)
    sqlite.rollbackCommand()
  }
}
