import Foundation
import GRDB
import GRDBSQLite
import HealthSim

/// HealthSim's `HealthSampleStorage` in one SQLite file, `health.sqlite`, through GRDB
/// (issue 15; the decision and its measurements are in docs/store.md, "Health storage:
/// decision"): every directory store's Health (docs/store.md, "Health in health.sqlite").
///
/// - WAL, `synchronous = FULL` (the WAL is synced at every commit, as the app's journal is),
///   and each `apply` or `append` is one `BEGIN IMMEDIATE` transaction.
/// - `record`: one row per change position, in format 2 (`HealthSQLiteFormat2`): the
///   record's columns, some under indexes, the id of its `origin` row (who wrote it, kept
///   once), `extra` (the members no column holds, NULL for most rows) and a CRC-32 of every
///   column. A read-only store may hold format 1 (a JSON row per record), which is read
///   through the same functions (`HealthSQLiteLayout`).
/// - `state`: the small state as the `health` document's JSON, with its CRC-32.
/// - `meta`: the format version, the last position taken and the counts of live samples and
///   deleted-object records per type, each with a CRC-32.
///
/// Every value read is checked: a row's columns against their CRC, its origin against its
/// own (format 1: a JSON row against its CRC and then its columns), and each row a query finds against the query's conditions (a
/// damaged index entry finds the wrong row). What is wrong throws `StoreError.corrupt` with
/// the file and the record's position. Damage that no query reads (an index entry that
/// finds nothing, a row no query touches) is found by `check`.
public final class HealthSQLiteStorage: HealthSampleStorage {
  /// The file's name in a store's directory.
  public static let fileName = "health.sqlite"
  /// The layout this weigh makes (`PRAGMA user_version` and the `format` meta row): format
  /// 3 (`HealthSQLiteFormat3`). A format-2 file is written as it is (a writable store's is
  /// migrated first: `migrateIfNeeded`); format 1 is read in a read-only store
  /// (`HealthSQLiteLayout`).
  public static let formatVersion: Int64 = HealthSQLiteFormat3.version
  /// `PRAGMA application_id`: "WGHS", so that another program's database is refused.
  static let applicationID: Int64 = 0x5747_4853
  /// The page size of a new database: 8 KiB (SQLite's default is 4 KiB). Fewer page splits
  /// and shallower indexes for every insert (an import of 125,000 samples: 7.7 % fewer
  /// instructions in SQLite); an existing file keeps the size it was made with, and SQLite
  /// reads either (docs/store.md, "The saving thread, again").
  static let pageSize = 8192

  /// The database file.
  public let path: String
  let queue: DatabaseQueue
  /// The statements this connection keeps prepared (`HealthSQLiteStatement`), in the
  /// file's layout, and the origins it read.
  let statements: HealthSQLiteStatements
  /// The file's layout: format 2, or format 1 in a read-only store.
  var layout: HealthSQLiteLayout { statements.layout }
  /// The UUID index, which a command that fills an empty table makes once at its end.
  let uuidIndex = HealthSQLiteUUIDIndex()
  /// Whether a command's transaction is open (`beginCommand`): writes are savepoints in it.
  public internal(set) var isInCommand = false
  /// Within a command: the last position and the count changes that its writes made, kept
  /// here and written to the meta rows once, by `commitCommand` (reading and writing them
  /// at every delivery's sync cost a tenth of ten years' run).
  var commandWriter: Writer?
  /// `commandWriter` as it was at `openSavepoint()`, restored when the savepoint is rolled back.
  var savepointWriter: Writer?
  /// The savepoint statements `openSavepoint()` and `releaseSavepoint()` left for the next
  /// call that writes, which runs them first (`settleSavepoints`).
  var owedSavepoints = OwedSavepoints()
  /// Whether `close` ran: the storage then refuses every call (SQLite's connection is gone).
  public private(set) var isClosed = false
  /// Whether `close` keeps the write-ahead log file (emptied) instead of removing it: while
  /// the journal may lack a record this database committed, the log's file is the mark that
  /// makes the next open look for it (docs/store.md, "Opening health.sqlite only when a
  /// command needs Health").
  public var keepsLogOnClose = false
  /// Set for a database built aside (`createAside(at:directory:)`): the file the connection
  /// has open, without a log and without syncs, that its first command's commit syncs and
  /// renames to `path` (`placeAside`). Nil once it is in place, and for every other storage.
  var aside: Aside?
  /// For a database built aside: the disk's writing of its file started before the UUID
  /// index's sort at the commit (`HealthSQLiteAsideWriteback`). Closed after the connection.
  var asideWriteback: HealthSQLiteAsideWriteback?

  /// Format 1's record table and its indexes.
  static let recordTablesFormat1 = """
    CREATE TABLE record (
      pos INTEGER PRIMARY KEY,
      kind INTEGER NOT NULL,
      type TEXT NOT NULL,
      uuid BLOB NOT NULL,
      start REAL NOT NULL,
      value REAL NOT NULL,
      bundle TEXT NOT NULL,
      sync_id TEXT,
      deleted REAL,
      row_crc INTEGER NOT NULL,
      crc INTEGER NOT NULL,
      row BLOB NOT NULL
    ) STRICT;
    CREATE INDEX record_type_pos ON record(type, pos);
    CREATE INDEX record_type_start ON record(type, start);
    \(HealthSQLiteUUIDIndex.creation);
    CREATE INDEX record_sync ON record(sync_id) WHERE sync_id IS NOT NULL;
    CREATE INDEX record_deleted ON record(deleted) WHERE kind = 1;
    """

  /// The tables every format has: the small state, the meta rows, the pending journal record.
  static let sharedTables = """
    CREATE TABLE state (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      json BLOB NOT NULL,
      crc INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE meta (
      key TEXT PRIMARY KEY,
      value INTEGER NOT NULL,
      crc INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE pending_journal (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      seq INTEGER NOT NULL,
      record BLOB NOT NULL,
      crc INTEGER NOT NULL
    ) STRICT;
    """

  /// Format 1's tables.
  static let schema = recordTablesFormat1 + "\n" + sharedTables

  /// Opens `path`, creating an empty storage when there is no file (or an empty one) unless
  /// `creating` is false.
  ///
  /// - Throws: `StoreError`: `corrupt` for a file that is not a weigh Health database or
  ///   whose layout is damaged, `newerFormat` for a newer layout, `locked`, `io`.
  ///
  /// With `readOnly` (a store whose files cannot be written), nothing is created or
  /// written, and every write throws.
  public convenience init(path: String, creating: Bool = true, readOnly: Bool = false)
    throws(StoreError)
  {
    try self.init(path: path, creating: creating, readOnly: readOnly, aside: nil)
  }

  /// Opens `path`, or with `aside` the file built aside that takes its place at the first
  /// commit: without the write-ahead log (`journal_mode = MEMORY`, which keeps savepoints
  /// and rollback) and without syncs (`synchronous = OFF`) until then.
  init(path: String, creating: Bool, readOnly: Bool, aside: Aside?) throws(StoreError) {
    self.path = path
    self.aside = aside
    // Before the process's first connection (`HealthSQLiteLibrary`).
    _ = HealthSQLiteLibrary.configured
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    configuration.readonly = readOnly
    // A command's transaction stays open between calls (`beginCommand`).
    configuration.allowsUnsafeTransactions = true
    configuration.prepareDatabase { db in
      guard !readOnly else { return }
      // A new database's page size (no effect on an existing file: SQLite keeps its own).
      try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
      if aside != nil {
        guard try String.fetchOne(db, sql: "PRAGMA journal_mode = MEMORY") == "memory" else {
          throw HealthSQLiteDamage(position: nil, "the database cannot keep its journal")
        }
        try db.execute(sql: "PRAGMA synchronous = OFF")
      } else {
        // Not `journalMode = .wal`: GRDB would then set synchronous = NORMAL.
        guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
          throw HealthSQLiteDamage(position: nil, "the database cannot use its write-ahead log")
        }
        try db.execute(sql: "PRAGMA synchronous = FULL")
      }
      // A savepoint's copies of the pages it changes stay in memory: by default SQLite
      // writes them to a file in /var/tmp past 64 KiB, which 8 KiB pages reach in one
      // delivery (ten simulated years: 22,318 writes to that file, 23,135 in all).
      try db.execute(sql: "PRAGMA temp_store = MEMORY")
    }
    let file = path
    let queue = try Self.mapped(file) {
      try DatabaseQueue(path: aside?.temporary ?? path, configuration: configuration)
    }
    self.queue = queue
    asideWriteback = aside.flatMap { HealthSQLiteAsideWriteback($0.temporary) }
    var layout = HealthSQLiteLayout.format3
    try Self.mapped(file) {
      if readOnly {
        layout = try queue.read { db in try Self.prepareLayout(db, creating: false) }
        return
      }
      try queue.inTransaction(.immediate) { db in
        layout = try Self.prepareLayout(db, creating: creating)
        return .commit
      }
    }
    statements = HealthSQLiteStatements(layout: layout)
    // Format 1 is only read: a writable store's file is migrated before it is opened
    // (`migrateToFormat2IfNeeded`).
    if layout == .format1, !readOnly {
      try? queue.close()
      throw StoreError(
        .corrupt, file: path,
        message: "health.sqlite is format 1; open it with a weigh that migrates it")
    }
  }

  /// The statements that make an empty database a new Health database: the tables, its
  /// identity and version, and the first meta rows (`create(at:directory:)` runs them too).
  static var creation: String { creation(version: formatVersion) }

  /// The statements that make an empty database a new Health database of format `version`
  /// (1, 2 or 3): its tables, identity and version, and first meta rows.
  static func creation(version: Int64) -> String {
    let records =
      switch version {
      case HealthSQLiteFormat3.version: HealthSQLiteFormat3.recordTables
      case HealthSQLiteFormat2.version: HealthSQLiteFormat2.recordTables
      default: recordTablesFormat1
      }
    var sql = records + "\n" + sharedTables + "\n"
    sql += "PRAGMA application_id = \(applicationID);\n"
    sql += "PRAGMA user_version = \(version);\n"
    for (key, value) in [("format", version), ("last_position", 0), (longestKnownKey, 1)] {
      // The keys are the constants above: no quote to escape.
      sql += "INSERT INTO meta (key, value, crc) VALUES ('\(key)', \(value), "
      sql += "\(Int64(truncatingIfNeeded: metaChecksum(key, value))));\n"
    }
    return sql
  }

  /// Creates the tables of a new (empty) database, or checks the identity and version of an
  /// existing one; returns its layout.
  @discardableResult
  static func prepareLayout(_ db: Database, creating: Bool) throws -> HealthSQLiteLayout {
    let application = try Int64.fetchOne(db, sql: "PRAGMA application_id") ?? 0
    let version = try Int64.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema") ?? 0
    if application == 0, version == 0, tables == 0 {
      guard creating else { throw HealthSQLiteDamage(position: nil, "the database is empty") }
      try db.execute(sql: creation)
      return .format3
    }
    guard application == applicationID else {
      throw HealthSQLiteDamage(
        position: nil,
        "not a weigh Health database (its application id is \(application)); move it away")
    }
    guard version <= formatVersion else {
      throw NewerHealthFormat(found: version)
    }
    guard let layout = HealthSQLiteLayout(version: version), try meta("format", db) == version
    else {
      throw HealthSQLiteDamage(
        position: nil, "the format version (\(version)) disagrees with the format row")
    }
    return layout
  }

  /// Closes the database (SQLite checkpoints the log into the file when it is the last
  /// connection). Using the storage after it throws.
  public func close() throws(StoreError) {
    guard !isClosed else { return }
    if keepsLogOnClose { keepLogFile() }
    isClosed = true
    statements.finalizeAll()
    try Self.mapped(path) { try queue.close() }
    // After SQLite's own descriptor: closing one drops the process's locks on the file.
    asideWriteback?.close()
    asideWriteback = nil
    // Built aside and never committed: nobody's file (the next creation would remove it).
    if let aside {
      self.aside = nil
      try? FileManager.default.removeItem(atPath: aside.temporary)
    }
  }

  /// Throws when the storage was closed.
  func checkOpen() throws(StoreError) {
    if isClosed { throw StoreError(.io, file: path, message: "the Health database is closed") }
  }

  // MARK: Errors

  /// A newer layout than this weigh reads.
  struct NewerHealthFormat: Error {
    var found: Int64
  }

  /// Runs `body`, turning SQLite's and the checks' errors into `StoreError`s about `file`.
  /// `HealthStorageError` (a change the rules refuse) passes through.
  static func mapped<T>(_ file: String, _ body: () throws -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch let error as StoreError {
      throw error
    } catch let damage as HealthSQLiteDamage {
      throw StoreError(
        .corrupt, file: file,
        message: "\(damage.description); `weigh check` lists the damage")
    } catch let newer as NewerHealthFormat {
      throw StoreError.newerFormat(
        file: file, line: nil, column: nil,
        found: Int(clamping: newer.found), supported: Int(truncatingIfNeeded: formatVersion))
    } catch let error as HealthStorageError {
      throw StoreError(.invalidChange, file: file, message: error.message)
    } catch let error as DatabaseError {
      let said = (error.message ?? "\(error.resultCode)").lowercased()
      switch error.resultCode {
      case .SQLITE_CORRUPT, .SQLITE_NOTADB:
        throw StoreError(
          .corrupt, file: file,
          message: "the database is damaged (sqlite: \(said)); `weigh check` lists the damage")
      case .SQLITE_BUSY, .SQLITE_LOCKED:
        throw StoreError(
          .locked, file: file, message: "another process is writing the database; try again")
      default:
        throw StoreError(.io, file: file, message: "sqlite: \(said)")
      }
    } catch {
      throw StoreError(.io, file: file, message: "\(error)")
    }
  }

  /// Runs a query. Not through GRDB's `read`, which sets `PRAGMA query_only` on and off
  /// around it: a flag pragma expires every prepared statement, so each cached statement
  /// was compiled again at its next use. Ten simulated years on disk spent 3.6 G of their
  /// 5.5 G instructions recompiling (36,492 times; callgrind, 2026-11-26).
  private func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
    try checkOpen()
    return try Self.mapped(path) { try queue.inDatabase(body) }
  }

  // MARK: Meta and state rows

  static func metaChecksum(_ key: String, _ value: Int64) -> UInt32 {
    var bytes = Array(key.utf8)
    bytes.append(0)
    for shift in stride(from: 0 as UInt64, to: 64, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> shift))
    }
    return bytes.withUnsafeBufferPointer { StoreChecksum.of($0) }
  }

  /// `kind`, kept prepared by `statements`; without them (a connection of `check` or
  /// `repair`, or the layout's first look), from GRDB's cache.
  static func statement(
    _ kind: HealthSQLiteStatement, _ db: Database, _ statements: HealthSQLiteStatements?
  ) throws -> GRDB.Statement {
    if let statements { return try statements(kind, db) }
    return try db.cachedStatement(sql: kind.sql)
  }

  static func setMeta(
    _ key: String, _ value: Int64, _ db: Database, _ statements: HealthSQLiteStatements? = nil
  ) throws {
    var write = HealthSQLiteBinding(try statement(.metaWrite, db, statements))
    write.bind(1, text: key)
    write.bind(2, integer: value)
    write.bind(3, integer: Int64(truncatingIfNeeded: metaChecksum(key, value)))
    try write.run()
  }

  /// The checked value of the meta row `key`, nil when there is none.
  static func meta(_ key: String, _ db: Database, _ statements: HealthSQLiteStatements? = nil)
    throws -> Int64?
  {
    var found: (value: DatabaseValue, crc: DatabaseValue)?
    var read = HealthSQLiteBinding(try statement(.metaRead, db, statements))
    read.bind(1, text: key)
    try read.rows { row in found = (row.value(at: 0), row.value(at: 1)) }
    guard let found else { return nil }
    guard case .int64(let number) = found.value.storage,
      case .int64(let checksum) = found.crc.storage,
      checksum == Int64(truncatingIfNeeded: metaChecksum(key, number))
    else {
      throw HealthSQLiteDamage(
        position: nil, "the meta row \"\(key)\" does not match its checksum (damaged)")
    }
    return number
  }

  // MARK: The longest duration per type

  /// The meta row that says the database keeps `longest <type>` (one written before it did
  /// has none: `longestDuration(of:)` is then unknown).
  static let longestKnownKey = "longest_known"

  /// The meta row of the longest duration any sample of `type` had: the duration's bits.
  static func longestKey(_ type: SampleType) -> String { "longest " + type.rawValue }

  /// Raises the `longest <type>` rows to `longest` where it is longer.
  static func raiseLongest(
    _ longest: [SampleType: Double], _ db: Database, _ statements: HealthSQLiteStatements
  ) throws {
    // In the types' order, as `countChanges`: the same file whatever the process.
    for (type, duration) in longest.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let key = longestKey(type)
      let stored = try meta(key, db, statements).map {
        Double(bitPattern: UInt64(bitPattern: $0))
      }
      if duration > (stored ?? 0) {
        try setMeta(key, Int64(bitPattern: duration.bitPattern), db, statements)
      }
    }
  }

  /// The longest duration any sample of `type` had (it never shrinks), as the in-memory
  /// storage keeps it; nil for a database written before it was kept.
  public func longestDuration(of type: SampleType) throws -> TimeInterval? {
    try read { db in
      guard try Self.meta(Self.longestKnownKey, db, statements) == 1 else { return nil }
      let stored =
        try Self.meta(Self.longestKey(type), db, statements).map {
          Double(bitPattern: UInt64(bitPattern: $0))
        } ?? 0
      return max(stored, commandWriter?.tally.longest(of: type) ?? 0)
    }
  }

  static func countKeys(_ type: SampleType) -> (samples: String, deletions: String) {
    allCountKeys[type] ?? ("samples " + type.rawValue, "deletions " + type.rawValue)
  }

  /// `countKeys` of every type, made once (every saved sample counts under one).
  private static let allCountKeys: [SampleType: (samples: String, deletions: String)] =
    Dictionary(
      uniqueKeysWithValues: SampleType.allCases.map {
        ($0, ("samples " + $0.rawValue, "deletions " + $0.rawValue))
      })

  public func smallState() throws -> HealthSmallState? {
    try read { db in try Self.readState(db, statements) }
  }

  static func readState(_ db: Database, _ statements: HealthSQLiteStatements? = nil) throws
    -> HealthSmallState?
  {
    var found: (json: DatabaseValue, crc: DatabaseValue)?
    try HealthSQLiteBinding(statement(.stateRead, db, statements)).rows { row in
      found = (row.value(at: 0), row.value(at: 1))
    }
    guard let (json, crc) = found else { return nil }
    guard case .blob(let bytes) = json.storage, case .int64(let checksum) = crc.storage,
      checksum
        == Int64(truncatingIfNeeded: Array(bytes).withUnsafeBufferPointer { StoreChecksum.of($0) })
    else {
      throw HealthSQLiteDamage(
        position: nil,
        "the state row does not match its checksum (changed outside weigh, or damaged)")
    }
    do {
      let value = try JSONReader.withReader(over: Array(bytes)) {
        (reader) throws(JSONSyntaxError) in try reader.readValue()
      }
      return try HealthStateDocument.decode(value)
    } catch let problem as DocumentProblem {
      throw HealthSQLiteDamage(position: nil, "the state row: \(problem.message)")
    } catch let syntax as JSONSyntaxError {
      throw HealthSQLiteDamage(position: nil, "the state row is not valid JSON: \(syntax.message)")
    }
  }

  private static func writeState(
    _ state: HealthSmallState, _ db: Database, _ statements: HealthSQLiteStatements
  ) throws {
    let value = try DocumentCoding.encode(state)
    do throws(DocumentProblem) { _ = try HealthStateDocument.decode(value) } catch {
      throw HealthStorageError("the state would not load again: \(error.message)")
    }
    var writer = JSONWriter()
    writer.write(value)
    let checksum = writer.bytes.withUnsafeBufferPointer { StoreChecksum.of($0) }
    var write = HealthSQLiteBinding(try statement(.stateWrite, db, statements))
    writer.bytes.withUnsafeBytes { write.bind(1, blob: $0) }
    write.bind(2, integer: Int64(truncatingIfNeeded: checksum))
    try write.run()
  }

  public func lastPosition() throws -> Int64 {
    if let commandWriter { return commandWriter.last }
    return try read { db in try Self.lastPosition(db, statements) }
  }

  /// Format 3: the command now open will write samples of `types` (an import names them):
  /// their index pairs are made with the first pair it makes, while the table is as small
  /// as it will be (`HealthSQLiteStatements.makePairIfMissing`). Forgotten at the commit.
  public func expectTypes(_ types: some Sequence<SampleType>) {
    guard layout == .format3 else { return }
    for type in types {
      let code = HealthSQLiteTypeCode.code(type)
      if (1..<64).contains(code) { statements.expectedCodes |= 1 << code }
    }
  }

  /// Writes what `commandWriter` holds to the meta rows, and forgets it.
  func flushCommandWriter(_ db: Database) throws {
    try statements.dropUnusedExpectedPairs(db)
    // A file built aside: its pages on their way to the disk while the index is sorted.
    if uuidIndex.droppedInCommand { asideWriteback?.start(db) }
    // Before the `COMMIT`, in the command's transaction (`HealthSQLiteUUIDIndex`).
    try uuidIndex.makeBeforeCommit(db)
    guard let writer = commandWriter else { return }
    commandWriter = nil
    if writer.last != (try Self.lastPosition(db, statements)) {
      try Self.setMeta("last_position", writer.last, db, statements)
    }
    for (key, delta) in writer.countChanges where delta != 0 {
      try Self.setMeta(key, (try Self.meta(key, db, statements) ?? 0) + delta, db, statements)
    }
    try Self.raiseLongest(writer.longest, db, statements)
  }

  /// The last position taken; a database without it is damaged (it is written at creation).
  static func lastPosition(_ db: Database, _ statements: HealthSQLiteStatements? = nil) throws
    -> Int64
  {
    guard let last = try meta("last_position", db, statements) else {
      throw HealthSQLiteDamage(position: nil, "the meta row \"last_position\" is missing")
    }
    return last
  }

  public func counts(of type: SampleType?) throws -> RecordCounts {
    try read { db in
      var counts = RecordCounts(samples: 0, deletions: 0)
      for type in type.map({ [$0] }) ?? SampleType.allCases {
        let keys = Self.countKeys(type)
        let pending = commandWriter?.tally.counts(of: type)
        let samples = (try Self.meta(keys.samples, db, statements) ?? 0) + (pending?.samples ?? 0)
        let deletions =
          (try Self.meta(keys.deletions, db, statements) ?? 0) + (pending?.deletions ?? 0)
        counts.samples += Int(clamping: samples)
        counts.deletions += Int(clamping: deletions)
      }
      return counts
    }
  }

  // MARK: Reading records

  /// The record of a row selected as `fullSelection`, checked: its columns against their
  /// checksum, its JSON row against its own, then the record against its columns.
  static func decode(_ row: some HealthSQLiteRow) throws -> (HealthSQLiteColumns, HealthRecord) {
    let columns = try HealthSQLiteColumns.read(row)
    let json = row.value(at: HealthSQLiteColumns.count)
    guard case .blob(let bytes) = json.storage else {
      throw HealthSQLiteDamage(position: columns.position, "the row is not a blob")
    }
    let array = Array(bytes)
    guard array.withUnsafeBufferPointer({ StoreChecksum.of($0) }) == columns.rowChecksum else {
      throw HealthSQLiteDamage(
        position: columns.position,
        "the JSON row does not match its checksum (changed outside weigh, or damaged)")
    }
    let record: HealthRecord
    do {
      record = try JSONReader.withReader(over: array) { (reader) throws(JSONSyntaxError) in
        try HealthRecordCodec.decode(from: &reader)
      }
    } catch {
      throw HealthSQLiteDamage(position: columns.position, "the JSON row: \(error.message)")
    }
    guard HealthSQLiteColumns(record, rowChecksum: columns.rowChecksum) == columns else {
      throw HealthSQLiteDamage(
        position: columns.position, "the columns disagree with the JSON row")
    }
    return (columns, record)
  }

  /// The checked parts of a format-2 row, its origin from the connection's origins, read
  /// again when the row names one they do not hold (written since they were read).
  static func parts(
    _ row: some HealthSQLiteRow, _ db: Database, _ statements: HealthSQLiteStatements
  )
    throws -> HealthSQLiteRowParts
  {
    var origins = try statements.origins(db)
    if case .int64(let id) = row.value(at: 7).storage, origins[id] == nil {
      origins = try statements.origins(db, refresh: true)
    }
    return try HealthSQLiteRowParts.read(row, origins: origins)
  }

  /// The checked columns and record of a row selected as the layout's whole row
  /// (`HealthSQLiteStatement.selections`): format 1's through `decode`, format 2's from
  /// its parts (`HealthSQLiteRowParts.record()`).
  static func record(
    _ row: some HealthSQLiteRow, _ db: Database, _ statements: HealthSQLiteStatements
  ) throws -> (HealthSQLiteColumns, HealthRecord) {
    switch statements.layout {
    case .format1: return try decode(row)
    case .format2, .format3:
      let parts = try parts(row, db, statements)
      return (HealthSQLiteColumns(parts), try parts.record())
    }
  }

  /// The checked columns of a row selected as the layout's columns; no record is decoded.
  static func columns(
    _ row: some HealthSQLiteRow, _ db: Database, _ statements: HealthSQLiteStatements
  ) throws -> HealthSQLiteColumns {
    switch statements.layout {
    case .format1: return try HealthSQLiteColumns.read(row)
    case .format2, .format3: return HealthSQLiteColumns(try parts(row, db, statements))
    }
  }

  /// The checked records of the rows `query` selects (the whole row first); each must
  /// pass `expected`, the query's own conditions, or the index that found it is damaged.
  ///
  /// With `type`, `query` is a statement by type (`HealthSQLiteStatement.isByType`): in
  /// format 3, a type without its index pair has no row, and SQLite is not asked.
  private static func records(
    _ db: Database, _ statements: HealthSQLiteStatements, _ query: HealthSQLiteStatement,
    type: SampleType? = nil,
    bind: (inout HealthSQLiteBinding) -> Void, expected: (HealthSQLiteColumns) -> Bool
  ) throws -> [(HealthSQLiteColumns, HealthRecord)] {
    var result: [(HealthSQLiteColumns, HealthRecord)] = []
    // Prepared once per connection (and type): its preparation costs more than its run.
    guard let prepared = try prepared(query, type: type, db, statements) else { return [] }
    var statement = HealthSQLiteBinding(prepared)
    bind(&statement)
    try statement.rows { row in
      let decoded = try record(row, db, statements)
      guard expected(decoded.0) else { throw misfound(decoded.0.position) }
      result.append(decoded)
    }
    return result
  }

  /// The checked columns of the rows `query` selects (`HealthSQLiteColumns.selection`
  /// first).
  private static func columns(
    _ db: Database, _ statements: HealthSQLiteStatements, _ query: HealthSQLiteStatement,
    type: SampleType? = nil,
    bind: (inout HealthSQLiteBinding) -> Void, expected: (HealthSQLiteColumns) -> Bool
  ) throws -> [HealthSQLiteColumns] {
    var result: [HealthSQLiteColumns] = []
    // Prepared once per connection (and type): its preparation costs more than its run.
    guard let prepared = try prepared(query, type: type, db, statements) else { return [] }
    var statement = HealthSQLiteBinding(prepared)
    bind(&statement)
    try statement.rows { row in
      let columns = try columns(row, db, statements)
      guard expected(columns) else { throw misfound(columns.position) }
      result.append(columns)
    }
    return result
  }

  /// `query` prepared, for `type` when given (nil: format 3 and no index pair of `type`).
  private static func prepared(
    _ query: HealthSQLiteStatement, type: SampleType?, _ db: Database,
    _ statements: HealthSQLiteStatements
  ) throws -> GRDB.Statement? {
    guard let type else { return try statements(query, db) }
    return try statements(query, type: type, db)
  }

  /// The current row of a statement that `HealthSQLiteBinding.rows` steps.
  struct SteppedRow: HealthSQLiteRow {
    let statement: SQLiteStatement
    func value(at index: Int) -> DatabaseValue {
      DatabaseValue(sqliteStatement: statement, index: CInt(truncatingIfNeeded: index))
    }
  }

  private static func misfound(_ position: Int64) -> HealthSQLiteDamage {
    HealthSQLiteDamage(
      position: position, "an index found this record for a query it does not match")
  }

  public func record(at position: Int64) throws -> HealthRecord? {
    try read { db in
      try Self.records(
        db, statements, .recordAt, bind: { $0.bind(1, integer: position) },
        expected: { $0.position == position }
      ).first?.1
    }
  }

  public func records(after position: Int64, limit: Int) throws -> [HealthRecord] {
    try read { db in
      try Self.records(
        db, statements, .recordsAfter,
        bind: {
          $0.bind(1, integer: position)
          $0.bind(2, integer: limit > 0 ? Int64(truncatingIfNeeded: limit) : -1)
        },
        expected: { $0.position > position }
      ).map(\.1)
    }
  }

  public func changes(of type: SampleType, after anchor: Int64, limit: Int) throws
    -> [HealthRecord]
  {
    // What the command's writer just wrote, without reading it back from SQLite again: a
    // delivery's sync asks for the sample its reading wrote.
    if !isClosed, let found = commandWriter?.recentChanges(of: type, after: anchor, limit: limit) {
      return found
    }
    return try read { db in
      // A range of positions of one type: without `record_type_pos` (dropped by a large
      // command on an empty table), a scan of the rows after the anchor.
      try uuidIndex.makeTypeIndexIfMissing(db)
      return try Self.records(
        db, statements, .changesOfType, type: type,
        bind: {
          $0.bind(1, type: type, layout)
          $0.bind(2, integer: anchor)
          $0.bind(3, integer: limit > 0 ? Int64(truncatingIfNeeded: limit) : -1)
        },
        expected: { $0.type == type && $0.position > anchor }
      ).map(\.1)
    }
  }

  /// The query (`all` or `starting`), its parameters and conditions for the rows of `type`
  /// starting in `range`.
  private static func startCondition(
    _ type: SampleType, _ range: Range<Date>?, _ layout: HealthSQLiteLayout,
    all: HealthSQLiteStatement, starting: HealthSQLiteStatement
  ) -> (
    query: HealthSQLiteStatement, bind: (inout HealthSQLiteBinding) -> Void,
    expected: (HealthSQLiteColumns) -> Bool
  ) {
    guard let range else {
      return (all, { $0.bind(1, type: type, layout) }, { $0.type == type })
    }
    let low = range.lowerBound.timeIntervalSince1970
    let high = range.upperBound.timeIntervalSince1970
    return (
      starting,
      {
        $0.bind(1, type: type, layout)
        $0.bind(2, real: low)
        $0.bind(3, real: high)
      },
      { $0.type == type && $0.start >= low && $0.start < high }
    )
  }

  public func samples(of type: SampleType, startingIn range: Range<Date>?, bundle: String?)
    throws -> [StoredSample]
  {
    let condition = Self.startCondition(
      type, range, layout, all: .recordsOfType, starting: .recordsOfTypeStarting)
    return try read { db in
      try Self.records(
        db, statements, condition.query, type: type, bind: condition.bind,
        expected: condition.expected
      ).compactMap { columns, record in
        guard case .sample(let sample, let position) = record,
          bundle == nil || columns.bundle == bundle
        else { return nil }
        return StoredSample(sample: sample, position: position)
      }
    }
  }

  public func sample(uuid: UUID) throws -> StoredSample? {
    // Not looked up when the command's own UUIDs say that no live sample has it.
    if isInCommand, commandWriter?.ownUUIDs?.mayContain(uuid) == false { return nil }
    let found = try read { db in
      try uuidIndex.makeIfMissing(db)
      return try Self.liveSample(uuid, db, statements)
    }
    // Within a command, a UUID found on no live sample is remembered until it is saved
    // (`Writer.absentUUIDs`): a new sample's UUID, which HealthStore has just looked up,
    // is then not looked up again by the save's own check.
    if found == nil, isInCommand { commandWriter?.noteAbsent(uuid) }
    return found
  }

  /// Each UUID looked up as `sample(uuid:)` looks it up, in one read: HealthStore asks
  /// about a batch's new UUIDs at once, where a read of its own for each cost 5,000
  /// instructions around SQLite's (GRDB's queue). Those absent are remembered as
  /// `sample(uuid:)` remembers them.
  public func liveUUIDs(among uuids: [UUID]) throws -> Set<UUID> {
    // In a command that began on an empty table, only the UUIDs its own rows may have are
    // looked up (`HealthSQLiteCommandUUIDs`): the others are on no live sample.
    let own = isInCommand ? commandWriter?.ownUUIDs : nil
    if let own, !uuids.contains(where: own.mayContain) { return [] }
    let live = try read { db in
      try uuidIndex.makeIfMissing(db)
      var live = Set<UUID>()
      for uuid in uuids where own?.mayContain(uuid) ?? true {
        if try Self.liveSample(uuid, db, statements) != nil { live.insert(uuid) }
      }
      return live
    }
    if own == nil, isInCommand, commandWriter != nil {
      for uuid in uuids where !live.contains(uuid) { commandWriter?.noteAbsent(uuid) }
    }
    return live
  }

  private static func liveSample(
    _ uuid: UUID, _ db: Database, _ statements: HealthSQLiteStatements
  ) throws -> StoredSample? {
    // A UUID no record has (every new sample's, looked up twice: by `freshUUID` and by the
    // save) asks the index alone, without GRDB's row cursor (which lower-cases and hashes
    // the column names for every query) or its arguments: in the all-types import of a
    // 10 MB export (12,486 samples), these look-ups went from 768 M to 390 M instructions
    // (callgrind), then to 96 M bound directly. Rows found are read and checked below.
    var probe = HealthSQLiteBinding(try statements(.uuidProbe, db))
    withUnsafeBytes(of: uuid.uuid) { probe.bind(1, blob: $0) }
    guard try probe.exists() else { return nil }
    for (columns, record) in try records(
      db, statements, .recordsOfUUID,
      bind: { statement in withUnsafeBytes(of: uuid.uuid) { statement.bind(1, blob: $0) } },
      expected: { $0.uuid == uuid })
    where !columns.isDeletion {
      if case .sample(let sample, let position) = record {
        return StoredSample(sample: sample, position: position)
      }
    }
    return nil
  }

  /// One row, from the top of the (type, start) index: the position is its last key.
  public func newestSample(of type: SampleType) throws -> StoredSample? {
    try read { db in
      for (_, record) in try Self.records(
        db, statements, .newestOfType, type: type, bind: { $0.bind(1, type: type, layout) },
        expected: { $0.type == type && !$0.isDeletion })
      {
        if case .sample(let sample, let position) = record {
          return StoredSample(sample: sample, position: position)
        }
      }
      return nil
    }
  }

  /// A range of the UUID index (UUIDs are 16-byte blobs, which compare as their hex
  /// digits do), at most `limit` live rows.
  public func samples(uuidPrefix hexPrefix: String, limit: Int) throws -> [StoredSample] {
    guard let range = UUID.range(withHexPrefix: hexPrefix) else { return [] }
    return try read { db in
      try uuidIndex.makeIfMissing(db)
      return try Self.records(
        db, statements, .uuidRange,
        bind: { statement in
          withUnsafeBytes(of: range.low.uuid) { statement.bind(1, blob: $0) }
          withUnsafeBytes(of: range.high.uuid) { statement.bind(2, blob: $0) }
          statement.bind(3, integer: limit > 0 ? Int64(truncatingIfNeeded: limit) : -1)
        },
        expected: { !$0.isDeletion && $0.uuid.compactHex.hasPrefix(hexPrefix) }
      ).compactMap { _, record in
        guard case .sample(let sample, let position) = record else { return nil }
        return StoredSample(sample: sample, position: position)
      }
    }
  }

  public func samples(syncIdentifier: String, type: SampleType, bundle: String?) throws
    -> [StoredSample]
  {
    try read { db in
      try Self.records(
        db, statements, .recordsOfSyncIdentifier, bind: { $0.bind(1, text: syncIdentifier) },
        expected: { $0.syncIdentifier == syncIdentifier }
      ).compactMap { columns, record in
        guard columns.type == type, bundle == nil || columns.bundle == bundle,
          case .sample(let sample, let position) = record
        else { return nil }
        return StoredSample(sample: sample, position: position)
      }
    }
  }

  /// Reads only the columns (no JSON row is decoded); they are added in position order, as
  /// the in-memory storage adds them, so the sums are the same to the bit.
  public func statistics(of type: SampleType, boundaries: [Date], bundle: String?) throws
    -> [SampleBucket]
  {
    var (buckets, span) = try SampleBucket.emptyBuckets(between: boundaries)
    guard let span else { return buckets }
    let condition = Self.startCondition(
      type, span, layout, all: .columnsOfType, starting: .columnsOfTypeStarting)
    let rows = try read { db in
      try Self.columns(
        db, statements, condition.query, type: type, bind: condition.bind,
        expected: condition.expected)
    }
    for columns in rows where !columns.isDeletion && (bundle == nil || columns.bundle == bundle) {
      let start = Date(timeIntervalSince1970: columns.start)
      guard let index = SampleBucket.index(of: start, in: boundaries) else { continue }
      buckets[index].add(columns.value)
    }
    return buckets
  }

  // MARK: Writing

  public func apply(_ changes: [HealthChange]) throws {
    try apply(changes, prepared: [])
  }

  /// `apply(_:)`, with the rows of saved samples prepared on another thread
  /// (`HealthSQLitePreparedRow`) where they fit the sample saved.
  public func apply(_ changes: [HealthChange], prepared: [(any StoragePreparation)?]) throws {
    try write { db, writer in
      for index in changes.indices {
        switch changes[index] {
        case .sampleSaved(let sample, let position):
          let preparation =
            index < prepared.count ? HealthSQLitePreparedRow.of(prepared[index]) : nil
          try writer.save(sample, at: position, change: index, prepared: preparation, db)
        case .sampleDeleted(let uuid, let position, let date):
          try writer.delete(uuid, at: position, date: date, change: index, db)
        case .deletedObjectsPurged(let cutoff):
          try writer.dropDeletions(db) { columns in
            cutoff.map { (columns.deleted ?? 0) < $0.timeIntervalSince1970 } ?? true
          }
        case .deletedObjectsTrimmed(let keeping):
          try writer.trim(keeping: keeping, db)
        case .stateChanged(let state):
          try Self.writeState(state, db, statements)
        }
      }
    }
  }

  public func append(_ records: [HealthRecord]) throws {
    try append(records, changesFrom: 0)
  }

  /// `append(_:)` of records that follow `first` others in one list: an error names the
  /// change by its place in the whole list (the migration appends its records a batch at a
  /// time, `RepairWriting`).
  func append(_ records: [HealthRecord], changesFrom first: Int) throws {
    try write { db, writer in
      for (offset, record) in records.enumerated() {
        let index = first + offset
        switch record {
        case .sample(let sample, let position):
          try writer.save(sample, at: position, change: index, db)
        case .deletion(let deleted, let position):
          try writer.take(position, change: index)
          try writer.insert(.deletion(deleted, position: position), db)
        }
      }
    }
  }

  /// Appends each of `records` that follows what was written before it, and leaves out the
  /// others: a record whose position is not after the last one written, and a live sample
  /// whose UUID a live sample written has (the first of two is kept). Returns how many it
  /// left out. The repair's writes (`repair(path:directory:)`): asked of the table being
  /// built, through its own UUIDs and index as a save asks, so that no set of every live
  /// UUID is held.
  func appendSkippingRepeats(_ records: [HealthRecord]) throws -> Int {
    var skipped = 0
    try write { db, writer in
      for (index, record) in records.enumerated() {
        guard record.position > writer.last else {
          skipped += 1
          continue
        }
        switch record {
        case .sample(let sample, let position):
          guard let uuid = sample.uuid else { throw HealthStorageError.missingUUID(change: index) }
          guard try !writer.hasLiveSample(uuid, db) else {
            skipped += 1
            continue
          }
          try writer.take(position, change: index)
          try writer.insert(sample, at: position, db)
        case .deletion(let deleted, let position):
          try writer.take(position, change: index)
          try writer.insert(.deletion(deleted, position: position), db)
        }
      }
    }
    return skipped
  }

  /// One transaction: `body` writes through a `Writer`, which then stores the last position
  /// and the counts it changed.
  /// Within a command's transaction (`beginCommand`), part of it: what throws there is rolled
  /// back by the step or the command it fails.
  private func write(_ body: (Database, inout Writer) throws -> Void) throws {
    try checkOpen()
    func writing(_ db: Database) throws -> Database.TransactionCompletion {
      var writer = try Writer(statements: statements, db)
      let before = writer.last
      try body(db, &writer)
      try writer.insertWaitingRows(db)
      if writer.last != before {
        try Self.setMeta("last_position", writer.last, db, statements)
      }
      for (key, delta) in writer.countChanges where delta != 0 {
        try Self.setMeta(key, (try Self.meta(key, db, statements) ?? 0) + delta, db, statements)
      }
      try Self.raiseLongest(writer.longest, db, statements)
      return .commit
    }
    try Self.mapped(path) {
      if isInCommand {
        // No savepoint of its own: a failure fails the command's step (`step`) or the whole
        // command, which roll back what this wrote (and `commandWriter` with it).
        try queue.inDatabase { db in
          try settleSavepoints(db)
          var writer = try commandWriter ?? Self.commandWriter(db, statements, uuidIndex)
          do {
            try body(db, &writer)
            try writer.insertWaitingRows(db)
          } catch {
            // What this call wrote stays until its step or command is rolled back: the
            // UUIDs remembered as absent may be taken by then.
            commandWriter?.absentUUIDs = []
            throw error
          }
          commandWriter = writer
        }
      } else {
        do {
          try queue.inTransaction(.immediate) { db in try writing(db) }
        } catch {
          // Rolled back: an origin it inserted is gone (`HealthSQLiteStatements.origins`).
          statements.forgetOrigins()
          throw error
        }
      }
    }
  }

  /// A command's first writer: it notes the UUIDs of the rows it inserts
  /// (`Writer.ownUUIDs`) when the table holds no row yet, as in a new store's first import,
  /// and then drops the UUID index once it has inserted many (`Writer.uuidIndex`).
  private static func commandWriter(
    _ db: Database, _ statements: HealthSQLiteStatements, _ uuidIndex: HealthSQLiteUUIDIndex
  ) throws -> Writer {
    var writer = try Writer(statements: statements, db)
    if try !HealthSQLiteBinding(try statements(.anyRecord, db)).exists() {
      writer.ownUUIDs = HealthSQLiteCommandUUIDs()
      writer.uuidIndex = uuidIndex
    }
    return writer
  }

  /// The state of one transaction's writes.
  struct Writer {
    /// The storage's prepared statements.
    let statements: HealthSQLiteStatements
    var last: Int64
    /// The changes of the live samples' and deleted-object records' counts, and the longest
    /// duration of the samples written, per type (by type, not by the meta row's key: a
    /// text key was hashed for every row written).
    var tally = HealthSQLiteTypeTally()
    /// The counts' changes by the meta rows' keys (`countKeys`), in the keys' order: the
    /// rows a command adds to `meta` are inserted in one order, so the same commands write
    /// the same file (a dictionary's order changes from one process to the next).
    var countChanges: [(key: String, delta: Int64)] {
      var changes: [String: Int64] = [:]
      for (type, delta) in tally.counts {
        let keys = countKeys(type)
        changes[keys.samples, default: 0] += delta.samples
        changes[keys.deletions, default: 0] += delta.deletions
      }
      return changes.sorted { $0.key < $1.key }.map { (key: $0.key, delta: $0.value) }
    }
    /// The longest duration of the samples written, per type.
    var longest: [SampleType: Double] { tally.longest }
    /// The row shapes read back (`checkReadBack`).
    var readShapes: Set<HealthRowShape> = []
    /// The last of `readShapes` a row had (`checkReadBack`).
    var lastReadShape: HealthRowShape?
    /// The position before the records in `recent`.
    var recentBase: Int64
    /// The records written after `recentBase`, in position order, as read back from their
    /// JSON rows (so as a query would decode them); nil when one of them was removed, or
    /// there were more than `recentLimit`. Only a command's writer keeps them, for the
    /// anchored read of what a delivery just wrote (`changes(of:after:limit:)`): no other
    /// connection writes while the command's transaction is open, so a row after
    /// `recentBase` is one of these.
    var recent: [(columns: HealthSQLiteColumns, record: HealthRecord)]? = []
    /// The most records `recent` holds (a command that writes many keeps none, not all).
    static let recentLimit = 64
    /// UUIDs that no live sample had when the command's storage was asked for them
    /// (`sample(uuid:)`), and that no sample saved since has: a save of one of them needs
    /// no look-up of its own. A save takes its UUID out; a deletion makes no UUID live; a
    /// savepoint or step rolled back restores an earlier writer, whose UUIDs are still
    /// absent after the rollback. HealthStore looks up each new UUID it draws before the
    /// save (`freshUUID`), so the all-types import looked up every UUID twice
    /// (docs/performance.md, "The all-types import: the saving thread").
    var absentUUIDs: Set<UUID> = []
    /// The most UUIDs `absentUUIDs` holds (a batch of an import is 10,000 samples); past
    /// it the set starts over, which costs look-ups, never a wrong answer.
    static let absentLimit = 20_000
    /// In a command's writer made on an empty table, the UUIDs of the live rows it inserted:
    /// a UUID not among them needs no look-up (`HealthSQLiteCommandUUIDs`). Shared by the
    /// writer's copies (a rollback leaves UUIDs in it that no row has: they are looked up).
    var ownUUIDs: HealthSQLiteCommandUUIDs?
    /// With `ownUUIDs`: the UUID index, dropped when `ownUUIDs` passes its exact set (the
    /// command has then inserted thousands of rows into a table that was empty, and may
    /// insert millions: an import), made again at a UUID question `ownUUIDs` cannot answer
    /// and before the commit (`HealthSQLiteUUIDIndex`). A command of fewer rows keeps it.
    var uuidIndex: HealthSQLiteUUIDIndex?
    /// Rows checked and not inserted yet: their parts and their origin's id. Inserted
    /// `rowsPerInsert` at a time, by one statement, and always before the writer reads the
    /// table or its write ends (`insertWaitingRows`), so no query and no other call sees
    /// the table without them.
    var waitingRows: [(parts: HealthSQLiteRowParts, originID: Int64)] = []
    /// The id of each origin in the `origin` table, as this writer's transaction has it:
    /// read when the writer starts (a handful of rows), and an origin inserted (before the
    /// first row naming it) added. A step or savepoint rolled back restores an earlier
    /// writer, and with it the map without the origins whose rows are gone.
    var originIDs: [HealthSQLiteOrigin: Int64] = [:]
    /// The id the next new origin takes.
    var nextOriginID: Int64 = 1
    /// The last origin a row named, and its id: an export's rows come from a few writers,
    /// mostly one after another, and comparing with the last (its texts are often the same
    /// strings, equal at once) costs less than hashing it.
    var lastOrigin: (origin: HealthSQLiteOrigin, id: Int64)?
    /// The rows one insert statement takes (`HealthSQLiteStatement.insertRecords`): SQLite's
    /// work around each statement (its cursors on the table and five indexes opened and
    /// closed, each a `malloc` and a `free`; the statement's start and end) is made once for
    /// them (docs/performance.md, "The all-types import: the saving thread, third round").
    static let rowsPerInsert = HealthSQLiteStatement.rowsPerInsert

    /// Remembers that no live sample has `uuid` (see `absentUUIDs`).
    mutating func noteAbsent(_ uuid: UUID) {
      if absentUUIDs.count >= Self.absentLimit { absentUUIDs.removeAll(keepingCapacity: true) }
      absentUUIDs.insert(uuid)
    }

    init(statements: HealthSQLiteStatements, last: Int64) {
      self.statements = statements
      self.last = last
      recentBase = last
    }

    /// A writer of the transaction open on `db`: the last position, and the origins as the
    /// table holds them (read again: another connection may have added some since this one
    /// last read them).
    init(statements: HealthSQLiteStatements, _ db: Database) throws {
      self.init(statements: statements, last: try lastPosition(db, statements))
      guard statements.layout.hasRowParts else { return }
      for (id, origin) in try statements.origins(db, refresh: true) {
        originIDs[origin] = id
        nextOriginID = max(nextOriginID, id + 1)
      }
    }

    /// Starts `recent` over from the last position.
    mutating func forgetRecent() {
      recentBase = last
      recent = []
    }

    private mutating func remember(_ record: HealthRecord, columns: HealthSQLiteColumns) {
      guard recent != nil else { return }
      if recent!.count >= Self.recentLimit {
        recent = nil
      } else {
        recent!.append((columns, record))
      }
    }

    /// The changes of `type` after `anchor` from `recent`, when it holds all of them.
    func recentChanges(of type: SampleType, after anchor: Int64, limit: Int) -> [HealthRecord]? {
      guard let recent, anchor >= recentBase else { return nil }
      var found: [HealthRecord] = []
      for (columns, record) in recent where columns.type == type && columns.position > anchor {
        if limit > 0, found.count == limit { break }
        found.append(record)
      }
      return found
    }

    mutating func take(_ position: Int64, change index: Int) throws {
      guard position > last else {
        throw HealthStorageError.positionNotAfter(change: index, position: position, last: last)
      }
      last = position
    }

    mutating func save(
      _ sample: HealthSample, at position: Int64, change index: Int,
      prepared: HealthSQLitePreparedRow? = nil, _ db: Database
    )
      throws
    {
      guard let uuid = sample.uuid else { throw HealthStorageError.missingUUID(change: index) }
      if try hasLiveSample(uuid, db) {
        throw HealthStorageError.duplicateUUID(change: index, uuid: uuid)
      }
      try take(position, change: index)
      try insert(sample, at: position, prepared: prepared, db)
    }

    /// Whether a live sample written so far has `uuid`: known absent (`absentUUIDs`), or
    /// said absent by the command's own UUIDs (`ownUUIDs`), or looked for among the rows
    /// waiting to be inserted (a live sample's row is there or in the table: a deletion
    /// removes it from the table at once), then looked up in the table.
    mutating func hasLiveSample(_ uuid: UUID, _ db: Database) throws -> Bool {
      // (An empty set is not asked: its `remove` hashes the UUID all the same.)
      guard absentUUIDs.isEmpty || absentUUIDs.remove(uuid) == nil,
        ownUUIDs?.mayContain(uuid) ?? true
      else { return false }
      return try waitingRows.contains(where: { !$0.parts.isDeletion && $0.parts.uuid == uuid })
        || lookUp(uuid, db) != nil
    }

    mutating func delete(
      _ uuid: UUID, at position: Int64, date: Date, change index: Int, _ db: Database
    ) throws {
      try insertWaitingRows(db)
      guard let live = try lookUp(uuid, db) else {
        throw HealthStorageError.noLiveSample(change: index, uuid: uuid)
      }
      try take(position, change: index)
      try remove(live.position, type: live.sample.type, isDeletion: false, db)
      let record = DeletedObjectRecord(deleting: live.sample, at: date)
      try insert(.deletion(record, position: position), db)
    }

    /// The live sample with `uuid` in the table, through the UUID index (made first if this
    /// command dropped it).
    private func lookUp(_ uuid: UUID, _ db: Database) throws -> StoredSample? {
      try uuidIndex?.makeIfMissing(db)
      return try liveSample(uuid, db, statements)
    }

    /// Inserts `record`, after checking that its row reads back (once per row shape).
    mutating func insert(_ record: HealthRecord, _ db: Database) throws {
      if case .sample(let sample, let position) = record {
        return try insert(sample, at: position, db)
      }
      try insertRow(HealthSQLiteRowParts(record), shape: HealthRowShape(record), db)
    }

    /// Inserts the live sample `sample` at `position`, as `insert(_:_:)` inserts its record,
    /// without making one: each part of the row (its parts, shape and the record kept for
    /// the anchored read) is read from the sample as given, where a record around it cost
    /// a copy of the sample for each (docs/performance.md, "The all-types import: the saving
    /// thread").
    ///
    /// With `prepared` that fits the sample, the row's content comes from it (made on the
    /// import's reading thread): the parts, the shape's content, the checksum's fixed part
    /// and the duration; the row is the same.
    mutating func insert(
      _ sample: HealthSample, at position: Int64, prepared: HealthSQLitePreparedRow? = nil,
      _ db: Database
    ) throws {
      // Noted before the row goes in: a row that then fails only leaves a UUID looked up.
      if let uuid = sample.uuid, let ownUUIDs {
        let wasExact = ownUUIDs.isExact
        ownUUIDs.insert(uuid)
        // Past the exact set, the index is dropped (see `uuidIndex`); a UUID question the
        // filter cannot answer makes it again.
        if wasExact, !ownUUIDs.isExact, let uuidIndex {
          try uuidIndex.drop(db, withTypeIndex: statements.layout == .format2)
        }
      }
      if let prepared, prepared.fits(sample) {
        let parts = prepared.parts(of: sample, position: position)
        let shape = HealthRowShape(parts, prepared: prepared)
        try insertRow(
          parts, shape: shape, db, readsBack: shape == nil && prepared.readsBack(parts),
          loaded: { HealthRecordCodec.loaded(sample, position: position) })
        tally.noteDuration(prepared.duration, of: prepared.type)
        return
      }
      try insertRow(
        HealthSQLiteRowParts(sample, position: position),
        shape: HealthRowShape(sample, position: position), db,
        loaded: { HealthRecordCodec.loaded(sample, position: position) })
      // The duration of the row as it reads back, which `weigh check` and every later read
      // see: dates go through seconds since 1970, and a fraction of a second can move by a
      // rounding step on the way (a day's 1,000 samples 86.4 s apart did).
      // The row holds seconds since 1970 written so that they read back exactly; the dates
      // read back are made from them.
      let start = Date(timeIntervalSince1970: sample.startDate.timeIntervalSince1970)
      let end = Date(timeIntervalSince1970: sample.endDate.timeIntervalSince1970)
      let duration = end.timeIntervalSince(start)
      tally.noteDuration(duration, of: sample.type)
    }

    /// Inserts the row of `parts`, of `shape`; reads it back first (once per shape,
    /// `checkReadBack`), so that a row a query would refuse is never written. Its origin
    /// is inserted first when it is new. `loaded`, when given, makes the record a query
    /// reads from a row of a shape already read back (`HealthRecordCodec.loaded`).
    ///
    /// `loaded` is not escaping (an optional closure is): one that captured the sample was
    /// allocated, with a copy of the sample, for every row saved. `readsBack`: a row of no
    /// shape is known to read back (`HealthSQLitePreparedRow.readsBack(_:)`), so it is read
    /// back only when `recent` keeps what it reads.
    private mutating func insertRow(
      _ parts: __owned HealthSQLiteRowParts, shape: HealthRowShape?, _ db: Database,
      readsBack: Bool = false, loaded madeAsLoaded: () -> HealthRecord? = { nil }
    ) throws {
      guard statements.layout.hasRowParts else {
        throw HealthStorageError("health.sqlite is format 1, which this weigh only reads")
      }
      // Format 3: the type's index pair, made before its first row (a rollback of this
      // write undoes both).
      if statements.layout == .format3 {
        try statements.makePairIfMissing(HealthSQLiteTypeCode.code(parts.type), db)
      }
      guard parts.numbersAreFinite else {
        throw HealthStorageError(
          "the record at position \(parts.position) holds a number that is not finite")
      }
      // Read back once per row shape (`checkReadBack`); a command's writer that keeps its
      // recent records keeps them as a query reads them: a row of a shape already read
      // back is made so from its sample (`loaded`), another one read back.
      var loaded = readsBack && recent == nil ? nil : try checkReadBack(shape, parts)
      if loaded == nil, recent != nil {
        loaded = try madeAsLoaded() ?? Self.readBack(parts)
      }
      let originID = try originID(parts.origin, db)
      if let loaded {
        remember(loaded, columns: HealthSQLiteColumns(parts))
      } else {
        recent = nil
      }
      count(parts.type, isDeletion: parts.isDeletion, by: 1)
      // Inserted with the next rows, `rowsPerInsert` at a time (`insertWaitingRows`). Its
      // last use: the parts move into the array, where a copy retained each of their texts.
      waitingRows.append((parts, originID))
      if waitingRows.count >= Self.rowsPerInsert { try insertWaitingRows(db) }
    }

    /// The id of `origin` in the `origin` table, inserted there (in this transaction, before
    /// the row naming it) when it is new.
    private mutating func originID(_ origin: HealthSQLiteOrigin, _ db: Database) throws -> Int64 {
      if let lastOrigin, lastOrigin.origin == origin { return lastOrigin.id }
      let id: Int64
      if let known = originIDs[origin] {
        id = known
      } else {
        id = nextOriginID
        let json = origin.json
        var insert = HealthSQLiteBinding(try statements(.insertOrigin, db))
        insert.bind(1, integer: id)
        json.withUnsafeBytes { insert.bind(2, blob: $0) }
        // checked: a 32-bit checksum fits in Int64
        insert.bind(3, integer: Int64(HealthSQLiteFormat2.originChecksum(id: id, json: json)))
        try insert.run()
        originIDs[origin] = id
        nextOriginID = id + 1
      }
      lastOrigin = (origin, id)
      return id
    }

    /// Inserts the rows waiting (`waitingRows`), in position order: `rowsPerInsert` at a
    /// time by one statement, the rest 16 at a time, then one by one. 64 rows a statement
    /// where there were 16: 0.8 % fewer instructions on the saving thread of the 100 MB
    /// all-types import (docs/performance.md, "SQLite's cost per Health row (hsave14)").
    ///
    /// The UUIDs are bound without SQLite's copy (a `malloc` and a `free` a row), from a
    /// buffer that outlives the statement's run; the run clears them
    /// (`run(unbindingFrom:every:through:)`) before it returns or throws, so no pointer into
    /// the buffer is left bound.
    mutating func insertWaitingRows(_ db: Database) throws {
      guard !waitingRows.isEmpty else { return }
      defer { waitingRows.removeAll(keepingCapacity: true) }
      let (rows, statements) = (waitingRows, statements)
      let parameters = HealthSQLiteStatement.insertParameters(.format2)
      try withUnsafeTemporaryAllocation(of: uuid_t.self, capacity: Self.rowsPerInsert) {
        uuids in
        var next = rows.startIndex
        while next < rows.endIndex {
          let left = rows.endIndex - next
          let (kind, count): (HealthSQLiteStatement, Int) =
            left >= Self.rowsPerInsert
            ? (.insertRecords, Self.rowsPerInsert)
            : left >= HealthSQLiteStatement.rowsPerSmallerInsert
              ? (.insertSomeRecords, HealthSQLiteStatement.rowsPerSmallerInsert)
              : (.insertRecord, 1)
          // Bound directly, without GRDB's `StatementArguments` (`HealthSQLiteBinding`).
          var insert = HealthSQLiteBinding(try statements(kind, db))
          for index in 0..<count {
            let base = CInt(truncatingIfNeeded: index * parameters)
            rows[next + index].parts.bind(
              to: &insert, originID: rows[next + index].originID, from: base,
              uuidIn: uuids.baseAddress.map { $0 + index })
          }
          // Only the UUIDs, bound without a copy, are cleared (every parameter is bound
          // again at each run; clearing all cost 1,200 instructions a row one by one).
          try insert.run(
            unbindingFrom: 4, every: CInt(truncatingIfNeeded: parameters),
            through: CInt(truncatingIfNeeded: count * parameters))
          next += count
        }
      }
    }

    mutating func remove(_ position: Int64, type: SampleType, isDeletion: Bool, _ db: Database)
      throws
    {
      if position > recentBase { recent = nil }
      try insertWaitingRows(db)
      var delete = HealthSQLiteBinding(try statements(.deleteRecord, db))
      delete.bind(1, integer: position)
      try delete.run()
      count(type, isDeletion: isDeletion, by: -1)
    }

    private mutating func count(_ type: SampleType, isDeletion: Bool, by delta: Int64) {
      tally.count(type, isDeletion: isDeletion, by: delta)
    }

    /// The checked columns of every deleted-object record, in position order. Through
    /// their partial index: ordered by position, SQLite would scan the whole table.
    private mutating func deletionRecords(_ db: Database) throws -> [HealthSQLiteColumns] {
      try insertWaitingRows(db)
      return try columns(
        db, statements, .deletionColumns, bind: { _ in }, expected: { $0.isDeletion }
      ).sorted { $0.position < $1.position }
    }

    mutating func dropDeletions(_ db: Database, where doomed: (HealthSQLiteColumns) -> Bool)
      throws
    {
      for columns in try deletionRecords(db) where doomed(columns) {
        try remove(columns.position, type: columns.type, isDeletion: true, db)
      }
    }

    mutating func trim(keeping count: Int, _ db: Database) throws {
      let all = try deletionRecords(db)
      guard all.count > count else { return }
      for columns in all.prefix(all.count - max(count, 0)) {
        try remove(columns.position, type: columns.type, isDeletion: true, db)
      }
    }
  }
}
