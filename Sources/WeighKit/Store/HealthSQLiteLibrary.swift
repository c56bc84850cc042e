import CWeighSQLite

/// How SQLite runs in this process, set once before its first connection
/// (`HealthSQLiteStorage.init` asks for it): settings of the library, not of a database, so
/// nothing on disk depends on them (docs/store.md, "The saving thread, third round").
///
/// - **Multi-thread mode**: a connection takes no mutex of its own around each call.
///   Debian's SQLite is built serialized, so every `sqlite3_step`, `sqlite3_bind_…` and
///   `sqlite3_reset` took and released the connection's recursive mutex (a saved sample
///   makes about 30 such calls). GRDB uses each connection on one thread at a time (its
///   queue), which is what the mode asks.
/// - **No memory statistics**: SQLite counts its allocations under a global mutex unless
///   told not to; Debian's build has no lookaside, so each row saved makes about 16
///   allocations and as many frees, each around that mutex. Nothing in weigh reads the
///   counts (`sqlite3_memory_used`).
///
/// SQLite takes these only before it is first used in the process; afterwards they are
/// refused (`SQLITE_MISUSE`) and it runs as before, correctly, only slower.
enum HealthSQLiteLibrary {
  /// Whether SQLite took both settings (false when something used SQLite first).
  static let configured: Bool = {
    let threads = weigh_sqlite3_config_multithread()
    let statistics = weigh_sqlite3_config_no_memstatus()
    return threads == SQLITE_OK && statistics == SQLITE_OK
  }()
}
