import Foundation
import GRDB
import GRDBSQLite

/// The pending journal record read a piece at a time (SQLite's incremental blob I/O), never
/// held whole: a streamed import's record (150 MB at 1,000,000 weights) was read into
/// SQLite's value, GRDB's `Data` and an array by the open that appends it after a kill, and
/// by `weigh check`'s look at it (docs/store.md, "The pending record read in pieces").
extension HealthSQLiteStorage {
  /// The pending record's sequence and length, its checksum checked.
  public struct PendingRecordSummary: Hashable, Sendable {
    /// The app sequence the record takes.
    public var sequence: Int
    /// The record's length in bytes.
    public var byteCount: Int
  }

  /// The bytes of the pending record read at a time (tests make it small).
  static let pendingPieceBytes = 1 << 20

  /// The pending record, checked against its checksum without holding it (as
  /// `pendingRecord()` checks it, with the same refusals), and the app sequence the
  /// database matches.
  public func pendingRecordSummary() throws(StoreError) -> (
    record: PendingRecordSummary?, appSequence: Int
  ) {
    try checkOpen()
    return try Self.mapped(path) { () throws -> (record: PendingRecordSummary?, appSequence: Int) in
      try queue.inDatabase { db in
        let appSequence = Int(clamping: try Self.meta("app_sequence", db, statements) ?? 0)
        return (try Self.readPendingRecord(db, pieceBytes: Self.pendingPieceBytes), appSequence)
      }
    }
  }

  /// Appends the pending record to `descriptor` (the journal at `path`) a piece at a time,
  /// each piece one write; checked against its checksum first, so a damaged record writes
  /// nothing.
  ///
  /// - Throws: what `pendingRecordSummary()` throws, or `io` when a write fails.
  func appendPendingRecord(
    to descriptor: Int32, path journal: String, pieceBytes: Int = pendingPieceBytes
  ) throws(StoreError) {
    try checkOpen()
    try Self.mapped(path) {
      try queue.inDatabase { db in
        guard try Self.readPendingRecord(db, pieceBytes: pieceBytes) != nil else { return }
        // The write's own `StoreError` goes through `mapped` as it is.
        _ = try Self.readPendingRecord(db, pieceBytes: pieceBytes) { piece in
          try StoreFileSystem.writeAll(descriptor, Array(piece), path: journal)
        }
      }
    }
  }

  /// `db`'s pending record, read `pieceBytes` at a time through `sqlite3_blob_read`: its
  /// checksum over the pieces as they pass (`pendingChecksum`'s value), each piece handed to
  /// `body`; nil when there is none.
  ///
  /// - Throws: `HealthSQLiteDamage` for a malformed row or a checksum that does not match
  ///   (after `body` saw every piece: a caller that must not use a damaged record checks
  ///   first, without `body`), or what SQLite or `body` throws.
  static func readPendingRecord(
    _ db: Database, pieceBytes: Int,
    _ body: ((UnsafeRawBufferPointer) throws -> Void)? = nil
  ) throws -> PendingRecordSummary? {
    guard let row = try PendingRow(db) else { return nil }
    let checksum = try pendingChecksum(row: row.checksum, db, nil)
    let read = try row.readPieces(db, pieceBytes: pieceBytes) { bytes in try body?(bytes) }
    guard checksum == Int64(truncatingIfNeeded: read) else {
      throw HealthSQLiteDamage(
        position: nil, "the pending journal record does not match its checksum (damaged)")
    }
    return row.summary
  }

  /// The `pending_journal` row as its header says (`typeof` and `length` of a blob read the
  /// row's header, not the blob).
  struct PendingRow {
    /// The row's id, for `sqlite3_blob_open`.
    var rowID: Int64
    /// The app sequence the record takes.
    var sequence: Int64
    /// The record's length in bytes.
    var byteCount: Int
    /// The row's `crc` (0 for a record written in pieces: see `pendingChecksum(row:_:_:)`).
    var checksum: Int64

    /// `db`'s row; nil when there is none.
    ///
    /// - Throws: `HealthSQLiteDamage` when a column has the wrong type.
    init?(_ db: Database) throws {
      guard
        let row = try Row.fetchOne(
          db,
          sql: "SELECT rowid, seq, typeof(record), length(record), crc FROM pending_journal")
      else { return nil }
      guard case .int64(let rowID) = (row[0] as DatabaseValue).storage,
        case .int64(let sequence) = (row[1] as DatabaseValue).storage,
        (row[2] as DatabaseValue) == "blob".databaseValue,
        case .int64(let length) = (row[3] as DatabaseValue).storage,
        case .int64(let checksum) = (row[4] as DatabaseValue).storage
      else {
        throw HealthSQLiteDamage(position: nil, "the pending journal record is malformed")
      }
      self.rowID = rowID
      self.sequence = sequence
      self.byteCount = Int(length)  // checked: Int and Int64 have one width
      self.checksum = checksum
    }

    /// The record's sequence and length.
    var summary: PendingRecordSummary {
      PendingRecordSummary(sequence: Int(clamping: sequence), byteCount: byteCount)
    }

    /// Hands the record to `body` `pieceBytes` at a time through `sqlite3_blob_read` (the
    /// same buffer each time); returns the checksum of the sequence's eight bytes and the
    /// pieces (`pendingChecksum`'s value), not compared with anything.
    func readPieces(
      _ db: Database, pieceBytes: Int, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> UInt32 {
      let connection = db.sqliteConnection
      var handle: OpaquePointer?
      let opened = sqlite3_blob_open(
        connection, "main", "pending_journal", "record", rowID, 0, &handle)
      defer { sqlite3_blob_close(handle) }
      guard opened == SQLITE_OK, let handle else {
        throw HealthSQLiteStorage.blobFailure(opened, connection)
      }
      var crc = ZipCRC32()
      var sequenceBytes = UInt64(truncatingIfNeeded: sequence).littleEndian
      withUnsafeBytes(of: &sequenceBytes) { crc.update($0) }
      let piece = UnsafeMutableRawBufferPointer.allocate(
        byteCount: max(1, min(pieceBytes, byteCount)), alignment: 1)
      defer { piece.deallocate() }
      var offset = 0
      while offset < byteCount {
        let count = min(piece.count, byteCount - offset)
        // checked: a piece and an offset within a blob, which SQLite limits below 2 GiB
        let code = sqlite3_blob_read(handle, piece.baseAddress, CInt(count), CInt(offset))
        guard code == SQLITE_OK else { throw HealthSQLiteStorage.blobFailure(code, connection) }
        let bytes = UnsafeRawBufferPointer(rebasing: piece[..<count])
        crc.update(bytes)
        try body(bytes)
        offset += count
      }
      return crc.value
    }
  }

  /// SQLite's error for a failed call of its incremental blob I/O on `connection`.
  static func blobFailure(_ code: CInt, _ connection: OpaquePointer?) -> DatabaseError {
    DatabaseError(
      resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
  }
}
