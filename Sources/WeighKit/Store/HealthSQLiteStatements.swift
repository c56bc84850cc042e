import Foundation
import GRDB
import GRDBSQLite
import HealthSim

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
    case .format2, .format3: HealthSQLiteFormat2.count
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
    case .format2, .format3: (HealthSQLiteFormat2.selection, HealthSQLiteFormat2.selection)
    }
  }

  /// The statement's SQL in format 1 (`sql(_:)`).
  var sql: String { sql(.format1) }

  /// Whether the statement reads the rows of one type (`type = ?`): in format 3 it names
  /// the type's code as a literal, prepared once per type (`sql(format3TypeCode:)`).
  var isByType: Bool {
    switch self {
    case .changesOfType, .recordsOfType, .recordsOfTypeStarting, .newestOfType, .columnsOfType,
      .columnsOfTypeStarting:
      true
    default: false
    }
  }

  /// A statement by type (`isByType`) in format 3, for the type `code`: its type a literal,
  /// since SQLite uses a partial index (`record_start_<code>`, `record_pos_<code>`) only
  /// for a statement whose `WHERE` implies the index's, and a bound parameter implies
  /// nothing. Its other parameters keep their numbers (`?2`, `?3`; the first is unused,
  /// and bound nothing), so the reads bind them alike in every layout.
  func sql(format3TypeCode code: Int64) -> String {
    let full = HealthSQLiteFormat2.selection
    let names = HealthSQLiteFormat3.indexNames(code)
    switch self {
    case .changesOfType:
      return "SELECT \(full) FROM record WHERE type = \(code) AND pos > ?2 ORDER BY pos LIMIT ?3"
    case .recordsOfType, .columnsOfType:
      return "SELECT \(full) FROM record WHERE type = \(code) ORDER BY pos"
    case .recordsOfTypeStarting, .columnsOfTypeStarting:
      return
        "SELECT \(full) FROM record WHERE type = \(code) AND start >= ?2 AND start < ?3 ORDER BY pos"
    case .newestOfType:
      return """
        SELECT \(full) FROM record INDEXED BY \(names.start)
        WHERE type = \(code) AND kind = 0 ORDER BY start DESC, pos DESC LIMIT 1
        """
    default: return sql(.format3)
    }
  }

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
  /// Format 3's statements by type, by statement and type code (`byTypeKey`).
  private var preparedByType: [Int: GRDB.Statement] = [:]
  /// Format 3: the type codes whose index pair the file holds (bit `code`), as this
  /// connection last read them from `sqlite_schema`, and the schema's version then; nil
  /// when they must be read again: dropped at every rollback (`forgetOrigins`), which may
  /// have undone a pair. A pair present stays (no weigh drops one), so a bit set is
  /// trusted; a bit clear is trusted only while the schema's version is the one read
  /// (another process may have made the pair since).
  private var cachedPairs: (codes: UInt64, schema: Int64)?

  /// The key of `kind` for the type code `code` in `preparedByType`.
  private static func byTypeKey(_ kind: HealthSQLiteStatement, _ code: Int64) -> Int {
    kind.rawValue << 8 | Int(truncatingIfNeeded: code)
  }

  /// `kind`, a statement by type, for `type`, prepared on `db` at its first use; nil in
  /// format 3 when the file has no index pair for `type`, which then has no row (the read
  /// asks SQLite nothing: without an index it would scan the table).
  func callAsFunction(_ kind: HealthSQLiteStatement, type: SampleType, _ db: Database) throws
    -> GRDB.Statement?
  {
    guard layout == .format3, kind.isByType else { return try self(kind, db) }
    let code = HealthSQLiteTypeCode.code(type)
    guard try hasPair(code, db) else { return nil }
    let key = Self.byTypeKey(kind, code)
    if let statement = preparedByType[key] { return statement }
    let statement = try db.makeStatement(sql: kind.sql(format3TypeCode: code))
    preparedByType[key] = statement
    return statement
  }

  /// Format 3: whether the file holds the index pair of the type code `code` (read from
  /// `sqlite_schema` once, and again after a rollback).
  func hasPair(_ code: Int64, _ db: Database) throws -> Bool {
    guard (1..<64).contains(code) else { return false }
    if let cachedPairs, cachedPairs.codes & (1 << code) != 0 { return true }
    let schema = try Int64.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
    if let cachedPairs, cachedPairs.schema == schema { return false }
    let codes = try HealthSQLiteFormat3.pairedCodes(db)
    cachedPairs = (codes, schema)
    return codes & (1 << code) != 0
  }

  /// Format 3: the type codes (bit `code`) whose pairs the command now open expects to
  /// need (`HealthSQLiteStorage.expectTypes`): made with the first pair it makes.
  var expectedCodes: UInt64 = 0

  /// Format 3: makes the index pair of the type code `code` in the transaction open on
  /// `db` when the file lacks it: before the first row of its type (`Writer.insertRow`).
  /// The pairs of `expectedCodes` that are missing are made with it: an import's types
  /// arrive grouped by type in an export (the 10 MB export's energy from its 8,570th row
  /// of 12,486), and `CREATE INDEX` reads the whole table whatever its `WHERE` (781
  /// instructions a row of it for a pair: docs/performance.md, hsave15), so a pair made at
  /// its type's first row would cost a scan of most of the import; made with the first
  /// pair, on the table still (nearly) empty, nothing.
  /// Format 3, before a command's `COMMIT`: drops the pairs of `expectedCodes` made in the
  /// command that no row took (an import's type that its file did not hold), so that no
  /// row pays their `WHERE` later (105 instructions a row each), and forgets the codes. Each
  /// look is one step into the type's own index.
  func dropUnusedExpectedPairs(_ db: Database) throws {
    defer { expectedCodes = 0 }
    guard layout == .format3, expectedCodes != 0, let made = madeInCommand, made != 0 else {
      madeInCommand = nil
      return
    }
    madeInCommand = nil
    for code in (1 as Int64)..<64 where made & (1 << code) != 0 && expectedCodes & (1 << code) != 0
    {
      let rows = try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM record WHERE type = \(code))")
      guard rows == false else { continue }
      let names = HealthSQLiteFormat3.indexNames(code)
      try db.execute(sql: "DROP INDEX \(names.start); DROP INDEX \(names.position)")
      cachedPairs?.codes &= ~(1 << code)
    }
  }

  /// Format 3: the pairs made since the last `dropUnusedExpectedPairs` (bit `code`), nil
  /// after a rollback (which undid them).
  private var madeInCommand: UInt64?

  func makePairIfMissing(_ code: Int64, _ db: Database) throws {
    guard try !hasPair(code, db) else { return }
    for other in (1 as Int64)..<64 where other == code || expectedCodes & (1 << other) != 0 {
      guard try other == code || !hasPair(other, db) else { continue }
      try HealthSQLiteFormat3.makePair(other, db)
      // `hasPair` read the schema just before: `cachedPairs` is set.
      cachedPairs?.codes |= 1 << other
      madeInCommand = (madeInCommand ?? 0) | 1 << other
    }
  }

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
    preparedByType = [:]
    cachedOrigins = nil
    cachedPairs = nil
  }

  /// The checked origins of the file, by id: read once, and again when `refresh` (a row
  /// names an id not among them: written since, by this connection or another).
  func origins(_ db: Database, refresh: Bool = false) throws -> [Int64: HealthSQLiteOrigin] {
    if !refresh, let cachedOrigins { return cachedOrigins }
    let origins = try HealthSQLiteFormat2.origins(db, self)
    cachedOrigins = origins
    return origins
  }

  /// Forgets the origins read and the index pairs seen: after a rollback (see
  /// `cachedOrigins`, `cachedPairs`).
  func forgetOrigins() {
    cachedOrigins = nil
    cachedPairs = nil
    madeInCommand = nil
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
