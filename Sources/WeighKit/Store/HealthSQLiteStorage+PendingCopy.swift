import Foundation
import GRDB
import GRDBSQLite

/// The pending record copied from one database into another a piece at a time, never held:
/// `weigh check --repair`'s rebuild of `health.sqlite` and the migration of an older one read
/// it whole (by SQLite's value, GRDB's `Data` and an array): a 512 MiB record took 1,051
/// MiB to repair and 1,573 MiB to migrate, 32 and 33 MiB so (docs/performance.md, "rep22";
/// docs/store.md, "The pending record copied in pieces (rep22)").
extension HealthSQLiteStorage {
  /// What a copy does with a pending record whose checksum does not match.
  enum DamagedPendingRecord: Sendable {
    /// Refused: the copy throws the damage, as `readPendingRecord` does (a migration, whose
    /// new file is then dropped: nothing changes).
    case refused
    /// Copied as it is, with the checksum it had, so that every reader still refuses it (a
    /// repair, which keeps what it can and makes no damaged record whole).
    case keptDamaged
  }

  /// Copies `source`'s pending record into `target`'s `pending_journal` (empty), in the
  /// transaction open on `target`, `pendingWriting.pieceBytes` at a time: in the layout `commitCommand`
  /// writes for its length (from `pendingWriting.fromBytes`, a zeroblob filled in pieces and
  /// the `pending_crc` meta row; else the row whole with its `crc`, under 8 MiB). Reads either
  /// layout of the source's row. Returns whether there was one.
  ///
  /// - Throws: `HealthSQLiteDamage` for a malformed row, or (`.refused`) a checksum that
  ///   does not match or cannot be read, after the pieces were written: the caller drops
  ///   the transaction; or what SQLite throws.
  @discardableResult
  static func copyPendingRecord(
    from source: Database, to target: Database, damaged: DamagedPendingRecord
  ) throws -> Bool {
    guard let row = try PendingRow(source) else { return false }
    let pieceBytes = pendingWriting.pieceBytes
    let stored: Int64?
    switch damaged {
    case .refused: stored = try pendingChecksum(row: row.checksum, source, nil)
    case .keptDamaged: stored = try? pendingChecksum(row: row.checksum, source, nil)
    }
    let sequence = Int(clamping: row.sequence)
    let inPieces = row.byteCount >= pendingWriting.fromBytes
    let read: UInt32
    var whole: [UInt8] = []
    if inPieces {
      let cacheKept = try shrinkPageCache(byteCount: row.byteCount, target)
      read = try insertInPieces(sequence: sequence, byteCount: row.byteCount, target) { write in
        _ = try row.readPieces(source, pieceBytes: pieceBytes) { piece in write(piece) }
      }
      if let cacheKept { try target.execute(sql: "PRAGMA cache_size = \(cacheKept)") }
    } else {
      whole.reserveCapacity(row.byteCount)
      read = try row.readPieces(source, pieceBytes: pieceBytes) { piece in
        whole.append(contentsOf: piece)
      }
    }
    let matches = stored == Int64(truncatingIfNeeded: read)
    guard matches || damaged == .keptDamaged else {
      throw HealthSQLiteDamage(
        position: nil, "the pending journal record does not match its checksum (damaged)")
    }
    // A damaged record keeps the checksum it had; one whose checksum cannot be read gets one
    // that cannot match its bytes.
    // checked: a UInt32 fits in Int64
    let checksum = matches ? Int64(read) : stored ?? Int64(~read)
    if inPieces {
      try setMeta(pendingChecksumKey, checksum, target)
    } else {
      var insert = HealthSQLiteBinding(
        try target.cachedStatement(
          sql: "INSERT INTO pending_journal (id, seq, record, crc) VALUES (1, ?, ?, ?)"))
      // checked: Int and Int64 have one width
      insert.bind(1, integer: Int64(sequence))
      insert.bind(3, integer: checksum)
      try whole.withUnsafeBytes { bytes in
        insert.bind(2, unchangingBlob: bytes)
        try insert.run()
      }
    }
    return true
  }

  /// Whether `db`'s pending record reads to its end (its checksum not compared), a piece at a
  /// time: what a repair can copy. False when there is none.
  static func pendingRecordReads(_ db: Database) -> Bool {
    guard let row = try? PendingRow(db) else { return false }
    return (try? row.readPieces(db, pieceBytes: pendingWriting.pieceBytes) { _ in }) != nil
  }
}
