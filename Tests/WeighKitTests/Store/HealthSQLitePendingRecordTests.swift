import Foundation
import GRDB
import Testing

@testable import WeighKit

/// The app journal's record a command commits into `pending_journal`, bound straight to
/// SQLite and checksummed in two parts (sequence, then record): what an earlier weigh wrote
/// still reads, and what is written reads back whole.
@Suite struct HealthSQLitePendingRecordTests {
  /// The checksum as weigh computed it before: the sequence's eight bytes, least
  /// significant first, joined to the record, then summed.
  static func joinedChecksum(_ pending: HealthSQLiteStorage.PendingRecord) -> UInt32 {
    var bytes: [UInt8] = []
    let sequence = UInt64(truncatingIfNeeded: pending.sequence)
    for shift in stride(from: 0 as UInt64, to: 64, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: sequence >> shift))
    }
    bytes += pending.bytes
    return bytes.withUnsafeBufferPointer { StoreChecksum.of($0) }
  }

  @Test(arguments: [0, 1, 255, 256, 70_000, Int.max])
  func checksumIsTheJoinedBytesChecksum(sequence: Int) {
    for length in [0, 1, 7, 4_096, 600_001] {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ sequence) }
      let pending = HealthSQLiteStorage.PendingRecord(sequence: sequence, bytes: bytes)
      #expect(
        HealthSQLiteStorage.pendingChecksum(pending) == Self.joinedChecksum(pending),
        "sequence \(sequence), \(length) bytes")
    }
  }

  /// Two commands' records, the second larger than many pages: each reads back as written,
  /// the first replaced by the second.
  @Test func committedRecordReadsBackWhole() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let sqlite = try HealthSQLiteStorage(path: directory.file(HealthSQLiteStorage.fileName))
    defer { try? sqlite.close() }
    let small = HealthSQLiteStorage.PendingRecord(sequence: 1, bytes: Array("{\"seq\":1}\n".utf8))
    try sqlite.beginCommand()
    try sqlite.commitCommand(pending: small, appSequence: 1)
    #expect(try sqlite.pendingRecord().record == small)
    #expect(try sqlite.pendingRecord().appSequence == 1)

    let large = HealthSQLiteStorage.PendingRecord(
      sequence: 2, bytes: (0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) } + [0x0A])
    try sqlite.beginCommand()
    try sqlite.commitCommand(pending: large, appSequence: 2)
    #expect(try sqlite.pendingRecord().record == large)

    try sqlite.beginCommand()
    try sqlite.commitCommand(pending: nil, appSequence: 2)
    #expect(try sqlite.pendingRecord().record == nil)
    #expect(try sqlite.pendingRecord().appSequence == 2)
  }
}

/// The pending record read a piece at a time (`sqlite3_blob_read`), as the open that appends
/// it after a kill and `weigh check` read it: the same bytes, the same checksum, the same
/// refusals as the record read whole.
@Suite struct HealthSQLitePendingPiecesTests {
  static func committed(_ pending: HealthSQLiteStorage.PendingRecord?, in path: String) throws
    -> HealthSQLiteStorage
  {
    let sqlite = try HealthSQLiteStorage(path: path)
    try sqlite.beginCommand()
    try sqlite.commitCommand(pending: pending, appSequence: pending?.sequence ?? 0)
    return sqlite
  }

  @Test(arguments: [1, 7, 4_096, 1 << 20])
  func piecesJoinedAreTheRecordAndItsChecksumHolds(pieceBytes: Int) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let record = HealthSQLiteStorage.PendingRecord(
      sequence: 9, bytes: (0..<70_001).map { UInt8(truncatingIfNeeded: $0 &* 7 % 253) } + [0x0A])
    let sqlite = try Self.committed(record, in: directory.file(HealthSQLiteStorage.fileName))
    defer { try? sqlite.close() }
    var joined: [UInt8] = []
    var pieces = 0
    let summary = try sqlite.queue.inDatabase { db in
      try HealthSQLiteStorage.readPendingRecord(db, pieceBytes: pieceBytes) { piece in
        #expect(piece.count <= pieceBytes)
        joined += piece
        pieces += 1
      }
    }
    #expect(summary == .init(sequence: 9, byteCount: record.bytes.count))
    #expect(joined == record.bytes)
    #expect(pieces == (record.bytes.count + pieceBytes - 1) / pieceBytes)
    #expect(try sqlite.pendingRecord().record == record, "the whole read agrees")
    #expect(try sqlite.pendingRecordSummary().record == summary)
    #expect(try sqlite.pendingRecordSummary().appSequence == 9)

    // Appended a piece at a time: the record's bytes, after what the file held.
    let journal = directory.file("journal.jsonl")
    directory.write("journal.jsonl", Array("{\"seq\":8}\n".utf8))
    let descriptor = try StoreFileSystem.openForAppending(journal)
    try sqlite.appendPendingRecord(to: descriptor, path: journal, pieceBytes: pieceBytes)
    StoreFileSystem.closeDescriptor(descriptor)
    #expect(directory.bytes("journal.jsonl") == Array("{\"seq\":8}\n".utf8) + record.bytes)
  }

  /// A record of `StoreJournal.largeRecordBytes` or more is written through SQLite's
  /// default page cache (`shrinkPageCache`): it reads back whole, and the connection's
  /// cache is the one it had.
  @Test func aLargeRecordIsWrittenThroughASmallCacheAndTheCacheIsKept() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let sqlite = try HealthSQLiteStorage(path: directory.file(HealthSQLiteStorage.fileName))
    defer { try? sqlite.close() }
    try sqlite.setPageCache(mebibytes: 64)
    let large = HealthSQLiteStorage.PendingRecord(
      sequence: 2,
      bytes: (0..<StoreJournal.largeRecordBytes).map { UInt8(truncatingIfNeeded: $0 % 241) }
        + [0x0A])
    try sqlite.beginCommand()
    try sqlite.commitCommand(pending: large, appSequence: 2)
    #expect(try sqlite.pageCacheKibibytes() == 64 * 1024)
    #expect(try sqlite.pendingRecord().record == large)
    #expect(try sqlite.pendingRecordSummary().record?.byteCount == large.bytes.count)
  }

  @Test func noRecordAndAnEmptyOneRead() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let sqlite = try Self.committed(nil, in: directory.file(HealthSQLiteStorage.fileName))
    defer { try? sqlite.close() }
    #expect(try sqlite.pendingRecordSummary().record == nil)
    try sqlite.beginCommand()
    try sqlite.commitCommand(pending: .init(sequence: 3, bytes: []), appSequence: 3)
    #expect(try sqlite.pendingRecordSummary().record == .init(sequence: 3, byteCount: 0))
    #expect(try sqlite.pendingRecord().record == .init(sequence: 3, bytes: []))
  }

  /// A record whose checksum does not match (its checksum, its sequence or its bytes
  /// changed) is refused as the whole read refuses it, and appends nothing.
  @Test(arguments: [
    "UPDATE pending_journal SET crc = crc + 1",
    "UPDATE pending_journal SET seq = seq + 1",
    "UPDATE pending_journal SET record = zeroblob(5001)",
  ])
  func aDamagedRecordIsRefusedAndAppendsNothing(damage: String) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    let record = HealthSQLiteStorage.PendingRecord(
      sequence: 4, bytes: Array(repeating: 0x61, count: 5_000) + [0x0A])
    try Self.committed(record, in: path).close()
    try DatabaseQueue(path: path).write { db in try db.execute(sql: damage) }
    let sqlite = try HealthSQLiteStorage(path: path, creating: false)
    defer { try? sqlite.close() }
    try Self.expectRefusedAndAppendsNothing(sqlite, in: directory, "\(damage)")
  }

  /// The damaged pending record of `sqlite` is refused, read whole or in pieces, with one
  /// message, and appending it to an empty `journal.jsonl` in `directory` throws and writes
  /// nothing.
  static func expectRefusedAndAppendsNothing(
    _ sqlite: HealthSQLiteStorage, in directory: TemporaryStoreDirectory, _ label: String
  ) throws {
    var whole: StoreError?
    do { _ = try sqlite.pendingRecord() } catch { whole = error }
    var pieces: StoreError?
    do { _ = try sqlite.pendingRecordSummary() } catch { pieces = error }
    #expect(whole != nil, "\(label)")
    #expect(pieces?.message == whole?.message, "\(label): \(String(describing: pieces))")
    let journal = directory.file("journal.jsonl")
    directory.write("journal.jsonl", [])
    let descriptor = try StoreFileSystem.openForAppending(journal)
    defer { StoreFileSystem.closeDescriptor(descriptor) }
    #expect(throws: StoreError.self) {
      try sqlite.appendPendingRecord(to: descriptor, path: journal, pieceBytes: 1_000)
    }
    #expect(directory.bytes("journal.jsonl") == [])
  }
}
