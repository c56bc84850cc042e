/// Why a whole file could not be imported (not well-formed, truncated, unreadable, unknown
/// format); when this is thrown the caller imports nothing.
public struct ImportError: Error, Hashable, Sendable {
  /// The 1-based line of the problem, when the file has one.
  public var line: Int?
  /// The 1-based column, in bytes, when known.
  public var column: Int?
  /// Lower case, specific, naming the fix.
  public var message: String

  /// An import error at an optional position.
  public init(line: Int? = nil, column: Int? = nil, _ message: String) {
    self.line = line
    self.column = column
    self.message = message
  }

  /// The position in `file`, the file imported, when the error has a line;
  /// ``DiagnosticRenderer`` writes it.
  public func location(in file: String) -> SourceLocation? {
    line.map { SourceLocation(file: file, line: $0, column: column) }
  }
}
