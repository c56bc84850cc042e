/// Plain-text layout helpers shared by the analysis renderers (no colour, no terminal codes).
public enum TextTable {
  /// `label: value` rows with the values aligned one space after the longest label's colon.
  public static func labelled(_ rows: [(String, String)]) -> [String] {
    let width = rows.map { $0.0.count }.max() ?? 0
    return rows.map { label, value in
      label + ":" + String(repeating: " ", count: width - label.count + 1) + value
    }
  }

  /// How the cells of a column line up.
  public enum Alignment: Sendable {
    case left
    case right
    /// Not padded: the next cell starts two spaces after the cell's own end (`list`'s
    /// source and note, which vary too much to align).
    case unpadded
  }

  /// Columns separated by two spaces; the first column is left-aligned, the rest
  /// right-aligned. Trailing spaces are trimmed.
  public static func columns(header: [String], rows: [[String]]) -> [String] {
    let count = ([header] + rows).map(\.count).max() ?? 0
    let alignments = [Alignment.left] + Array(repeating: .right, count: max(0, count - 1))
    return aligned([header] + rows, alignments).map { line in
      var line = line
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  /// `rows` in columns separated by two spaces, each column aligned as `alignments` says
  /// (unpadded past its end). A row may have fewer cells than another; a left-aligned
  /// cell that ends its row is not padded, and a cell's own spaces are kept.
  public static func aligned(_ rows: [[String]], _ alignments: [Alignment]) -> [String] {
    var widths: [Int] = []
    for row in rows {
      for (index, cell) in row.enumerated() {
        if index == widths.count { widths.append(0) }
        widths[index] = max(widths[index], cell.count)
      }
    }
    return rows.map { row in
      var cells: [String] = []
      for (index, cell) in row.enumerated() {
        let padding = String(repeating: " ", count: widths[index] - cell.count)
        let alignment = index < alignments.count ? alignments[index] : .unpadded
        switch alignment {
        case .left: cells.append(index == row.count - 1 ? cell : cell + padding)
        case .right: cells.append(padding + cell)
        case .unpadded: cells.append(cell)
        }
      }
      return cells.joined(separator: "  ")
    }
  }
}
