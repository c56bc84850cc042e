/// One thing `Store.check` found in a store's files.
public struct StoreFinding: Equatable, Sendable, CustomStringConvertible {
  /// How serious a finding is.
  public enum Severity: String, Equatable, Sendable {
    /// The store cannot be opened or read as it is.
    case error
    /// Harmless now, worth knowing (an interrupted commit that was never acknowledged).
    case note
  }

  /// How serious the finding is.
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

  /// `file:line:column: severity: message`.
  public var description: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    return text + ": \(severity.rawValue): \(message)"
  }
}
