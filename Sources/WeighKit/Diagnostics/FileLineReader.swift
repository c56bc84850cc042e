import Foundation

/// Reads the line a ``SourceLocation`` points at, for the caret under it.
enum FileLineReader {
  /// The widest part of a line shown, in Unicode scalars; a longer line (a journal record of
  /// a large import) is shown as a window around the column, cut ends marked `…`.
  static let widest = 120

  /// The span of `location`'s column on its line, read from the file at `path`; nil when
  /// the location has no line and column, or the file or line cannot be read.
  static func span(at location: SourceLocation, readingFrom path: String) -> SourceSpan? {
    guard let line = location.line, let column = location.column, line >= 1, column >= 1,
      let data = FileManager.default.contents(atPath: path),
      let text = self.line(line, of: data)
    else { return nil }
    let scalars = Array(text.unicodeScalars)
    guard column <= scalars.count + 1 else { return nil }
    var first = 0
    var last = scalars.count
    if scalars.count > widest {
      first = max(0, min(column - 1 - widest / 2, scalars.count - widest))
      last = min(scalars.count, first + widest)
    }
    var shown = String.UnicodeScalarView()
    if first > 0 { shown.append("…") }
    shown.append(contentsOf: scalars[first..<(column - 1)])
    let start = String(shown).utf8.count
    shown.append(contentsOf: scalars[(column - 1)..<last])
    if last < scalars.count { shown.append("…") }
    return SourceSpan(
      file: location.file, line: line, text: String(shown), start: start, end: start + 1)
  }

  /// The text of the 1-based `number`th line of `data` (without its line break).
  private static func line(_ number: Int, of data: Data) -> String? {
    var current = 1
    var start = data.startIndex
    while current < number {
      guard let newline = data[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
      start = data.index(after: newline)
      current += 1
    }
    var end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
    if end > start, data[data.index(before: end)] == UInt8(ascii: "\r") {
      end = data.index(before: end)
    }
    return String(decoding: data[start..<end], as: UTF8.self)
  }
}
