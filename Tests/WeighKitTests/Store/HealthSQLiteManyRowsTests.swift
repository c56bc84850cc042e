import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// A write's rows inserted `rowsPerInsert` at a time by one statement
/// (`HealthSQLiteStorage.Writer.insertWaitingRows`; docs/store.md, "The saving thread, third
/// round"): what the storage keeps, refuses and answers is what one insert per row gave.
@Suite struct HealthSQLiteManyRowsTests {
  typealias Samples = HealthSQLiteStorageTests

  static let perInsert = HealthSQLiteStorage.Writer.rowsPerInsert

  /// A storage in a new database, in a command when `inCommand`.
  func withStorage(inCommand: Bool, _ body: (HealthSQLiteStorage) throws -> Void) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    let sqlite = try HealthSQLiteStorage(path: path)
    if inCommand { try sqlite.beginCommand() }
    try body(sqlite)
    if inCommand { try sqlite.commitCommand(pending: nil, appSequence: 0) }
    try sqlite.close()
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
  }

  static func saves(_ codes: ClosedRange<Int>, from position: Int64) -> [HealthChange] {
    codes.enumerated().map { offset, code in
      .sampleSaved(
        Samples.sample(code, uuid: Samples.uuid(code)), position: position + Int64(offset))
    }
  }

  /// Three full statements, two of the smaller ones and five rows more, in one call: every
  /// row at its position, in order, read back as saved, counted, and the same after
  /// reopening.
  @Test(arguments: [false, true]) func rowsOfOneWriteAreAllKeptInOrder(inCommand: Bool) throws {
    let count = 3 * Self.perInsert + 2 * HealthSQLiteStatement.rowsPerSmallerInsert + 5
    let changes = Self.saves(1...count, from: 1)
    try withStorage(inCommand: inCommand) { (sqlite) throws in
      try sqlite.apply(changes)
      let records = try sqlite.records(after: 0, limit: 0)
      #expect(records.map(\.position) == (1...count).map(Int64.init))
      for (record, change) in zip(records, changes) {
        guard case .sample(let read, _) = record, case .sampleSaved(let saved, _) = change else {
          Issue.record("not a sample")
          continue
        }
        #expect(read == saved)
      }
      #expect(try sqlite.counts(of: nil).samples == count)
      #expect(try sqlite.lastPosition() == Int64(count))
      #expect(try sqlite.sample(uuid: Samples.uuid(count))?.position == Int64(count))
    }
  }

  /// A UUID saved twice in one call, the first inserted already (5) or still waiting to be
  /// (18, after a full statement of 16 rows): refused in the words of a single insert, and
  /// nothing of the call is kept.
  @Test(arguments: [5, 18]) func aUUIDSavedTwiceInOneWriteIsRefused(first: Int) throws {
    try withStorage(inCommand: false) { (sqlite) throws in
      var changes = Self.saves(1...20, from: 1)
      changes.append(.sampleSaved(Samples.sample(99, uuid: Samples.uuid(first)), position: 21))
      let said = Samples.outcome { try sqlite.apply(changes) }
      let uuid = Samples.uuid(first).uuidString
      #expect(said?.contains("a live sample already has uuid \(uuid)") == true)
      #expect(try sqlite.counts(of: nil).samples == 0)
      #expect(try sqlite.records(after: 0, limit: 0).isEmpty)
    }
    // Within a command, its step undoes what the call inserted before the refusal.
    try withStorage(inCommand: true) { (sqlite) throws in
      try sqlite.apply(Self.saves(1...3, from: 1))
      var changes = Self.saves(4...(first + 4), from: 4)
      changes.append(.sampleSaved(Samples.sample(99, uuid: Samples.uuid(first)), position: 100))
      #expect(Samples.outcome { try sqlite.step { try sqlite.apply(changes) } } != nil)
      #expect(try sqlite.records(after: 0, limit: 0).map(\.position) == [1, 2, 3])
      #expect(try sqlite.counts(of: nil).samples == 3)
    }
  }

  /// A deletion in the same call as the save it deletes finds the sample: the rows waiting
  /// are inserted before the writer reads the table.
  @Test func aDeletionFindsASampleSavedInTheSameWrite() throws {
    try withStorage(inCommand: true) { (sqlite) throws in
      let date = Date(timeIntervalSince1970: 1_800_000_000)
      var changes = Self.saves(1...10, from: 1)
      changes.append(.sampleDeleted(uuid: Samples.uuid(3), position: 11, date: date))
      try sqlite.apply(changes)
      #expect(try sqlite.sample(uuid: Samples.uuid(3)) == nil)
      #expect(try sqlite.counts(of: nil).samples == 9)
      #expect(try sqlite.counts(of: nil).deletions == 1)
      guard case .deletion(let deleted, 11)? = try sqlite.record(at: 11) else {
        Issue.record("no deletion at 11")
        return
      }
      #expect(deleted.uuid == Samples.uuid(3))
    }
  }
}
