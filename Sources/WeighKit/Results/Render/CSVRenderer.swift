/// Writes a ``DataTable`` as CSV (RFC 4180): a header of the column names, then one line
/// per row. A field holding a comma, a quote or a line break is quoted, quotes doubled; a
/// missing value is an empty field.
enum CSVRenderer {
  /// The header and the rows.
  static func lines(of table: DataTable) -> [String] {
    [table.columns.joined(separator: ",")]
      + table.rows.map { row in row.map(field).joined(separator: ",") }
  }

  private static func field(_ value: DataValue) -> String {
    switch value {
    case .text(let text): return quotedIfNeeded(text)
    case .date(let text): return text
    case .integer(let integer): return String(integer)
    case .number(let number): return number.isFinite ? number.description : ""
    case .instant(let instant): return WeighFileInstant.format(instant)
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return ""
    }
  }

  private static func quotedIfNeeded(_ text: String) -> String {
    // A set, not a chain of `==`: GRDB's SQL operators make such a chain too slow to type-check.
    let quoted: Set<UInt8> = [0x2C, 0x22, 0x0A, 0x0D]
    let special = text.utf8.contains(where: quoted.contains)
    guard special else { return text }
    var out = "\""
    for character in text {
      if character == "\"" { out += "\"\"" } else { out.append(character) }
    }
    return out + "\""
  }
}
