import Foundation
import GRDB

extension HealthSQLiteStorage {
  /// Lets SQLite keep up to `mebibytes` of the database's pages in memory on this
  /// connection (SQLite's default is 2 MiB). For a process that writes millions of records
  /// (`weigh-bench health-store`): with the default, each batch's inserts at random places
  /// of the UUID index spill pages to the log over and over. So does an all-types import
  /// once it has saved a batch (`HealthImportPlan.pageCacheMebibytes`); other commands keep
  /// the default.
  public func setPageCache(mebibytes: Int) throws(StoreError) {
    try checkOpen()
    let kibibytes = max(mebibytes, 1) * 1024
    try Self.mapped(path) {
      try queue.inDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(kibibytes)") }
    }
  }

  /// Whether the open command's rows go into a `record` table that held no row when the
  /// command first wrote (a new store's first import; before that write, whether the table
  /// is empty now): its writer then drops the UUID index (`HealthSQLiteUUIDIndex`), and
  /// every insert lands at the right edge of the table and of its type's indexes, where a
  /// few pages are touched, not at a random place of the UUID index. False outside a
  /// command.
  public func commandFillsEmptyTable() throws(StoreError) -> Bool {
    try checkOpen()
    guard isInCommand else { return false }
    if let commandWriter { return commandWriter.ownUUIDs != nil }
    return try Self.mapped(path) {
      try queue.inDatabase { db in
        try !HealthSQLiteBinding(try statements(.anyRecord, db)).exists()
      }
    }
  }

  /// The page cache this connection may keep, in KiB.
  public func pageCacheKibibytes() throws(StoreError) -> Int {
    try checkOpen()
    let (size, page) = try Self.mapped(path) {
      try queue.inDatabase { db in
        (
          try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0,
          try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        )
      }
    }
    // SQLite gives a negative size in KiB, a positive one in pages.
    return size < 0 ? -size : size * page / 1024
  }
}
