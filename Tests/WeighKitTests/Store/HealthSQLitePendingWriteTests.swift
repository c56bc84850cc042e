import Foundation
import GRDB
import Testing

@testable import WeighKit

/// A large pending record written a piece at a time (`zeroblob` then `sqlite3_blob_write`,
/// its head copied from the journal file, its checksum in the `pending_crc` meta row): it
/// reads back as the record, whole or in pieces; a damaged one is refused and appends
/// nothing; a record written whole afterwards takes today's layout again.
@Suite struct HealthSQLitePendingWriteTests {
  static let small = HealthSQLiteStorage.PendingWriting(fromBytes: 0, pieceBytes: 7)

  /// A record of `headCount + restCount` bytes, its head written to `journal.jsonl` of
  /// `directory` after a line of its own.
  static func record(
    sequence: Int, headCount: Int, restCount: Int, in directory: TemporaryStoreDirectory
  ) -> (pending: HealthSQLiteStorage.PendingRecord, whole: [UInt8]) {
    let whole = (0..<(headCount + restCount)).map { UInt8(truncatingIfNeeded: $0 &* 13 % 251) }
    let before = Array("{\"seq\":1}\n".utf8)
    directory.write("journal.jsonl", before + whole.prefix(headCount))
    let head =
      headCount == 0
      ? nil
      : StoreRecordHead(
        path: directory.file("journal.jsonl"), range: before.count..<before.count + headCount)
    return (
      .init(sequence: sequence, bytes: Array(whole.suffix(restCount)), head: head), whole
    )
  }

  static func committed(
    _ pending: HealthSQLiteStorage.PendingRecord, writing: HealthSQLiteStorage.PendingWriting,
    in directory: TemporaryStoreDirectory
  ) throws -> HealthSQLiteStorage {
    let sqlite = try HealthSQLiteStorage(path: directory.file(HealthSQLiteStorage.fileName))
    try HealthSQLiteStorage.$pendingWriting.withValue(writing) {
      try sqlite.beginCommand()
      try sqlite.commitCommand(pending: pending, appSequence: pending.sequence)
    }
    return sqlite
  }

  static func rowChecksum(_ sqlite: HealthSQLiteStorage) throws -> (crc: Int64, kept: Int64?) {
    try sqlite.queue.inDatabase { db in
      (
        try Int64.fetchOne(db, sql: "SELECT crc FROM pending_journal") ?? -1,
        try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'pending_crc'")
      )
    }
  }

  @Test(arguments: [(0, 5_000), (4_096, 0), (4_097, 3_001), (1, 1), (0, 0)])
  func theRecordWrittenInPiecesReadsBackAsTheRecord(headCount: Int, restCount: Int) throws {
    for pieceBytes in [1, 7, 4_096] {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      let (pending, whole) = Self.record(
        sequence: 12, headCount: headCount, restCount: restCount, in: directory)
      let sqlite = try Self.committed(
        pending, writing: .init(fromBytes: 0, pieceBytes: pieceBytes), in: directory)
      defer { try? sqlite.close() }
      let expected = HealthSQLiteStorage.PendingRecord(sequence: 12, bytes: whole)
      #expect(try sqlite.pendingRecord().record == expected, "\(pieceBytes)-byte pieces")
      #expect(
        try sqlite.pendingRecordSummary().record == .init(sequence: 12, byteCount: whole.count))
      let checksum = try Self.rowChecksum(sqlite)
      #expect(checksum.crc == 0)
      #expect(
        checksum.kept == Int64(truncatingIfNeeded: HealthSQLiteStorage.pendingChecksum(expected)))

      // Appended from the row a piece at a time: the whole record.
      let journal = directory.file("journal.jsonl")
      directory.write("journal.jsonl", [])
      let descriptor = try StoreFileSystem.openForAppending(journal)
      try sqlite.appendPendingRecord(to: descriptor, path: journal, pieceBytes: 5)
      StoreFileSystem.closeDescriptor(descriptor)
      #expect(directory.bytes("journal.jsonl") == whole)
    }
  }

  /// A record below `fromBytes` is written whole with its own checksum, and the `pending_crc`
  /// row of a record written in pieces before goes with it; its head is read from the
  /// journal all the same.
  @Test func aSmallRecordAfterALargeOneTakesTheRowsOwnChecksum() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (large, _) = Self.record(sequence: 2, headCount: 300, restCount: 40, in: directory)
    let sqlite = try Self.committed(large, writing: Self.small, in: directory)
    defer { try? sqlite.close() }
    #expect(try Self.rowChecksum(sqlite).kept != nil)

    let (next, whole) = Self.record(sequence: 3, headCount: 100, restCount: 20, in: directory)
    try HealthSQLiteStorage.$pendingWriting.withValue(.init(fromBytes: 1_000, pieceBytes: 7)) {
      try sqlite.beginCommand()
      try sqlite.commitCommand(pending: next, appSequence: 3)
    }
    let expected = HealthSQLiteStorage.PendingRecord(sequence: 3, bytes: whole)
    #expect(try sqlite.pendingRecord().record == expected)
    let checksum = try Self.rowChecksum(sqlite)
    #expect(checksum.kept == nil)
    #expect(
      checksum.crc == Int64(truncatingIfNeeded: HealthSQLiteStorage.pendingChecksum(expected)))
    #expect(
      try HealthSQLiteStorage.check(path: directory.file(HealthSQLiteStorage.fileName)).isEmpty)
  }

  /// A head the journal file does not hold whole fails the commit: the transaction is rolled
  /// back, and the record of before stays with its checksum.
  @Test func aHeadCutShortFailsTheCommitAndKeepsTheRecordOfBefore() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (first, whole) = Self.record(sequence: 2, headCount: 300, restCount: 40, in: directory)
    let sqlite = try Self.committed(first, writing: Self.small, in: directory)
    defer { try? sqlite.close() }
    var cut = first
    cut.sequence = 3
    cut.head = StoreRecordHead(path: directory.file("journal.jsonl"), range: 10..<100_000)
    #expect(throws: StoreError.self) {
      try HealthSQLiteStorage.$pendingWriting.withValue(Self.small) {
        try sqlite.beginCommand()
        try sqlite.commitCommand(pending: cut, appSequence: 3)
      }
    }
    #expect(try sqlite.pendingRecord().record == .init(sequence: 2, bytes: whole))
    #expect(try sqlite.pendingRecord().appSequence == 2)
  }

  /// A record written in pieces whose checksum, sequence, bytes or length no longer agree is
  /// refused, whole or in pieces, with the message of a damaged record, and appends nothing;
  /// `weigh check` reports it.
  @Test(arguments: [
    "UPDATE meta SET value = value + 1, crc = crc WHERE key = 'pending_crc'",
    "DELETE FROM meta WHERE key = 'pending_crc'",
    "UPDATE pending_journal SET seq = seq + 1",
    "UPDATE pending_journal SET record = zeroblob(length(record))",
    "UPDATE pending_journal SET record = CAST(record || x'00' AS BLOB)",
    "UPDATE pending_journal SET record = substr(record, 1, length(record) - 1)",
  ])
  func aDamagedRecordWrittenInPiecesIsRefusedAndAppendsNothing(damage: String) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (pending, _) = Self.record(sequence: 4, headCount: 3_000, restCount: 2_001, in: directory)
    try Self.committed(pending, writing: Self.small, in: directory).close()
    let path = directory.file(HealthSQLiteStorage.fileName)
    try DatabaseQueue(path: path).write { db in try db.execute(sql: damage) }
    let sqlite = try HealthSQLiteStorage(path: path, creating: false)
    defer { try? sqlite.close() }
    try HealthSQLitePendingPiecesTests.expectRefusedAndAppendsNothing(
      sqlite, in: directory, damage)
  }

  /// The row today's weigh writes for every record (format 3, its own checksum, no meta row)
  /// is still read, whole and in pieces, and a record written in pieces replaces it.
  @Test func todaysRowIsReadAndReplaced() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let old = HealthSQLiteStorage.PendingRecord(
      sequence: 5, bytes: (0..<9_000).map { UInt8(truncatingIfNeeded: $0) })
    let sqlite = try Self.committed(
      old, writing: .init(fromBytes: .max, pieceBytes: 7), in: directory)
    defer { try? sqlite.close() }
    #expect(try Self.rowChecksum(sqlite).kept == nil)
    #expect(try sqlite.pendingRecord().record == old)
    #expect(try sqlite.pendingRecordSummary().record == .init(sequence: 5, byteCount: 9_000))
    let (next, whole) = Self.record(sequence: 6, headCount: 500, restCount: 500, in: directory)
    try HealthSQLiteStorage.$pendingWriting.withValue(Self.small) {
      try sqlite.beginCommand()
      try sqlite.commitCommand(pending: next, appSequence: 6)
    }
    #expect(try sqlite.pendingRecord().record == .init(sequence: 6, bytes: whole))
  }
}
