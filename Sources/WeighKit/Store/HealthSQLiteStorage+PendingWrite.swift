import Foundation
import GRDB
import GRDBSQLite

/// A large pending record written a piece at a time (docs/store.md, "The pending record
/// written in pieces (hpend21)"): the row is inserted as `zeroblob(N)` with a `crc` of 0,
/// filled through `sqlite3_blob_write`, and its checksum kept in the meta row
/// `pending_crc`. SQLite builds a row whole, blob included, unless the zeroblob is the last
/// column holding bytes; an integer 0 takes none, so the row stays unbuilt, and neither
/// weigh nor SQLite holds the record: a new store's import with `types`, 1,000,000 weights
/// (a 127 MB record) 301 → 83 MiB at the peak, 4,000,000 1,080 → 132 MiB, +13 M
/// instructions (1.006×) at 100,000 (docs/performance.md, "hpend21").
extension HealthSQLiteStorage {
  /// From which length a pending record is written in pieces, and the size of a piece.
  struct PendingWriting: Sendable {
    /// The least length written in pieces; a shorter record keeps the row's own checksum.
    var fromBytes = StoreJournal.largeRecordBytes
    /// The bytes written (and read from the journal's head) at a time.
    var pieceBytes = pendingPieceBytes
  }

  /// How pending records are written (tests make both small).
  @TaskLocal static var pendingWriting = PendingWriting()

  /// The meta row holding the checksum of a pending record written in pieces, whose row's
  /// `crc` is 0; absent for a record written whole.
  static let pendingChecksumKey = "pending_crc"

  /// The checksum of the pending record whose row's `crc` is `row`: the `pending_crc` meta
  /// row's when the row's is 0 and there is one (a record written in pieces), else the
  /// row's.
  static func pendingChecksum(row: Int64, _ db: Database, _ statements: HealthSQLiteStatements?)
    throws -> Int64
  {
    guard row == 0, let kept = try meta(pendingChecksumKey, db, statements) else { return row }
    return kept
  }

  /// Removes the `pending_crc` meta row, with the row it belonged to (a DELETE that finds
  /// none writes nothing: a store that never had one stays byte for byte).
  static func forgetPendingChecksum(_ db: Database) throws {
    var delete = HealthSQLiteBinding(try db.cachedStatement(sql: "DELETE FROM meta WHERE key = ?"))
    delete.bind(1, text: pendingChecksumKey)
    try delete.run()
  }

  /// Inserts `pending` as `pending_journal`'s row, `pieceBytes` at a time (its head read
  /// from the journal file), and its checksum, summed over the pieces as they pass, into
  /// the `pending_crc` meta row: in the transaction open on `db`, so that a kill anywhere
  /// leaves the row of before, or this one whole with its checksum.
  static func insertInPieces(_ pending: PendingRecord, pieceBytes: Int, _ db: Database) throws {
    let checksum = try insertInPieces(
      sequence: pending.sequence, byteCount: pending.byteCount, db
    ) { write in
      try pending.head?.read(pieceBytes: pieceBytes) { piece in write(piece) }
      pending.bytes.withUnsafeBytes { rest in
        var start = 0
        while start < rest.count {
          let end = min(start + pieceBytes, rest.count)
          write(UnsafeRawBufferPointer(rebasing: rest[start..<end]))
          start = end
        }
      }
    }
    try setMeta(pendingChecksumKey, Int64(truncatingIfNeeded: checksum), db)
  }

  /// Inserts a `pending_journal` row of `sequence` and `byteCount` bytes as `zeroblob` with a
  /// `crc` of 0, and fills it with the pieces `fill` hands to its `write`, in order; returns
  /// their checksum (`pendingChecksum`'s value), for the caller's `pending_crc` meta row.
  ///
  /// - Throws: what SQLite or `fill` throws, or `HealthSQLiteDamage` when the pieces do not
  ///   make `byteCount` bytes.
  static func insertInPieces(
    sequence: Int, byteCount: Int, _ db: Database,
    fill: ((UnsafeRawBufferPointer) -> Void) throws -> Void
  ) throws -> UInt32 {
    let connection = db.sqliteConnection
    var insert = HealthSQLiteBinding(
      try db.cachedStatement(
        sql: "INSERT INTO pending_journal (id, seq, record, crc) VALUES (1, ?, zeroblob(?), 0)"))
    // checked: Int and Int64 have one width
    insert.bind(1, integer: Int64(sequence))
    // checked: Int and Int64 have one width
    insert.bind(2, integer: Int64(byteCount))
    try insert.run()
    var handle: OpaquePointer?
    let opened = sqlite3_blob_open(connection, "main", "pending_journal", "record", 1, 1, &handle)
    defer { sqlite3_blob_close(handle) }
    guard opened == SQLITE_OK, let handle else { throw blobFailure(opened, connection) }
    var crc = ZipCRC32()
    var sequenceBytes = UInt64(truncatingIfNeeded: sequence).littleEndian
    withUnsafeBytes(of: &sequenceBytes) { crc.update($0) }
    var offset = 0
    var failure: CInt?
    try fill { piece in
      guard failure == nil, !piece.isEmpty else { return }
      crc.update(piece)
      // checked: a piece and an offset within a blob, which SQLite limits below 2 GiB
      let code = sqlite3_blob_write(handle, piece.baseAddress, CInt(piece.count), CInt(offset))
      if code != SQLITE_OK { failure = code }
      offset += piece.count
    }
    if let failure { throw blobFailure(failure, connection) }
    guard offset == byteCount else {
      throw HealthSQLiteDamage(position: nil, "the pending journal record was cut short")
    }
    return crc.value
  }
}
