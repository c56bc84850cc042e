import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// What the saving thread of an all-types import changed in `health.sqlite` (docs/store.md,
/// "The saving thread, again"): a new database's page size, a database with the earlier
/// page size still read and written, and the JSON rows written from repeated parts, which
/// are the bytes written without them.
@Suite struct HealthSQLiteSavingTests {
  static func pageSize(_ path: String) throws -> Int {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0 }
  }

  static func saved(_ number: Int, at position: Int64) -> HealthChange {
    .sampleSaved(
      HealthSQLiteStorageTests.sample(number, uuid: HealthSQLiteStorageTests.uuid(number)),
      position: position)
  }

  @Test func aNewDatabaseHasEightKibibytePages() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    // As a directory store's first Health command makes it.
    let created = directory.file(HealthSQLiteStorage.fileName)
    let storage = try HealthSQLiteStorage.create(at: created, directory: directory.path)
    try storage.apply([Self.saved(1, at: 1)])
    try storage.close()
    #expect(try Self.pageSize(created) == 8192)
    // As tests, benchmarks and repair open a missing file.
    let opened = directory.file("other.sqlite")
    let other = try HealthSQLiteStorage(path: opened)
    try other.apply([Self.saved(1, at: 1)])
    try other.close()
    #expect(try Self.pageSize(opened) == 8192)
    #expect(HealthSQLiteStorage.check(path: created).isEmpty)
    #expect(HealthSQLiteStorage.check(path: opened).isEmpty)
  }

  /// A file with 4 KiB pages, as every weigh before this one made it: it opens, takes a
  /// command's writes, keeps its page size and checks clean.
  @Test func aDatabaseWithFourKibibytePagesIsReadAndWrittenAsBefore() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    do {
      let queue = try DatabaseQueue(path: path)
      try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA page_size = 4096")
        try db.execute(sql: "PRAGMA journal_mode = WAL")
        try db.inTransaction {
          try db.execute(sql: HealthSQLiteStorage.creation)
          return .commit
        }
      }
      try queue.close()
    }
    #expect(try Self.pageSize(path) == 4096)
    let storage = try HealthSQLiteStorage(path: path)
    try storage.beginCommand()
    try storage.apply((1...300).map { Self.saved($0, at: Int64($0)) })
    try storage.commitCommand(pending: nil, appSequence: 0)
    try storage.close()
    #expect(try Self.pageSize(path) == 4096)
    let reopened = try HealthSQLiteStorage(path: path)
    #expect(try reopened.records(after: 0, limit: 0).map(\.position) == (1...300).map(Int64.init))
    try reopened.close()
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
  }

  /// Samples whose sources, revisions and devices change, repeat and go missing in every
  /// order: each row written with the parts of the rows before it is the row written alone.
  @Test func rowsWrittenFromRepeatedPartsAreTheRowsWrittenAlone() {
    let sources = [
      HealthSource(name: "Anna’s iPhone", bundleIdentifier: "com.apple.health.1"),
      HealthSource(name: "Watch \"2\"", bundleIdentifier: "com.apple.health.2"),
    ]
    let devices: [HealthDevice?] = [
      HealthDevice(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone"),
      nil,
      HealthDevice(name: "Watch", manufacturer: "Apple Inc.", softwareVersion: "10.1\\beta"),
    ]
    var samples: [HealthSample] = []
    for number in 0..<60 {
      let source = sources[number / 3 % 2]
      let revision: SourceRevision? =
        number % 11 == 5
        ? nil
        : SourceRevision(
          source: source, version: number % 4 == 0 ? nil : "1\(number / 7 % 2)",
          productType: number % 5 == 0 ? "Watch6,1" : nil,
          operatingSystemVersion: number / 9 % 2 == 0 ? "17.1" : "17.1.1")
      let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 60)
      samples.append(
        HealthSample(
          uuid: HealthSQLiteStorageTests.uuid(number), type: .stepCount, startDate: start,
          endDate: start.addingTimeInterval(30), value: Double(number), sourceRevision: revision,
          device: devices[number / 2 % 3], metadata: [:], creationDate: start, workout: nil))
    }
    var parts: HealthRecordCodec.RepeatedParts? = .init()
    for (index, sample) in samples.enumerated() {
      var alone = JSONWriter()
      HealthRecordCodec.encode(sample, position: Int64(index + 1), into: &alone)
      var repeated = JSONWriter()
      HealthRecordCodec.encode(
        sample, position: Int64(index + 1), into: &repeated, repeating: &parts)
      #expect(repeated.bytes == alone.bytes, "sample \(index)")
      // The record as a whole, as before.
      var record = JSONWriter()
      HealthRecordCodec.encode(.sample(sample, position: Int64(index + 1)), into: &record)
      #expect(record.bytes == alone.bytes, "sample \(index)")
    }
  }
}
