/// One thing `Store.check` found in a store's files.
public struct StoreFinding: Equatable, Sendable, CustomStringConvertible {
  /// How serious the finding is: `error` when the store cannot be opened or read as it is,
  /// `note` when it is harmless now (an interrupted commit that was never acknowledged).
  public var severity: Severity
  /// The file concerned, as a path.
  public var file: String
  /// The 1-based line, when known.
  public var line: Int?
  /// The 1-based column, when known.
  public var column: Int?
  /// What was found, lower case.
  public var message: String

  /// Makes a finding.
  public init(
    _ severity: Severity, file: String, line: Int? = nil, column: Int? = nil, message: String
  ) {
    self.severity = severity
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  /// A finding made from an error.
  init(_ error: StoreError) {
    self.init(
      .error, file: error.file ?? "", line: error.line, column: error.column,
      message: error.message)
  }

  /// The file and position concerned.
  public var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

  /// The finding as a diagnostic, with the line and a caret when the file can be read there.
  public var diagnostic: Diagnostic {
    Diagnostic(message, in: location, severity: severity, kind: .unreadableStore)
  }

  /// `file:line:column: severity: message`, as ``DiagnosticRenderer`` shows it without the
  /// source line.
  public var description: String { "\(location): \(severity.rawValue): \(message)" }
}
