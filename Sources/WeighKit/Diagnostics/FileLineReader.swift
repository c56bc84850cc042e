import Foundation

/// Reads the line a ``SourceLocation`` points at, for the caret under it.
enum FileLineReader {
  /// The widest part of a line shown, in Unicode scalars; a longer line (a journal record of
  /// a large import) is shown as a window around the column, cut ends marked `…`.
  static let widest = 120

  /// The span of `location`'s column on its line, read from the file at `path` (the whole
  /// line when the column is not known: a rejected row); nil when the location has no line,
  /// or the file or line cannot be read.
  static func span(at location: SourceLocation, readingFrom path: String) -> SourceSpan? {
    guard let line = location.line, line >= 1, let text = self.line(line, ofFileAt: path)
    else { return nil }
    guard let column = location.column else { return wholeLine(text, of: location) }
    guard column >= 1 else { return nil }
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

  /// `text` as the span of a location without a column: underlined from its first
  /// character after the indentation to its last, or to the `widest`th with the cut marked
  /// `…`.
  private static func wholeLine(_ text: String, of location: SourceLocation) -> SourceSpan? {
    let scalars = Array(text.unicodeScalars)
    let indent = scalars.prefix { $0 == " " || $0 == "\t" }.count
    guard let line = location.line, indent < scalars.count else { return nil }
    var shown = String.UnicodeScalarView(scalars.prefix(widest))
    let start = String(String.UnicodeScalarView(scalars.prefix(indent))).utf8.count
    let end = String(shown).utf8.count
    if scalars.count > widest { shown.append("…") }
    return SourceSpan(
      file: location.file, line: line, text: String(shown), start: min(start, end), end: end)
  }

  /// The longest line read, in bytes; a longer one is not shown.
  static let longestLine = 1 << 20

  /// The text of the 1-based `number`th line of the file at `path` (without its line
  /// break), read in chunks up to that line only: an imported file may be gigabytes.
  private static func line(_ number: Int, ofFileAt path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    var current = 1
    var bytes: [UInt8] = []
    while true {
      let chunk: Data?
      do { chunk = try handle.read(upToCount: 1 << 16) } catch { return nil }
      guard let chunk, !chunk.isEmpty else { break }
      for byte in chunk {
        if byte == UInt8(ascii: "\n") {
          if current == number { return text(of: bytes) }
          current += 1
        } else if current == number {
          bytes.append(byte)
          if bytes.count > longestLine { return nil }
        }
      }
    }
    return current == number ? text(of: bytes) : nil
  }

  private static func text(of bytes: [UInt8]) -> String {
    let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...]
    return String(decoding: line, as: UTF8.self)
  }
}
