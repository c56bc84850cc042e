/// A position in a file: its name, and the 1-based line and column when known.
///
/// The one way a position is written (`journal.jsonl:2:30`); store, import and JSON errors
/// carry one and leave the writing of it to ``DiagnosticRenderer``.
public struct SourceLocation: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The file as it is shown (a path, or the name the user gave).
  public var file: String
  /// The 1-based line, when known.
  public var line: Int?
  /// The 1-based column in Unicode scalars, when known (only with a line).
  public var column: Int?

  public init(file: String, line: Int? = nil, column: Int? = nil) {
    self.file = file
    self.line = line
    self.column = line == nil ? nil : column
  }

  /// `file:line:column`, with the parts that are known.
  public var description: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    return text
  }
}
