import Foundation
import GRDBSQLite

extension HealthSQLiteStorage {
  /// Creates `health.sqlite` at `path` (which must not exist) in `directory`, empty, and
  /// opens it.
  ///
  /// The new database is built beside it, in `path.tmp`, without a journal and without
  /// syncs (it is nobody's yet: a crash leaves only the temporary file, which the next
  /// creation removes), switched to its write-ahead log, synced once, moved into place, and
  /// the folder synced. Opened with `init(path:)` instead, SQLite first wrote the log's flag
  /// in a rollback journal (created, synced twice with the folder, removed) and then
  /// committed the tables in the log: a new directory store's first Health command synced
  /// eight times, now five (docs/performance.md, "Ten years on disk: the wall time").
  public static func create(at path: String, directory: String) throws(StoreError)
    -> HealthSQLiteStorage
  {
    // A file there (another process's, despite the store's lock) is opened, not replaced.
    if StoreFileSystem.exists(path) { return try HealthSQLiteStorage(path: path) }
    let temporary = removingLeftovers(of: path + ".tmp")
    try buildEmpty(at: temporary, writeAheadLog: true)
    try moveIntoPlace(temporary, to: path, directory: directory)
    return try HealthSQLiteStorage(path: path, creating: false)
  }

  /// `temporary`, after removing what a creation, repair or migration cut short left there
  /// (the file and its journal, log and shared memory): the database is built afresh.
  @discardableResult
  static func removingLeftovers(of temporary: String) -> String {
    for leftover in [temporary, temporary + "-journal", temporary + "-wal", temporary + "-shm"] {
      try? FileManager.default.removeItem(atPath: leftover)
    }
    return temporary
  }

  /// Where a database built aside is, until its first command's commit puts it in place.
  struct Aside {
    /// The file the connection has open: `path` + ".tmp".
    var temporary: String
    /// The store's folder, synced with the rename.
    var directory: String
  }

  /// Creates `health.sqlite` at `path` (which must not exist) built aside: the storage
  /// writes `path.tmp`, without a log and without syncs, and its first command's commit
  /// syncs it once and renames it into place (docs/store.md, "A new store's first Health
  /// command built aside"). Until then a crash leaves no `health.sqlite`, so the store is
  /// as it was; the temporary file is removed by the next creation.
  static func createAside(at path: String, directory: String) throws(StoreError)
    -> HealthSQLiteStorage
  {
    // A file there (another process's, despite the store's lock) is opened, not replaced.
    if StoreFileSystem.exists(path) { return try HealthSQLiteStorage(path: path) }
    let temporary = removingLeftovers(of: path + ".tmp")
    try buildEmpty(at: temporary, writeAheadLog: false)
    return try HealthSQLiteStorage(
      path: path, creating: false, readOnly: false,
      aside: Aside(temporary: temporary, directory: directory))
  }

  /// Puts the database built aside in place, after its command's `COMMIT` (`commitCommand`):
  /// the log's flag set in its header, the connection closed, the file synced; when the
  /// journal may lack the command's record (`markLog`), an empty `path-wal` created first as
  /// the mark the next open looks for, and the folder synced; then the rename, the
  /// command's commit point, and the folder synced again. The storage is closed after it:
  /// the session opens `path` again.
  func placeAside(markLog: Bool) throws(StoreError) {
    guard let aside else { return }
    self.aside = nil
    try Self.mapped(path) {
      try queue.inDatabase { db in
        guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
          throw HealthSQLiteDamage(position: nil, "the database cannot use its write-ahead log")
        }
      }
    }
    // The temporary file's own log is not the mark: closing removes it.
    keepsLogOnClose = false
    try close()
    let descriptor = try StoreFileSystem.openForAppending(aside.temporary)
    defer { StoreFileSystem.closeDescriptor(descriptor) }
    try StoreFileSystem.sync(descriptor, path: aside.temporary)
    for leftover in [path + "-wal", path + "-shm"] {
      try? FileManager.default.removeItem(atPath: leftover)
    }
    if markLog {
      // Empty: SQLite reads a log of no frames as no log, and nothing else can apply it.
      let mark = open(path + "-wal", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard mark >= 0 else {
        throw StoreError(
          .io, file: path + "-wal", message: "cannot create: \(String(cString: strerror(errno)))")
      }
      StoreFileSystem.closeDescriptor(mark)
      try StoreFileSystem.syncDirectory(aside.directory)
    }
    try StoreFileSystem.rename(aside.temporary, to: path)
    try StoreFileSystem.syncDirectory(aside.directory)
  }

  /// Syncs the database built at `temporary`, removes any log left beside `path` (a log of
  /// an earlier file of that name must not be applied to the new one), renames it to `path`
  /// and syncs `directory`: how a new and a rebuilt `health.sqlite` take their place.
  static func moveIntoPlace(_ temporary: String, to path: String, directory: String)
    throws(StoreError)
  {
    let descriptor = try StoreFileSystem.openForAppending(temporary)
    defer { StoreFileSystem.closeDescriptor(descriptor) }
    try StoreFileSystem.sync(descriptor, path: temporary)
    for leftover in [path + "-wal", path + "-shm"] {
      try? FileManager.default.removeItem(atPath: leftover)
    }
    try StoreFileSystem.rename(temporary, to: path)
    try StoreFileSystem.syncDirectory(directory)
  }

  /// Writes a new, empty database at `path` (which must not exist), in WAL mode when
  /// `writeAheadLog`, through SQLite alone: no journal, no syncs, and no connection of
  /// GRDB's (closing one of its queues started two threads of Dispatch's, in a process that
  /// had none).
  private static func buildEmpty(at path: String, writeAheadLog: Bool) throws(StoreError) {
    var connection: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    // Before the process's first connection: a new store's first (`HealthSQLiteLibrary`).
    _ = HealthSQLiteLibrary.configured
    let opened = sqlite3_open_v2(path, &connection, flags, nil)
    defer { sqlite3_close(connection) }
    func failure(_ what: String) -> StoreError {
      let said = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      return StoreError(.io, file: path, message: "cannot \(what): sqlite: \(said.lowercased())")
    }
    guard opened == SQLITE_OK, let connection else { throw failure("create the database") }
    let script =
      "PRAGMA page_size = \(pageSize); PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;\n"
      + "BEGIN IMMEDIATE;\n"
      + creation + "COMMIT;"
    guard sqlite3_exec(connection, script, nil, nil, nil) == SQLITE_OK else {
      throw failure("create the tables")
    }
    guard writeAheadLog else { return }
    // The log's flag, in the file's header: every later open finds the database in WAL mode.
    var mode: OpaquePointer?
    guard sqlite3_prepare_v2(connection, "PRAGMA journal_mode = WAL", -1, &mode, nil) == SQLITE_OK
    else { throw failure("use the write-ahead log") }
    defer { sqlite3_finalize(mode) }
    guard sqlite3_step(mode) == SQLITE_ROW, let text = sqlite3_column_text(mode, 0),
      String(cString: text) == "wal"
    else { throw failure("use the write-ahead log") }
  }
}
