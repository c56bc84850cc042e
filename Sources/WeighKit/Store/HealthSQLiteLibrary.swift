import CWeighSQLite

/// How SQLite runs in this process, set once before its first connection (each place that
/// opens one asks for it first): a setting of the library, not of a database, so nothing on
/// disk depends on it (docs/store.md, "The saving thread, third round").
///
/// **No memory statistics**: SQLite counts its allocations under a global mutex unless told
/// not to, and Debian's build has no lookaside, so every record, cursor and buffer SQLite
/// makes is a `malloc` and a `free`, each around that mutex (the all-types import: about 13
/// of each a saved sample). Nothing in weigh reads the counts (`sqlite3_memory_used`).
/// GRDB already opens its connections without a mutex of their own (multi-thread mode).
///
/// SQLite takes the setting only before it is first used in the process; afterwards it is
/// refused (`SQLITE_MISUSE`) and SQLite runs as before, correctly, only slower.
enum HealthSQLiteLibrary {
  /// Whether SQLite took the setting (false when something used SQLite first).
  static let configured: Bool = weigh_sqlite3_config_no_memstatus() == SQLITE_OK
}
