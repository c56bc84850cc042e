import Foundation
import GRDB
import HealthSim

/// `health.sqlite` format 3 (docs/store.md, "Format 3: a pair of type indexes per type
/// present"): format 2's rows and tables, with a pair of partial indexes per type present in
/// place of format 2's `record_type_start` and `record_type_pos` shared by every type.
///
/// The rows of several types arrive interleaved, so each insert into a shared (type, …)
/// index landed in the middle of it, where SQLite splits the same leaves again and again:
/// each of the two cost about as much as the table (3,913 and 3,916 instructions a row,
/// 100 MB all-types import; docs/performance.md, "Type indexes at their right edge: the
/// floor (hsave15)"). Within one type `start` and `pos` arrive in order, so a type's own
/// index takes its rows at its right edge, as the table does.
///
/// A type's pair is made by the write that queues its first row (`Writer.insertRow`), in
/// that write's transaction, before the row: a rollback or a kill undoes pair and row
/// together, so an index pair present means rows of the type may exist, and one absent that
/// none do (a read of such a type asks SQLite nothing).
enum HealthSQLiteFormat3 {
  /// The layout's version (`PRAGMA user_version` and the `format` meta row).
  static let version: Int64 = 3

  /// The record and origin tables and the indexes every file of format 3 has: format 2's
  /// without the shared type indexes.
  static let recordTables = """
    \(HealthSQLiteFormat2.recordTable)
    \(HealthSQLiteUUIDIndex.creation);
    \(HealthSQLiteFormat2.changeIndexes)
    \(HealthSQLiteFormat2.originTable)
    """

  /// The names of the type code `code`'s indexes.
  static func indexNames(_ code: Int64) -> (start: String, position: String) {
    ("record_start_\(code)", "record_pos_\(code)")
  }

  /// The two statements that make `code`'s pair, as `sqlite_schema` then holds them (the
  /// code is an integer: nothing to quote).
  static func pairCreation(_ code: Int64) -> (start: String, position: String) {
    let names = indexNames(code)
    return (
      "CREATE INDEX \(names.start) ON record(start) WHERE type = \(code)",
      "CREATE INDEX \(names.position) ON record(pos) WHERE type = \(code)"
    )
  }

  /// Makes `code`'s pair in the transaction open on `db`.
  static func makePair(_ code: Int64, _ db: Database) throws {
    let creation = pairCreation(code)
    try db.execute(sql: creation.start)
    try db.execute(sql: creation.position)
  }

  /// The type codes whose pair `db`'s schema holds, as a set of bits (bit `code`): both
  /// indexes by name. A half pair is left out (`weigh check` reports it: its type's reads
  /// would scan the table, never answer wrong), as is a code past 63 (none is).
  static func pairedCodes(_ db: Database) throws -> UInt64 {
    var starts: UInt64 = 0
    var positions: UInt64 = 0
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'record'
        AND (name LIKE 'record\\_start\\_%' ESCAPE '\\' OR name LIKE 'record\\_pos\\_%' ESCAPE '\\')
        """)
    while let row = try rows.next() {
      guard let name: String = row[0] else { continue }
      for (prefix, isStart) in [("record_start_", true), ("record_pos_", false)]
      where name.hasPrefix(prefix) {
        // checked: parses text, nil when out of range
        guard let code = Int64(name.dropFirst(prefix.count)), (1...63).contains(code) else {
          continue
        }
        if isStart { starts |= 1 << code } else { positions |= 1 << code }
      }
    }
    return starts & positions
  }
}
