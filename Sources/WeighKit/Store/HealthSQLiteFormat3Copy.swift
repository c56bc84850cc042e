import Foundation
import GRDB
import HealthSim

extension HealthSQLiteFormat3 {
  /// Copies the origins and every record of the format-2 database `source` into the
  /// format-3 tables of `target` (made by `recordTables`, empty), in position order, one row
  /// at a time: the migration's copy (docs/store.md, "Format 3: a pair of type indexes per
  /// type present"). The two formats' rows are the same, so each is copied as it is (its
  /// origin's id, its checksum): first read and checked as a query reads it (its columns
  /// against their checksum, its origin present, its numbers and `extra` by their rules),
  /// so a damaged file is refused, not carried over.
  ///
  /// - Returns: how many records were copied.
  /// - Throws: `HealthSQLiteDamage` for an origin or a record that does not read, SQLite's
  ///   errors.
  static func copyRecords(from source: Database, to target: Database) throws -> Int {
    let origins = try HealthSQLiteFormat2.origins(source)
    let readOrigins = "SELECT id, json, crc FROM origin ORDER BY id"
    try HealthSQLiteBinding(source.cachedStatement(sql: readOrigins)).rows { row in
      var insert = HealthSQLiteBinding(
        try target.cachedStatement(sql: HealthSQLiteFormat2.insertOrigin))
      for index in 0..<3 {
        // The checked row's values (read above by `origins`): an integer, a blob, an integer.
        switch row.value(at: index).storage {
        case .int64(let number): insert.bind(CInt(index + 1), integer: number)
        case .blob(let data): data.withUnsafeBytes { insert.bind(CInt(index + 1), blob: $0) }
        default: throw HealthSQLiteDamage(position: nil, "an origin row changed while copied")
        }
      }
      try insert.run()
    }
    var copied = 0
    let select = "SELECT \(HealthSQLiteFormat2.selection) FROM record ORDER BY pos"
    try HealthSQLiteBinding(source.cachedStatement(sql: select)).rows { row in
      let parts = try HealthSQLiteRowParts.read(row, origins: origins)
      _ = try parts.record()
      guard case .int64(let originID) = row.value(at: 7).storage else {
        throw HealthSQLiteDamage(position: parts.position, "origin is not a whole number")
      }
      var insert = HealthSQLiteBinding(
        try target.cachedStatement(sql: HealthSQLiteFormat2.insertRecord))
      parts.bind(to: &insert, originID: originID)
      try insert.run()
      copied += 1
    }
    return copied
  }
}
