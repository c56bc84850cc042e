/// A result as rows of named values: what JSON Lines and CSV show. Columns are the
/// documented keys, in their documented order.
struct DataTable {
  var columns: [String]
  var rows: [[DataValue]]
}

/// One value of a ``DataTable`` row, in a canonical unit named by its column.
enum DataValue {
  case text(String)
  case integer(Int)
  /// Unrounded; NaN and infinity are shown as null (JSON) or an empty cell (CSV).
  case number(Double)
  /// Seconds since 1970 UTC, shown as ISO 8601 UTC (`2026-01-01T07:00:00Z`).
  case instant(Int64)
  /// A calendar day, `2026-01-01`.
  case date(String)
  case bool(Bool)
  case null

  /// A number, or null when there is none.
  static func number(_ value: Double?) -> DataValue { value.map(DataValue.number) ?? .null }

  /// Text, or null when there is none.
  static func text(_ value: String?) -> DataValue { value.map(DataValue.text) ?? .null }
}
