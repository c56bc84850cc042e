import CSQLiteOptions
import Foundation
import GRDB
import HealthSim

/// (c) SQLite through GRDB: one file `health.sqlite` in WAL mode, one `BEGIN IMMEDIATE`
/// transaction per command that writes (GRDB 7 begins every write so: the write lock is
/// taken at its start, so two commands never interleave), `synchronous` NORMAL unless
/// `HEALTH_SQLITE_SYNC=FULL`.
///
/// One table, one row per change position. The columns that queries filter and aggregate
/// on are plain columns with indexes on (type, pos), (type, start), (sync_id) and (uuid);
/// the whole record is also kept as `HealthRecordCodec`'s JSON row with its CRC-32, which is
/// checked whenever a row is decoded (SQLite itself checks no row's bytes).
final class SQLiteStorage: HealthStorage {
  let queue: DatabaseQueue

  private init(queue: DatabaseQueue) { self.queue = queue }

  static let schema = """
    CREATE TABLE IF NOT EXISTS record (
      pos INTEGER PRIMARY KEY,
      kind INTEGER NOT NULL,
      type INTEGER NOT NULL,
      uuid BLOB NOT NULL,
      start REAL NOT NULL,
      value REAL NOT NULL,
      bundle TEXT NOT NULL,
      sync_id TEXT,
      row BLOB NOT NULL,
      crc INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS record_type_pos ON record(type, pos);
    CREATE INDEX IF NOT EXISTS record_type_start ON record(type, start);
    CREATE INDEX IF NOT EXISTS record_sync ON record(sync_id);
    CREATE UNIQUE INDEX IF NOT EXISTS record_uuid ON record(uuid);
    """

  static var synchronous: String {
    ProcessInfo.processInfo.environment["HEALTH_SQLITE_SYNC"] == "FULL" ? "FULL" : "NORMAL"
  }

  static func open(_ directory: String) throws -> SQLiteStorage {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    let synchronous = synchronous
    configuration.prepareDatabase { db in
      // Not `configuration.journalMode = .wal`: GRDB then sets synchronous = NORMAL itself.
      guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
        throw StorageError("cannot use WAL")
      }
      try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
      // The WAL is checkpointed by commits (every 1,000 pages), not by each command's close.
      guard health_storage_no_checkpoint_on_close(db.sqliteConnection) == SQLITE_OK else {
        throw StorageError("cannot configure the connection")
      }
    }
    let queue = try DatabaseQueue(path: directory + "/health.sqlite", configuration: configuration)
    // Only a new database is written at open.
    if try queue.read({ db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }) == 0 {
      try queue.write { db in
        try db.execute(sql: schema)
        try db.execute(sql: "PRAGMA user_version = 1")
      }
    }
    return SQLiteStorage(queue: queue)
  }

  var lastPosition: Int64 {
    (try? queue.read { db in try Int64.fetchOne(db, sql: "SELECT max(pos) FROM record") ?? 0 }) ?? 0
  }

  private static func insert(_ record: HealthRecord, _ db: Database) throws {
    let row = encodeRow(record)
    let statement = try db.cachedStatement(
      sql: "INSERT INTO record VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    let kind: Int64
    let value: Double
    let bundle: String
    let syncIdentifier: String?
    switch record {
    case .sample(let sample, _):
      kind = 0
      value = sample.value
      bundle = sample.source?.bundleIdentifier ?? ""
      syncIdentifier = sample.syncIdentifier
    case .deletion(let deleted, _):
      kind = 1
      value = 0
      bundle = deleted.source.bundleIdentifier
      syncIdentifier = nil
    }
    try statement.execute(arguments: [
      record.position, kind, TypeCode.of(record.type), record.uuid,
      record.startDate.timeIntervalSince1970, value, bundle, syncIdentifier, Data(row),
      Int64(CRC32.of(row)),
    ])
  }

  @discardableResult
  func save(_ samples: [HealthSample]) throws -> Int64 {
    try queue.write { db in
      var position = try Int64.fetchOne(db, sql: "SELECT max(pos) FROM record") ?? 0
      for sample in samples {
        position += 1
        try Self.insert(.sample(sample, position: position), db)
      }
      return position
    }
  }

  /// A record from its stored row, checked against its CRC-32.
  private static func decode(_ row: Row) throws -> HealthRecord {
    let bytes: Data = row["row"]
    let crc: Int64 = row["crc"]
    guard Int64(CRC32.of(bytes)) == crc else {
      throw StorageError("row at position \(row["pos"] as Int64? ?? 0) is damaged (crc mismatch)")
    }
    return try decodeRow(bytes)
  }

  func delete(_ uuid: UUID, at date: Date) throws -> Bool {
    try queue.write { db in
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT pos, row, crc FROM record WHERE uuid = ? AND kind = 0", arguments: [uuid]
        ),
        let sample = try Self.decode(row).liveSample
      else { return false }
      let position: Int64 = row["pos"]
      try db.execute(sql: "DELETE FROM record WHERE pos = ?", arguments: [position])
      let next = (try Int64.fetchOne(db, sql: "SELECT max(pos) FROM record") ?? 0) + 1
      let record = DeletedObjectRecord(deleting: sample, at: date)
      try Self.insert(.deletion(record, position: max(next, position + 1)), db)
      return true
    }
  }

  func changes(of type: SampleType, after anchor: Int64) throws -> [HealthRecord] {
    try queue.read { db in
      try Row.fetchAll(
        db, sql: "SELECT pos, row, crc FROM record WHERE type = ? AND pos > ? ORDER BY pos",
        arguments: [TypeCode.of(type), anchor]
      ).map(Self.decode)
    }
  }

  func samples(of type: SampleType, from: Date, to: Date) throws -> [HealthSample] {
    try queue.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT pos, row, crc FROM record
          WHERE type = ? AND start >= ? AND start < ? AND kind = 0 ORDER BY start
          """,
        arguments: [TypeCode.of(type), from.timeIntervalSince1970, to.timeIntervalSince1970]
      ).compactMap { try Self.decode($0).liveSample }
    }
  }

  func statistics(of type: SampleType, from: Date, to: Date, bucket: TimeInterval) throws
    -> [Bucket]
  {
    try queue.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT CAST((start - ?) / ? AS INTEGER) AS bucket, total(value) AS sum, count(*) AS n
          FROM record WHERE type = ? AND start >= ? AND start < ? AND kind = 0
          GROUP BY bucket ORDER BY bucket
          """,
        arguments: [
          from.timeIntervalSince1970, bucket, TypeCode.of(type), from.timeIntervalSince1970,
          to.timeIntervalSince1970,
        ]
      ).map { Bucket(index: $0["bucket"], sum: $0["sum"], count: $0["n"]) }
    }
  }

  /// The unary `+` keeps SQLite from choosing the (type, pos) index over the sync index
  /// when the database has no statistics (no ANALYZE yet).
  func sample(syncIdentifier: String, type: SampleType, bundle: String) throws -> HealthSample? {
    try queue.read { db in
      try Row.fetchOne(
        db,
        sql: """
          SELECT pos, row, crc FROM record
          WHERE sync_id = ? AND +type = ? AND +bundle = ? AND +kind = 0
          """,
        arguments: [syncIdentifier, TypeCode.of(type), bundle]
      ).flatMap { try Self.decode($0).liveSample }
    }
  }

  /// `PRAGMA integrity_check` (or `quick_check`): SQLite's own structural check.
  func integrityCheck(quick: Bool) throws -> [String] {
    try queue.read { db in
      try String.fetchAll(db, sql: quick ? "PRAGMA quick_check" : "PRAGMA integrity_check")
    }
  }

  /// Copies the WAL into the database file and empties it.
  func checkpoint() throws {
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
  }

  func close() throws { try queue.close() }
}
