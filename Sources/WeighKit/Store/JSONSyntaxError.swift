/// A JSON text that could not be read, with the 1-based line and column of the problem.
public struct JSONSyntaxError: Error, Equatable, Sendable {
  /// The 1-based line of the offending byte.
  public var line: Int
  /// The 1-based column (in Unicode scalars) of the offending byte.
  public var column: Int
  /// What was wrong, lower case (`expected ',' or '}' after a member`).
  public var message: String
  /// The format version a store file declares at this position when it is newer than this
  /// weigh reads (``JSONReader/readFormatVersion(supported:)``); reading stopped there.
  public var newerVersion: Int?

  /// Makes an error at a known position.
  public init(line: Int, column: Int, message: String) {
    self.line = line
    self.column = column
    self.message = message
  }

  /// The position in `file`, the text that was read; ``DiagnosticRenderer`` writes it.
  public func location(in file: String) -> SourceLocation {
    SourceLocation(file: file, line: line, column: column)
  }
}
