import Foundation
import GRDB

extension HealthSQLiteStorage {
  /// Lets SQLite keep up to `mebibytes` of the database's pages in memory on this
  /// connection (SQLite's default is 2 MiB). For a process that writes millions of records
  /// (`weigh-bench health-store`): with the default, each batch's inserts at random places
  /// of the UUID index spill pages to the log over and over. Commands keep the default.
  public func setPageCache(mebibytes: Int) throws(StoreError) {
    try checkOpen()
    let kibibytes = max(mebibytes, 1) * 1024
    try Self.mapped(path) {
      try queue.inDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(kibibytes)") }
    }
  }
}
