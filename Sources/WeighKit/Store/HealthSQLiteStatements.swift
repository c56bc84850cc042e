import Foundation
import GRDB
import GRDBSQLite

/// Every statement `HealthSQLiteStorage` runs more than once, by name: its SQL is here, and
/// the storage keeps each one prepared (`HealthSQLiteStatements`) instead of looking it up
/// by its text in GRDB's cache at every run (docs/performance.md, "Ten years on disk:
/// prepared statements and savepoints").
enum HealthSQLiteStatement: Int, CaseIterable {
  case metaRead
  case metaWrite
  case stateRead
  case stateWrite
  case insertRecord
  case insertRecords
  case insertSomeRecords
  case deleteRecord
  case uuidProbe
  case anyRecord
  case recordAt
  case recordsAfter
  case changesOfType
  case recordsOfType
  case recordsOfTypeStarting
  case recordsOfUUID
  case newestOfType
  case uuidRange
  case recordsOfSyncIdentifier
  case columnsOfType
  case columnsOfTypeStarting
  case deletionColumns
  case stepOpen
  case stepRelease
  case stepRollBack
  case writesOpen
  case writesRelease
  case writesRollBack
  case insertOrigin
  case readOrigins

  /// The parameters of one row of `insertRecord` in `layout`: format 1's columns, then its
  /// JSON row; format 2's columns (`HealthSQLiteFormat2.selection`).
  static func insertParameters(_ layout: HealthSQLiteLayout) -> Int {
    switch layout {
    case .format1: HealthSQLiteColumns.count + 1
    case .format2: HealthSQLiteFormat2.count
    }
  }
  /// One row's values in an insert.
  private static func insertValues(_ layout: HealthSQLiteLayout) -> String {
    "(" + Array(repeating: "?", count: insertParameters(layout)).joined(separator: ", ") + ")"
  }
  /// The rows `insertRecords` inserts (16 until hsave14: 64 saves SQLite's work around a
  /// statement, its cursors opened and closed, for 48 more rows).
  static let rowsPerInsert = 64
  /// The rows `insertSomeRecords` inserts: the rest of a write, fewer than `rowsPerInsert`,
  /// goes by statements of this many, then one row at a time.
  static let rowsPerSmallerInsert = 16

  /// Format 1's selection: the columns, then the JSON row.
  static let fullSelection = HealthSQLiteColumns.selection + ", row"

  /// The selection of a whole row in `layout`, and of the columns a read that decodes no
  /// record needs (format 2's are the whole row: its checksum covers every column).
  static func selections(_ layout: HealthSQLiteLayout) -> (full: String, columns: String) {
    switch layout {
    case .format1: (fullSelection, HealthSQLiteColumns.selection)
    case .format2: (HealthSQLiteFormat2.selection, HealthSQLiteFormat2.selection)
    }
  }

  /// The statement's SQL in format 1 (`sql(_:)`).
  var sql: String { sql(.format1) }

  /// The statement's SQL in `layout`: one statement each. The two layouts' queries differ
  /// only in their selections (and the type's parameter, text or code, as bound).
  func sql(_ layout: HealthSQLiteLayout) -> String {
    let (full, columns) = Self.selections(layout)
    let inserted = layout == .format1 ? Self.fullSelection : HealthSQLiteFormat2.selection
    switch self {
    case .metaRead: return "SELECT value, crc FROM meta WHERE key = ?"
    case .metaWrite: return "INSERT OR REPLACE INTO meta (key, value, crc) VALUES (?, ?, ?)"
    case .stateRead: return "SELECT json, crc FROM state WHERE id = 1"
    case .stateWrite: return "INSERT OR REPLACE INTO state (id, json, crc) VALUES (1, ?, ?)"
    case .insertRecord:
      return "INSERT INTO record (\(inserted)) VALUES \(Self.insertValues(layout))"
    // OR FAIL: a row refused keeps the rows before it, as separate inserts did (the write
    // then fails, and its step or transaction undoes them). With SQLite's default (ABORT),
    // a statement of many rows keeps a statement journal to undo its own rows, a copy of
    // every page it changes: dearer than the statements it saves.
    case .insertRecords, .insertSomeRecords:
      let rows = self == .insertRecords ? Self.rowsPerInsert : Self.rowsPerSmallerInsert
      let values = Array(repeating: Self.insertValues(layout), count: rows)
      return "INSERT OR FAIL INTO record (\(inserted)) VALUES \(values.joined(separator: ", "))"
    case .deleteRecord: return "DELETE FROM record WHERE pos = ?"
    // Whether some record has a UUID, from its index alone.
    case .uuidProbe: return "SELECT 1 FROM record WHERE uuid = ? LIMIT 1"
    // Whether the table holds any row (a command's writer on an empty table).
    case .anyRecord: return "SELECT 1 FROM record LIMIT 1"
    case .recordAt: return "SELECT \(full) FROM record WHERE pos = ?"
    case .recordsAfter: return "SELECT \(full) FROM record WHERE pos > ? ORDER BY pos LIMIT ?"
    case .changesOfType:
      return "SELECT \(full) FROM record WHERE type = ? AND pos > ? ORDER BY pos LIMIT ?"
    case .recordsOfType: return "SELECT \(full) FROM record WHERE type = ? ORDER BY pos"
    case .recordsOfTypeStarting:
      return
        "SELECT \(full) FROM record WHERE type = ? AND start >= ? AND start < ? ORDER BY pos"
    case .recordsOfUUID: return "SELECT \(full) FROM record WHERE uuid = ?"
    case .newestOfType:
      return """
        SELECT \(full) FROM record INDEXED BY record_type_start
        WHERE type = ? AND kind = 0 ORDER BY start DESC, pos DESC LIMIT 1
        """
    case .uuidRange:
      return """
        SELECT \(full) FROM record INDEXED BY record_uuid
        WHERE uuid >= ? AND uuid <= ? AND kind = 0 ORDER BY uuid LIMIT ?
        """
    case .recordsOfSyncIdentifier:
      return "SELECT \(full) FROM record WHERE sync_id = ? ORDER BY pos"
    case .columnsOfType: return "SELECT \(columns) FROM record WHERE type = ? ORDER BY pos"
    case .columnsOfTypeStarting:
      return
        "SELECT \(columns) FROM record WHERE type = ? AND start >= ? AND start < ? ORDER BY pos"
    // Through their partial index: ordered by position, SQLite would scan the whole table.
    case .deletionColumns:
      return "SELECT \(columns) FROM record INDEXED BY record_deleted WHERE kind = 1"
    case .stepOpen: return "SAVEPOINT step"
    case .stepRelease: return "RELEASE step"
    case .stepRollBack: return "ROLLBACK TO step"
    case .writesOpen: return "SAVEPOINT health_writes"
    case .writesRelease: return "RELEASE health_writes"
    case .writesRollBack: return "ROLLBACK TO health_writes"
    case .insertOrigin: return HealthSQLiteFormat2.insertOrigin
    case .readOrigins: return HealthSQLiteFormat2.readOrigins
    }
  }
}

/// The statements one connection of `HealthSQLiteStorage` keeps prepared, each made at its
/// first use and kept until `finalizeAll` (which the storage runs before it closes the
/// connection: SQLite does not close a connection with statements left).
///
/// Whoever runs one resets it after use, whatever happens (`HealthSQLiteBinding`,
/// `HealthSQLiteStorage.step`, `execute`), so that none holds a read open.
final class HealthSQLiteStatements {
  /// The layout of the connection's file: which SQL each statement has.
  let layout: HealthSQLiteLayout
  /// Format 2's origins by id as this connection last read them (`origins(_:)`), nil when
  /// they must be read again: dropped at every rollback, which may have removed an origin
  /// whose id a later one then takes, so a cached origin is never a stale one.
  private var cachedOrigins: [Int64: HealthSQLiteOrigin]?

  init(layout: HealthSQLiteLayout = .format2) {
    self.layout = layout
  }

  private var prepared: [GRDB.Statement?] = Array(
    repeating: nil, count: HealthSQLiteStatement.allCases.count)

  /// `kind`, prepared on `db` at its first use.
  func callAsFunction(_ kind: HealthSQLiteStatement, _ db: Database) throws -> GRDB.Statement {
    if let statement = prepared[kind.rawValue] { return statement }
    let statement = try db.makeStatement(sql: kind.sql(layout))
    prepared[kind.rawValue] = statement
    return statement
  }

  /// Finalizes every statement (each is prepared again at its next use).
  func finalizeAll() {
    for index in prepared.indices { prepared[index] = nil }
    cachedOrigins = nil
  }

  /// The checked origins of the file, by id: read once, and again when `refresh` (a row
  /// names an id not among them: written since, by this connection or another).
  func origins(_ db: Database, refresh: Bool = false) throws -> [Int64: HealthSQLiteOrigin] {
    if !refresh, let cachedOrigins { return cachedOrigins }
    let origins = try HealthSQLiteFormat2.origins(db, self)
    cachedOrigins = origins
    return origins
  }

  /// Forgets the origins read: after a rollback (see `cachedOrigins`).
  func forgetOrigins() {
    cachedOrigins = nil
  }

  /// Runs `kind`, a statement without parameters or rows (a savepoint's), straight through
  /// SQLite: GRDB's `execute` keeps track of transactions and savepoints around every
  /// statement, which cost more than SQLite's own work for these (a savepoint per delivery
  /// of ten simulated years).
  func execute(_ kind: HealthSQLiteStatement, _ db: Database) throws {
    let statement = try self(kind, db)
    let sqlite = statement.sqliteStatement
    defer { sqlite3_reset(sqlite) }
    let code = sqlite3_step(sqlite)
    guard code == SQLITE_DONE || code == SQLITE_ROW else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code),
        message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqlite))), sql: statement.sql)
    }
  }
}
