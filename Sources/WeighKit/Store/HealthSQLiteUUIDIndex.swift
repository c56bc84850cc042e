import Foundation
import GRDB

/// The `record_uuid` index of a command that fills an empty `record` table (a new store's
/// first import), dropped while the command inserts and made again, once, by one
/// `CREATE INDEX` before the command's `COMMIT` (docs/store.md, "The UUID index made once").
///
/// Kept up row by row, the index took an insert at a random place of a B-tree per row: at
/// 1.25 million rows about 4 µs a row, made once at the end 1.8 µs (SQLite sorts the UUIDs,
/// then writes the index's pages in order; the sqlite3 shell: docs/performance.md, "The UUID
/// index made once at the end").
///
/// The drop and the creation are statements of the command's transaction, so a rollback or a
/// kill brings the index back with everything else. While it is missing, a UUID question
/// the command's own UUIDs cannot answer (`HealthSQLiteCommandUUIDs`: a "maybe", a deletion,
/// a range of UUIDs) makes it first (`makeIfMissing`), and the command carries on with the
/// index kept up, as before. Without it a query by UUID would still be right (SQLite would
/// scan the table), but slow.
///
/// The `record_type_pos` index goes the same way, dropped and made again with it: kept up row
/// by row, its inserts land in the middle of the index (the end of each type's range), where
/// each leaf is split again and again; made once at the end, with the sort's helper threads,
/// the command's thread does 1,600 fewer instructions a row (the sqlite3 shell, 124,396
/// rows), and the saving thread of the 100 MB all-types import 5.3 % fewer in all (3 % more
/// at 10 MB, 12,486 rows, where the sort needs no helper: docs/performance.md, "SQLite's
/// cost per Health row (hsave14)"). The anchored read
/// (`changes(of:after:limit:)`), which a row range of the table would answer only by a scan,
/// makes it first (`makeTypeIndexIfMissing`); the other reads by type use
/// `record_type_start` meanwhile, at the same order of cost.
final class HealthSQLiteUUIDIndex {
  /// The index's statement, as the schema (`HealthSQLiteStorage.schema`) writes it: made again
  /// by this text, `sqlite_schema` holds the same as in a store that never dropped it.
  static let creation = "CREATE INDEX record_uuid ON record(uuid)"
  /// `record_type_pos`'s statement, as the schema writes it (see `creation`).
  static let typeCreation = "CREATE INDEX record_type_pos ON record(type, pos)"
  /// The page cache SQLite keeps while it makes the index, in KiB. Its sorter keeps up to
  /// the page cache's size of sorted keys in memory, then writes them to temporary files
  /// (unlinked at once: nothing is left after a kill), but only when temporary files are
  /// files (`temp_store = FILE`): with `MEMORY`, as the storage runs otherwise, the sort of
  /// 1.25 million UUIDs took 76 MiB more. Measured with the sqlite3 shell at 1.25 million
  /// rows after a 64 MiB cache was filled: 8 MiB adds nothing to the peak, and the sort
  /// takes less CPU time than in memory (docs/performance.md, "The UUID index made once at
  /// the end").
  static let sortCacheKibibytes = 8192
  /// SQLite's helper threads for the sort (`PRAGMA threads`): each sorts and writes one
  /// sorted run while the command's thread reads the table into the next, and they merge
  /// the runs, so the command's thread does under half of the work. Made at the commit,
  /// when an import's reading thread is done and its core free. Measured with the sqlite3
  /// shell, 1.25 million rows: the command's thread 2.27 s of CPU without helpers, 1.02 s
  /// with two, the whole process the same 2.2–2.3 s (docs/performance.md, "The saving
  /// thread's storage, again (hsave12)").
  static let sortThreads = 2
  /// The page cache while the index is made, in KiB: each of the sort's runs in memory
  /// (one per thread, the command's and its helpers') is at most the page cache's size, so
  /// the cache is `sortCacheKibibytes` shared by them, and the sort's memory stays what it
  /// was with one thread.
  static var sortRunKibibytes: Int { sortCacheKibibytes / (sortThreads + 1) }

  /// Whether the command now open dropped the index: it is then made again, if missing,
  /// before a query needs it and at the command's commit. Stays true after a rollback (the
  /// check is then only a look in `sqlite_schema`), until the next commit.
  private(set) var droppedInCommand = false

  /// Whether the command dropped `record_type_pos` too (format 2; format 3 has none: its
  /// types' own indexes take their rows at their right edge, kept up row by row).
  private(set) var droppedTypeIndex = false

  /// Drops the index and, `withTypeIndex` (format 2), `record_type_pos`, in the command's
  /// transaction.
  func drop(_ db: Database, withTypeIndex: Bool) throws {
    try db.execute(sql: "DROP INDEX record_uuid")
    if withTypeIndex { try db.execute(sql: "DROP INDEX record_type_pos") }
    droppedInCommand = true
    droppedTypeIndex = withTypeIndex
  }

  /// Makes the index when this command dropped it and it is missing (a savepoint or step
  /// rolled back may have brought it back already).
  func makeIfMissing(_ db: Database) throws {
    guard droppedInCommand, try Self.isMissing("record_uuid", db) else { return }
    try make(Self.creation, db)
  }

  /// Makes `record_type_pos` when this command dropped it and it is missing.
  func makeTypeIndexIfMissing(_ db: Database) throws {
    guard droppedInCommand, droppedTypeIndex, try Self.isMissing("record_type_pos", db) else {
      return
    }
    try make(Self.typeCreation, db)
  }

  /// Whether the index `name` is not in the schema (a look in `sqlite_schema`, so that a
  /// savepoint or step rolled back, which may have undone a drop or a creation, is seen).
  private static func isMissing(_ name: String, _ db: Database) throws -> Bool {
    try Bool.fetchOne(
      db, sql: "SELECT count(*) = 0 FROM sqlite_schema WHERE type = 'index' AND name = ?",
      arguments: [name]) == true
  }

  /// Makes both indexes at the command's commit (before its `COMMIT`), when missing.
  func makeBeforeCommit(_ db: Database) throws {
    try makeTypeIndexIfMissing(db)
    try makeIfMissing(db)
    droppedInCommand = false
    droppedTypeIndex = false
  }

  /// `CREATE INDEX`, its sort bounded and shared with helper threads: temporary files, a
  /// small page cache and `sortThreads` while it runs, then the settings of before.
  /// `temp_store` can change within a transaction as long as the connection has no
  /// temporary table (it has none); if SQLite refuses, the sort runs in memory, which costs
  /// memory, never a wrong index. Without its helpers (a SQLite built without threads
  /// ignores the setting) the sort runs on the command's thread alone, as before.
  private func make(_ creation: String, _ db: Database) throws {
    let cache = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
    try? db.execute(sql: "PRAGMA temp_store = FILE")
    try db.execute(sql: "PRAGMA cache_size = -\(Self.sortRunKibibytes)")
    try? db.execute(sql: "PRAGMA threads = \(Self.sortThreads)")
    defer {
      try? db.execute(sql: "PRAGMA threads = 0")
      try? db.execute(sql: "PRAGMA cache_size = \(cache)")
      try? db.execute(sql: "PRAGMA temp_store = MEMORY")
    }
    try db.execute(sql: creation)
  }
}
