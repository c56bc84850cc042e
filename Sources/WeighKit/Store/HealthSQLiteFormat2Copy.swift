import Foundation
import GRDB
import HealthSim

extension HealthSQLiteFormat2 {
  /// Copies every record of the format-1 database `source` into the format-2 tables of
  /// `target` (made by `recordTables`, empty), in position order, one row at a time: the
  /// migration's copy of the records (docs/store.md, "Format 2: a leaner row"). Each record
  /// is read and checked as a query reads it (its columns, its JSON row, the one against
  /// the other), so a damaged file is refused, not carried over; each distinct origin is
  /// inserted once, at its first record (`HealthSQLiteStorage.migrateToFormat2IfNeeded`).
  ///
  /// - Returns: how many records were copied.
  /// - Throws: `HealthSQLiteDamage` for a record that does not read, SQLite's errors.
  static func copyRecords(from source: Database, to target: Database) throws -> Int {
    var originIDs: [HealthSQLiteOrigin: Int64] = [:]
    var copied = 0
    let select = "SELECT \(HealthSQLiteStatement.fullSelection) FROM record ORDER BY pos"
    try HealthSQLiteBinding(source.cachedStatement(sql: select)).rows { row in
      let (_, record) = try HealthSQLiteStorage.decode(row)
      try insert(record, originIDs: &originIDs, into: target)
      copied += 1
    }
    return copied
  }

  /// Inserts `record` into the format-2 tables of `db`, and its origin first when
  /// `originIDs` (the origins inserted so far, by id) does not hold it yet.
  static func insert(
    _ record: HealthRecord, originIDs: inout [HealthSQLiteOrigin: Int64], into db: Database
  ) throws {
    let parts = HealthSQLiteRowParts(record)
    let id: Int64
    if let known = originIDs[parts.origin] {
      id = known
    } else {
      // checked: a handful of origins, far below 2^63
      id = Int64(originIDs.count + 1)
      originIDs[parts.origin] = id
      let json = parts.origin.json
      var origin = HealthSQLiteBinding(try db.cachedStatement(sql: insertOrigin))
      origin.bind(1, integer: id)
      json.withUnsafeBytes { origin.bind(2, blob: $0) }
      // checked: a 32-bit checksum fits in Int64
      origin.bind(3, integer: Int64(originChecksum(id: id, json: json)))
      try origin.run()
    }
    var insert = HealthSQLiteBinding(try db.cachedStatement(sql: insertRecord))
    parts.bind(to: &insert, originID: id)
    try insert.run()
  }
}
