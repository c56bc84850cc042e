/// Plain-text layout helpers shared by the analysis renderers (no colour, no terminal codes).
public enum TextTable {
  /// `label: value` rows with the values aligned one space after the longest label's colon.
  public static func labelled(_ rows: [(String, String)]) -> [String] {
    let width = rows.map { $0.0.count }.max() ?? 0
    return rows.map { label, value in
      label + ":" + String(repeating: " ", count: width - label.count + 1) + value
    }
  }

  /// Columns separated by two spaces; the first column is left-aligned, the rest
  /// right-aligned. Trailing spaces are trimmed.
  public static func columns(header: [String], rows: [[String]]) -> [String] {
    let all = [header] + rows
    let count = all.map(\.count).max() ?? 0
    var widths = Array(repeating: 0, count: count)
    for row in all {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    return all.map { row in
      var cells: [String] = []
      for (index, cell) in row.enumerated() {
        let padding = String(repeating: " ", count: widths[index] - cell.count)
        cells.append(index == 0 ? cell + padding : padding + cell)
      }
      var line = cells.joined(separator: "  ")
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}
