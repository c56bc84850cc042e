/// One thing `Store.check` found in a store's files.
public struct StoreFinding: Equatable, Sendable, CustomStringConvertible {
  /// How serious the finding is: `error` when the store cannot be opened or read as it is,
  /// `note` when it is harmless now (an interrupted commit that was never acknowledged).
  public var severity: Severity
  /// The file concerned and the position in it when known; written out by
  /// ``DiagnosticRenderer`` only.
  public var location: SourceLocation
  /// What was found, lower case.
  public var message: String

  /// Makes a finding.
  public init(
    _ severity: Severity, file: String, line: Int? = nil, column: Int? = nil, message: String
  ) {
    self.severity = severity
    self.location = SourceLocation(file: file, line: line, column: column)
    self.message = message
  }

  /// A finding made from an error.
  init(_ error: StoreError) {
    self.severity = .error
    self.location = error.location ?? SourceLocation(file: "")
    self.message = error.message
  }

  /// The file concerned, as a path.
  public var file: String { location.file }

  /// The finding as a diagnostic, with the line and a caret when the file can be read there.
  public var diagnostic: Diagnostic {
    Diagnostic(message, in: location, severity: severity, kind: .unreadableStore)
  }

  /// The finding as ``DiagnosticRenderer`` shows it, without the file's line:
  /// `file:line:column: severity: message`.
  public var description: String {
    var shown = Diagnostic(message, severity: severity, kind: .unreadableStore)
    shown.location = location
    return String(DiagnosticRenderer().render(shown).dropLast())
  }
}
