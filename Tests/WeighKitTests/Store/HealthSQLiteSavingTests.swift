import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// What the saving thread of an all-types import changed in `health.sqlite` (docs/store.md,
/// "The saving thread, again"): a new database's page size, a database with the earlier
/// page size still read and written, and the columns' checksum as every weigh wrote it.
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

  /// The columns' bytes as the checksum's documentation lays them out, made here one by one.
  static func columnBytes(_ columns: HealthSQLiteColumns) -> [UInt8] {
    var bytes: [UInt8] = []
    func add(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    func add(_ text: String) {
      add(UInt64(text.utf8.count))
      bytes += text.utf8
    }
    add(UInt64(bitPattern: columns.position))
    bytes.append(columns.isDeletion ? 1 : 0)
    add(columns.type.rawValue)
    withUnsafeBytes(of: columns.uuid.uuid) { bytes += $0 }
    add(columns.start.bitPattern)
    add(columns.value.bitPattern)
    add(columns.bundle)
    bytes.append(columns.syncIdentifier == nil ? 0 : 1)
    if let identifier = columns.syncIdentifier { add(identifier) }
    bytes.append(columns.deleted == nil ? 0 : 1)
    if let deleted = columns.deleted { add(deleted.bitPattern) }
    add(UInt64(columns.rowChecksum))
    return bytes
  }

  /// The columns' checksum, gathered on the stack, is the CRC-32 of their bytes laid out one
  /// by one (what every earlier weigh wrote), for short and long texts alike.
  @Test func theColumnsChecksumIsTheCRCOfTheirBytes() {
    let long = String(repeating: "com.example.a-very-long-bundle-identifier.", count: 9)
    let identifiers: [String?] = [nil, "s1", String(repeating: "é", count: 200)]
    for (index, bundle) in ["", "com.apple.health", long].enumerated() {
      for identifier in identifiers {
        var metadata: Metadata = [:]
        if let identifier {
          metadata[MetadataKey.syncIdentifier] = .string(identifier)
          metadata[MetadataKey.syncVersion] = .number(2)
        }
        let start = Date(timeIntervalSince1970: 1_700_000_000.25 + Double(index))
        let sample = HealthSample(
          uuid: HealthSQLiteStorageTests.uuid(index + 7), type: .heartRate, startDate: start,
          endDate: start, value: 61.5,
          sourceRevision: SourceRevision(source: HealthSource(name: "n", bundleIdentifier: bundle)),
          device: nil, metadata: metadata, creationDate: nil, workout: nil)
        let live = HealthSQLiteColumns(sample, position: 42, rowChecksum: 0xDEAD_BEEF)
        let expected = Self.columnBytes(live).withUnsafeBufferPointer { StoreChecksum.of($0) }
        #expect(live.checksum == expected, "bundle \(index), \(identifier ?? "no identifier")")
        let deletion = HealthSQLiteColumns(
          .deletion(DeletedObjectRecord(deleting: sample, at: start), position: 43),
          rowChecksum: 7)
        #expect(deletion.isDeletion)
        let deletionBytes = Self.columnBytes(deletion)
        #expect(
          deletion.checksum == deletionBytes.withUnsafeBufferPointer { StoreChecksum.of($0) })
      }
    }
  }
}
