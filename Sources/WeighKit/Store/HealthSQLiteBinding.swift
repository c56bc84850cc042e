import Foundation
import GRDB
import GRDBSQLite

/// A prepared statement's parameters bound straight to SQLite, and its rows stepped, for
/// the statements `HealthSQLiteStorage` runs (the UUID probe, the insert, the queries, the
/// meta rows): GRDB's `StatementArguments` build an array of `DatabaseValue`s and check
/// them for every run, which cost more than SQLite's own work on a new UUID
/// (docs/performance.md, "The all-types import in batches").
///
/// Texts and blobs are copied by SQLite (`SQLITE_TRANSIENT`); `run`, `exists` and `rows`
/// reset the statement and clear its parameters when they are done, whatever happens.
struct HealthSQLiteBinding {
  let statement: GRDB.Statement
  private var sqlite: OpaquePointer { statement.sqliteStatement }
  /// The first error a bind returned.
  private var failure: CInt = SQLITE_OK

  /// Every run of a statement here ends by resetting it and clearing its parameters
  /// (`finish`), and `HealthSQLiteStatements.execute` resets those it runs, which have none:
  /// a statement is only reset here, in case a run of GRDB's left it stepped. Clearing the
  /// parameters again cost 700 instructions a saved sample.
  init(_ statement: GRDB.Statement) {
    self.statement = statement
    sqlite3_reset(statement.sqliteStatement)
  }

  /// SQLite's "copy the bytes now" destructor.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  private mutating func check(_ code: CInt) {
    if failure == SQLITE_OK { failure = code }
  }

  mutating func bind(_ index: CInt, integer value: Int64) {
    check(sqlite3_bind_int64(sqlite, index, value))
  }

  mutating func bind(_ index: CInt, real value: Double) {
    check(sqlite3_bind_double(sqlite, index, value))
  }

  /// NULL when `value` is nil.
  mutating func bind(_ index: CInt, real value: Double?) {
    guard let value else { return check(sqlite3_bind_null(sqlite, index)) }
    bind(index, real: value)
  }

  /// NULL when `text` is nil.
  mutating func bind(_ index: CInt, text: String?) {
    guard var text else { return check(sqlite3_bind_null(sqlite, index)) }
    let sqlite = sqlite
    let code = text.withUTF8 { buffer -> CInt in
      guard let length = CInt(exactly: buffer.count) else { return SQLITE_TOOBIG }
      // An empty buffer may have no address, which SQLite would take for NULL.
      guard let address = buffer.baseAddress, length > 0 else {
        return sqlite3_bind_text(sqlite, index, "", 0, Self.transient)
      }
      let characters = UnsafeRawPointer(address).assumingMemoryBound(to: CChar.self)
      return sqlite3_bind_text(sqlite, index, characters, length, Self.transient)
    }
    check(code)
  }

  mutating func bind(_ index: CInt, blob: UnsafeRawBufferPointer) {
    guard let length = CInt(exactly: blob.count) else { return check(SQLITE_TOOBIG) }
    // An empty buffer may have no address, which SQLite would take for NULL.
    guard let address = blob.baseAddress, length > 0 else {
      return check(sqlite3_bind_zeroblob(sqlite, index, 0))
    }
    check(sqlite3_bind_blob(sqlite, index, address, length, Self.transient))
  }

  /// Binds `blob` without a copy: only for bytes that stay where they are, unchanged,
  /// until the run that follows has reset the statement (`run`, `exists` and `rows` reset
  /// it before they return). SQLite's copy of a saved sample's JSON row cost a
  /// `malloc`, a `memcpy` and a `free` for every row.
  mutating func bind(_ index: CInt, unchangingBlob blob: UnsafeRawBufferPointer) {
    guard let length = CInt(exactly: blob.count) else { return check(SQLITE_TOOBIG) }
    guard let address = blob.baseAddress, length > 0 else {
      return check(sqlite3_bind_zeroblob(sqlite, index, 0))
    }
    // No destructor: SQLite's `SQLITE_STATIC`, "the bytes stay put".
    check(sqlite3_bind_blob(sqlite, index, address, length, nil))
  }

  /// Steps the statement once: the code of the step, after the binds' own errors.
  private func stepOnce() throws -> CInt {
    guard failure == SQLITE_OK else { throw error(failure) }
    let code = sqlite3_step(sqlite)
    guard code == SQLITE_ROW || code == SQLITE_DONE else { throw error(code) }
    return code
  }

  /// Runs a statement that returns no row (an insert).
  func run() throws {
    defer { finish() }
    _ = try stepOnce()
  }

  /// Runs a statement of several rows that returns no row and whose every parameter each
  /// run binds again (the insert of many rows): reset, with only the parameters `first`,
  /// `first + stride`, … cleared, up to `last` (the rows' blobs bound without a copy), not
  /// all of them: `sqlite3_clear_bindings` on a 64-row insert's 832 parameters cost 250
  /// instructions a row saved (callgrind, the 10 MB all-types import; docs/performance.md,
  /// hrow15).
  func run(unbindingFrom first: CInt, every stride: CInt, through last: CInt) throws {
    defer {
      sqlite3_reset(sqlite)
      var index = first
      while index <= last {
        sqlite3_bind_null(sqlite, index)
        index += stride
      }
    }
    _ = try stepOnce()
  }

  /// Whether the statement returns a row.
  func exists() throws -> Bool {
    defer { finish() }
    return try stepOnce() == SQLITE_ROW
  }

  /// Runs a query, calling `body` with each row as SQLite steps to it (no GRDB `Row`, whose
  /// dictionary of column names cost more than the query).
  func rows(_ body: (HealthSQLiteStorage.SteppedRow) throws -> Void) throws {
    defer { finish() }
    guard failure == SQLITE_OK else { throw error(failure) }
    while true {
      let code = sqlite3_step(sqlite)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else { throw error(code) }
      try body(HealthSQLiteStorage.SteppedRow(statement: sqlite))
    }
  }

  private func finish() {
    sqlite3_reset(sqlite)
    sqlite3_clear_bindings(sqlite)
  }

  private func error(_ code: CInt) -> DatabaseError {
    DatabaseError(
      resultCode: ResultCode(rawValue: code),
      message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqlite))), sql: statement.sql)
  }
}
