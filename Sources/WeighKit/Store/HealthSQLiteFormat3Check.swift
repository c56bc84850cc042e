import Foundation
import GRDB
import HealthSim

extension HealthSQLiteFormat3 {
  /// What is wrong with the indexes of a format-3 `record` table (docs/store.md, "Format 3:
  /// a pair of type indexes per type present"), for `weigh check`: SQLite's
  /// `integrity_check` compares each index present with the rows, but not which indexes
  /// there are. Each must be there with the SQL weigh writes:
  ///
  /// - `record_uuid`, `record_sync` and `record_deleted`;
  /// - for each type code that a row has, its pair (`pairCreation`); without it that type's
  ///   reads answer nothing (a missing pair means "no row of this type": `HealthSQLiteStatements`);
  /// - no other index: not format 2's `record_type_start` or `record_type_pos`, not half a
  ///   pair or a pair of a code no type has.
  ///
  /// A pair of a type without rows is allowed: every row of the type was removed (a purge
  /// or trim of its deleted-object records) after the pair was made, and an empty index
  /// costs nothing but its `WHERE` at each insert; dropping it would cost a schema change
  /// in the command that removed the last row.
  static func layoutFindings(_ db: Database) throws -> [String] {
    var findings: [String] = []
    var present: [String: String] = [:]
    let indexes = try Row.fetchCursor(
      db, sql: "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'record'")
    while let row = try indexes.next() {
      let name: String? = row[0]
      let sql: String? = row[1]
      // An index SQLite makes for a constraint has no SQL; `record` has none.
      present[name ?? ""] = sql ?? ""
    }
    var expected: [String: String] = [
      "record_uuid": HealthSQLiteUUIDIndex.creation,
      "record_sync": "CREATE INDEX record_sync ON record(sync_id) WHERE sync_id IS NOT NULL",
      "record_deleted": "CREATE INDEX record_deleted ON record(deleted) WHERE kind = 1",
    ]
    var allowed = expected
    for type in SampleType.allCases {
      let code = HealthSQLiteTypeCode.code(type)
      let names = indexNames(code)
      let creation = pairCreation(code)
      allowed[names.start] = creation.start
      allowed[names.position] = creation.position
      // A pair present in full is allowed without rows; half of one is not.
      if present[names.start] != nil || present[names.position] != nil {
        expected[names.start] = creation.start
        expected[names.position] = creation.position
      }
    }
    let codes = try Int64.fetchAll(db, sql: "SELECT DISTINCT type FROM record ORDER BY type")
    for code in codes {
      // A code no type has is the row's damage, which the record's own check reports.
      guard let type = HealthSQLiteTypeCode.type(code) else { continue }
      let names = indexNames(code)
      let creation = pairCreation(code)
      expected[names.start] = creation.start
      expected[names.position] = creation.position
      if present[names.start] == nil, present[names.position] == nil {
        findings.append(
          "the records of \(type.rawValue) have no indexes \(names.start) and \(names.position) "
            + "(dropped outside weigh, or damaged): their reads find nothing")
      }
    }
    for (name, sql) in expected.sorted(by: { $0.key < $1.key }) {
      guard let found = present[name] else {
        // Both of a type's pair missing is said once, above.
        let pairMissing = codes.contains { code in
          let names = indexNames(code)
          return (name == names.start || name == names.position)
            && present[names.start] == nil && present[names.position] == nil
        }
        if !pairMissing {
          findings.append("the index \(name) is missing (dropped outside weigh, or damaged)")
        }
        continue
      }
      if found != sql { findings.append("the index \(name) is not the one weigh makes: \(found)") }
    }
    for name in present.keys.sorted() where allowed[name] == nil {
      findings.append("the index \(name) is not one of format 3's (made outside weigh?)")
    }
    return findings
  }
}
