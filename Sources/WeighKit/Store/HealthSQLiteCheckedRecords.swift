import Foundation
import GRDB
import HealthSim

/// Every record of a `health.sqlite` of either format, read as a query of that format reads
/// it: what `check` and `repair` go through (docs/store.md, "Checking and repairing
/// health.sqlite").
extension HealthSQLiteStorage {
  /// A record that read, with the columns `check` counts and compares.
  struct CheckedRecord {
    var position: Int64
    var type: SampleType
    var isDeletion: Bool
    var uuid: UUID
    var record: HealthRecord
    /// The id of its origin when that is on a page SQLite cannot read: the record is read
    /// with `HealthSQLiteOrigin.unknown` (the repair).
    var unknownOrigin: Int64?
  }

  /// The layout version of the weigh Health database `db` (1 or 2), its identity and
  /// `format` row checked.
  ///
  /// - Throws: `HealthSQLiteDamage` for another program's file or a version that disagrees
  ///   with its format row, `NewerHealthFormat` for a newer one.
  static func layoutVersion(_ db: Database) throws -> Int64 {
    let application = try Int64.fetchOne(db, sql: "PRAGMA application_id") ?? 0
    let version = try Int64.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    guard application == applicationID else {
      throw HealthSQLiteDamage(
        position: nil,
        "not a weigh Health database (its application id is \(application)); move it away")
    }
    guard version <= formatVersion else { throw NewerHealthFormat(found: version) }
    guard version >= 1, try meta("format", db) == version else {
      throw HealthSQLiteDamage(
        position: nil, "the format version (\(version)) disagrees with the format row")
    }
    return version
  }

  /// The origins of a format-2 database that read and match their checksums, by id; each
  /// one that does not is given to `damaged` (an origin no record names is harmless: it is
  /// neither read nor reported by anything else).
  ///
  /// With `unreadable`, a span of ids on pages SQLite cannot read is given to it, and the
  /// reading goes on past it (the repair).
  static func checkedOrigins(
    _ db: Database, unreadable: ((HealthSQLiteUnreadableSpan) -> Void)? = nil,
    damaged: (String) -> Void
  ) throws -> [Int64: HealthSQLiteOrigin] {
    var origins: [Int64: HealthSQLiteOrigin] = [:]
    func add(_ row: Row) {
      guard case .int64(let id) = (row[0] as DatabaseValue).storage else {
        damaged("an origin's id is not a whole number")
        return
      }
      guard case .blob(let data) = (row[1] as DatabaseValue).storage,
        case .int64(let crc) = (row[2] as DatabaseValue).storage,
        // checked: a 32-bit checksum fits in Int64
        crc == Int64(HealthSQLiteFormat2.originChecksum(id: id, json: Array(data)))
      else {
        damaged("origin \(id): it does not match its checksum (changed outside weigh, or damaged)")
        return
      }
      do throws(JSONSyntaxError) {
        origins[id] = try HealthSQLiteOrigin.read(Array(data))
      } catch {
        damaged("origin \(id): \(error.message)")
      }
    }
    if let unreadable {
      try HealthSQLiteReadableRows.each(
        db, table: "origin", key: "id", selection: "id, json, crc", unreadable: unreadable, add)
      return origins
    }
    let rows = try Row.fetchCursor(db, sql: HealthSQLiteFormat2.readOrigins)
    while let row = try rows.next() { add(row) }
    return origins
  }

  /// Reads every record of `db` (of layout `version`, with `origins` for format 2) in
  /// position order, each checked as a query reads it, and hands `body` the record or what
  /// is wrong with it. SQLite's errors (a damaged b-tree) are thrown; with `unreadable`, a
  /// span of positions on pages SQLite cannot read is given to it instead, and the reading
  /// goes on past it (`HealthSQLiteReadableRows`: the repair). A record whose origin is
  /// missing but lies in one of `unreadableOrigins` (the origin table's spans that SQLite
  /// cannot read) is read with an unknown origin, its own checksum checked
  /// (`CheckedRecord.unknownOrigin`), not lost.
  static func eachRecord(
    _ db: Database, version: Int64, origins: [Int64: HealthSQLiteOrigin],
    unreadable: ((HealthSQLiteUnreadableSpan) -> Void)? = nil,
    unreadableOrigins: [HealthSQLiteUnreadableSpan] = [],
    _ body: (Result<CheckedRecord, HealthSQLiteDamage>) throws -> Void
  ) throws {
    let formatTwo = version >= HealthSQLiteFormat2.version
    let selection =
      formatTwo ? HealthSQLiteFormat2.selection : "\(HealthSQLiteColumns.selection), row"
    let isUnknown: ((Int64) -> Bool)? =
      unreadableOrigins.isEmpty ? nil : { id in unreadableOrigins.contains { $0.contains(id) } }
    func read(_ row: Row) throws -> Result<CheckedRecord, HealthSQLiteDamage> {
      formatTwo ? readFormat2(row, origins: origins, isUnknown: isUnknown) : try readFormat1(row)
    }
    if let unreadable {
      try HealthSQLiteReadableRows.each(
        db, table: "record", key: "pos", selection: selection, unreadable: unreadable
      ) { row in try body(read(row)) }
      return
    }
    let rows = try Row.fetchCursor(db, sql: "SELECT \(selection) FROM record ORDER BY pos")
    while let row = try rows.next() {
      try body(read(row))
    }
  }

  /// A format-1 row (selected as `HealthSQLiteColumns.selection` and `row`) read and checked.
  private static func readFormat1(_ row: Row) throws -> Result<CheckedRecord, HealthSQLiteDamage> {
    do {
      let (columns, record) = try decode(row)
      return .success(
        CheckedRecord(
          position: columns.position, type: columns.type, isDeletion: columns.isDeletion,
          uuid: columns.uuid, record: record))
    } catch let damage as HealthSQLiteDamage {
      return .failure(damage)
    }
  }

  /// A format-2 row (selected as `HealthSQLiteFormat2.selection`) read and checked.
  private static func readFormat2(
    _ row: Row, origins: [Int64: HealthSQLiteOrigin], isUnknown: ((Int64) -> Bool)?
  ) -> Result<CheckedRecord, HealthSQLiteDamage> {
    do throws(HealthSQLiteDamage) {
      let parts = try HealthSQLiteRowParts.read(row, origins: origins, isUnknown: isUnknown)
      var unknownOrigin: Int64?
      if isUnknown != nil, case .int64(let id) = (row[7] as DatabaseValue).storage,
        origins[id] == nil
      {
        unknownOrigin = id
      }
      return .success(
        CheckedRecord(
          position: parts.position, type: parts.type, isDeletion: parts.isDeletion,
          uuid: parts.uuid, record: try parts.record(), unknownOrigin: unknownOrigin))
    } catch {
      return .failure(error)
    }
  }
}
