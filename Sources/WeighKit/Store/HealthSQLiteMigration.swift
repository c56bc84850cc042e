import Foundation
import GRDB
import GRDBSQLite
import HealthSim

/// The migration of a format-1 or format-2 `health.sqlite` to format 3, once, at the first
/// writable open (docs/store.md, "Format 2: a leaner row" and "Format 3: a pair of type
/// indexes per type present").
extension HealthSQLiteStorage {
  /// The name of the old file of format `version` kept beside the new one.
  static func backupName(version: Int64) -> String { fileName + ".v\(version)" }

  /// Migrates the format-1 or format-2 database at `path`, in the store `directory`, to
  /// format 3; nil when it is neither (nothing to do: the storage's open says what is wrong
  /// with any other file).
  ///
  /// 1. Checkpoints the old file's log (a writable connection), so that the file alone is
  ///    the database.
  /// 2. Builds `health.sqlite.tmp` in one transaction, without a journal or syncs (it is
  ///    nobody's yet): format 3's tables, every record read and checked as a query reads
  ///    it and copied in position order (format 1's by `HealthSQLiteFormat2.copyRecords`,
  ///    format 2's rows and origins as they are, `HealthSQLiteFormat3.copyRecords`), the
  ///    index pairs of the types present and the UUID index made after the rows, and the
  ///    state, pending-journal and meta rows (all but `format`) copied as they are, each
  ///    checked first; the counts checked against the records copied.
  /// 3. Keeps the old file as `health.sqlite.v1` or `.v2` (its format; a hard link, or a
  ///    streamed copy where the file system has no links; `.v2-2`, … when that name is
  ///    taken by another file), synced.
  /// 4. Moves the new file over `health.sqlite` (`moveIntoPlace`: synced, renamed, the
  ///    folder synced): the commit point.
  ///
  /// A kill before 4 leaves the old file, which the next call migrates again (a link left
  /// by the killed run is reused); after it, the new file is whole.
  ///
  /// With `linking` false, the old file is copied, never linked (for tests).
  ///
  /// - Throws: `StoreError.corrupt` with `weigh check`'s advice for a damaged old file
  ///   (nothing changed), `io` when a file cannot be written.
  @discardableResult
  public static func migrateIfNeeded(
    path: String, directory: String, linking: Bool = true
  ) throws(StoreError) -> Migration? {
    guard let headerVersion = olderFormatInHeader(path) else { return nil }
    _ = HealthSQLiteLibrary.configured
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    let source = try mapped(path) { try DatabaseQueue(path: path, configuration: configuration) }
    defer { try? source.close() }
    let isOlder = try mapped(path) {
      try source.inDatabase { db in
        let application = try Int64.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let version = try Int64.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        return application == applicationID && version == headerVersion
      }
    }
    guard isOlder else { return nil }
    try mapped(path) {
      try source.inDatabase { db in
        let result = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        guard let result, (result[0] as Int64?) == 0 else {
          throw StoreError(
            .locked, file: path, message: "another process is using the database; try again")
        }
      }
    }
    let temporary = path + ".tmp"
    HealthSQLiteStorage.removingLeftovers(of: temporary)
    let records: Int
    let backup: String
    do throws(StoreError) {
      records = try mapped(path) {
        try source.read { db in try buildFormat3(at: temporary, from: db, version: headerVersion) }
      }
      backup = try keepOldFile(
        path, directory: directory, name: backupName(version: headerVersion), linking: linking)
      try moveIntoPlace(temporary, to: path, directory: directory)
    } catch {
      // Nobody's file: the old one is as it was.
      try? FileManager.default.removeItem(atPath: temporary)
      throw error
    }
    return Migration(records: records, backup: backup)
  }

  /// What a migration to format 3 did.
  public struct Migration: Equatable, Sendable {
    /// How many records it copied.
    public var records: Int
    /// The old file's name in the store's directory (`health.sqlite.v1` or `.v2`).
    public var backup: String

    /// The note said once on stderr.
    public var note: String {
      "\(fileName) moved to format \(formatVersion) (\(records) records); the old file is kept "
        + "as \(backup)"
    }
  }

  /// Writes format 3's database at `temporary` (which must not exist) from the database
  /// `source` of format `version` (1 or 2); returns how many records it holds.
  private static func buildFormat3(at temporary: String, from source: Database, version: Int64)
    throws -> Int
  {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      try db.execute(
        sql: "PRAGMA page_size = \(pageSize); PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
      // The UUID index's sort in temporary files and a small cache, as
      // `HealthSQLiteUUIDIndex` makes it: memory stays bounded at any size.
      try db.execute(
        sql: "PRAGMA temp_store = FILE; "
          + "PRAGMA cache_size = -\(HealthSQLiteUUIDIndex.sortCacheKibibytes)")
    }
    let target = try DatabaseQueue(path: temporary, configuration: configuration)
    defer { try? target.close() }
    return try target.inDatabase { db in
      try db.execute(sql: "BEGIN IMMEDIATE;\n" + creation(version: HealthSQLiteFormat3.version))
      let copied: Int
      do {
        // The indexes made once, after the rows, each by a sort (as a new store's first
        // import makes the UUID index: "The UUID index made once"), not kept up row by row.
        try db.execute(sql: "DROP INDEX record_uuid")
        copied =
          version == 1
          ? try HealthSQLiteFormat2.copyRecords(from: source, to: db)
          : try HealthSQLiteFormat3.copyRecords(from: source, to: db)
        for code in try Int64.fetchAll(db, sql: "SELECT DISTINCT type FROM record ORDER BY type") {
          try HealthSQLiteFormat3.makePair(code, db)
        }
        try db.execute(sql: HealthSQLiteUUIDIndex.creation)
        try copySmallRows(from: source, to: db)
        try db.execute(sql: "COMMIT")
      } catch {
        try? db.execute(sql: "ROLLBACK")
        throw error
      }
      // The log's flag in the header: every later open finds the database in WAL mode.
      guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
        throw HealthSQLiteDamage(position: nil, "the new database cannot use its write-ahead log")
      }
      return copied
    }
  }

  /// Copies the meta rows (but `format`), the state and the pending journal record of
  /// `source` into `target`, each checked against its checksum first; then checks the
  /// counts the meta rows hold against the records `target` holds.
  private static func copySmallRows(from source: Database, to target: Database) throws {
    try target.execute(sql: "DELETE FROM meta WHERE key != 'format'")
    var meta: [String: Int64] = [:]
    for key in try String.fetchAll(source, sql: "SELECT key FROM meta WHERE key != 'format'") {
      guard let value = try Self.meta(key, source) else { continue }
      meta[key] = value
      try target.execute(
        sql: "INSERT INTO meta (key, value, crc) VALUES (?, ?, ?)",
        arguments: [key, value, Int64(truncatingIfNeeded: metaChecksum(key, value))])
    }
    // Checked, then copied as they are (their checksums do not include the format).
    _ = try readState(source)
    if let row = try Row.fetchOne(source, sql: "SELECT json, crc FROM state WHERE id = 1") {
      try target.execute(
        sql: "INSERT INTO state (id, json, crc) VALUES (1, ?, ?)",
        arguments: [row[0] as DatabaseValue, row[1] as DatabaseValue])
    }
    // A piece at a time, in the layout a commit writes for its length (a record of 8 MiB
    // or more in pieces, its checksum in `pending_crc`): read whole, a 512 MiB record took
    // 1,573 MiB to migrate, 33 MiB so (docs/performance.md, "rep22"). A damaged one is
    // refused.
    try copyPendingRecord(from: source, to: target, damaged: .refused)
    var counted: [String: Int64] = [:]
    let grouped = try Row.fetchCursor(
      target, sql: "SELECT type, kind, count(*) FROM record GROUP BY type, kind")
    while let row = try grouped.next() {
      guard let type = HealthSQLiteTypeCode.type(row[0]) else { continue }
      let keys = countKeys(type)
      counted[(row[1] as Int64) == 1 ? keys.deletions : keys.samples] = row[2]
    }
    for type in SampleType.allCases {
      let keys = countKeys(type)
      for key in [keys.samples, keys.deletions] where (meta[key] ?? 0) != (counted[key] ?? 0) {
        throw HealthSQLiteDamage(
          position: nil,
          "the count \"\(key)\" says \(meta[key] ?? 0) but there are \(counted[key] ?? 0) records")
      }
    }
  }

  /// The pending journal record of `db`, checked against its checksum; nil when there is
  /// none.
  static func readPendingRecord(_ db: Database) throws -> PendingRecord? {
    guard let row = try Row.fetchOne(db, sql: "SELECT seq, record, crc FROM pending_journal")
    else { return nil }
    guard case .int64(let sequence) = (row[0] as DatabaseValue).storage,
      case .blob(let bytes) = (row[1] as DatabaseValue).storage,
      case .int64(let rowChecksum) = (row[2] as DatabaseValue).storage
    else {
      throw HealthSQLiteDamage(position: nil, "the pending journal record is malformed")
    }
    let checksum = try pendingChecksum(row: rowChecksum, db, nil)
    let pending = PendingRecord(sequence: Int(clamping: sequence), bytes: Array(bytes))
    guard checksum == Int64(truncatingIfNeeded: pendingChecksum(pending)) else {
      throw HealthSQLiteDamage(
        position: nil, "the pending journal record does not match its checksum (damaged)")
    }
    return pending
  }

  /// The format (1 or 2) of the file at `path` when it begins with the header of a weigh
  /// Health database older than format 3 (SQLite's magic, `user_version` at offset 60,
  /// `application_id` at offset 68, both big-endian), else nil: a read of 72 bytes, so that
  /// the open of every later command (format 3) costs no connection. Both numbers are
  /// written once, when a file is made, and never through the log, so the file's own header
  /// holds them.
  static func olderFormatInHeader(_ path: String) -> Int64? {
    var header: [UInt8] = []
    guard StoreFileSystem.read(path, at: 0, count: 72, into: &header), header.count == 72,
      header.prefix(16).elementsEqual(Array("SQLite format 3".utf8) + [0])
    else { return nil }
    func number(at offset: Int) -> Int64 {
      // checked: a UInt32 fits in Int64
      Int64(header[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }
    let version = number(at: 60)
    guard number(at: 68) == applicationID, version == 1 || version == HealthSQLiteFormat2.version
    else { return nil }
    return version
  }
}
