/// Why a store could not be opened, read or changed. The CLI exits 65 for `corrupt` and
/// `newerFormat`.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The kind of failure.
  public enum Kind: String, Equatable, Sendable {
    /// A file is not valid JSON or not a valid store file; it was left untouched.
    case corrupt
    /// A file was written by a newer weigh with a higher format version.
    case newerFormat
    /// Another process holds the store's lock.
    case locked
    /// The operating system refused a read, write, sync or rename.
    case io
    /// A change cannot be stored (a NaN weight, an unknown table).
    case invalidChange
  }

  /// The kind of failure.
  public var kind: Kind
  /// The file and position concerned, when there is a file; written out by
  /// ``DiagnosticRenderer`` only.
  public var location: SourceLocation?
  /// What went wrong and how to fix it, lower case.
  public var message: String

  /// Makes an error.
  public init(
    _ kind: Kind, file: String? = nil, line: Int? = nil, column: Int? = nil, message: String
  ) {
    self.kind = kind
    self.location = file.map { SourceLocation(file: $0, line: line, column: column) }
    self.message = message
  }

  /// A syntax error found at a position in `file`.
  init(_ kind: Kind = .corrupt, file: String, syntax: JSONSyntaxError) {
    self.init(kind, message: syntax.message)
    location = syntax.location(in: file)
  }

  /// The file concerned, as a path, when there is one.
  public var file: String? { location?.file }

  /// The error as ``DiagnosticRenderer`` shows it (`file:line:column: error: message`),
  /// without the file's line: for an error that reaches text other than through
  /// ``diagnostic(message:severity:)``.
  public var description: String {
    var shown = Diagnostic(message, kind: failureKind)
    shown.location = location
    return String(DiagnosticRenderer().render(shown).dropLast())
  }

  /// The exit status's kind: a store that cannot be read, or a command that failed.
  var failureKind: FailureKind {
    kind == .corrupt || kind == .newerFormat ? .unreadableStore : .command
  }

  /// The error as a diagnostic at its position in the store's file (with the line and a
  /// caret when the file can be read there), under `message` when given.
  public func diagnostic(message: String? = nil, severity: Severity = .error) -> Diagnostic {
    guard let location else {
      return Diagnostic(message ?? self.message, severity: severity, kind: failureKind)
    }
    return Diagnostic(message ?? self.message, in: location, severity: severity, kind: failureKind)
  }
}

extension StoreError {
  /// The error for a store file whose reading stopped at `syntax`: `newerFormat` when it
  /// stopped at a format version newer than `supported`, else `corrupt`.
  init(file: String, syntax: JSONSyntaxError, supported: Int) {
    if let found = syntax.newerVersion {
      self = .newerFormat(
        file: file, line: syntax.line, column: syntax.column, found: found, supported: supported)
    } else {
      self.init(.corrupt, file: file, syntax: syntax)
    }
  }

  /// The error for a file written by a newer weigh.
  static func newerFormat(
    file: String, line: Int?, column: Int?, found: Int, supported: Int
  ) -> StoreError {
    StoreError(
      .newerFormat, file: file, line: line, column: column,
      message:
        "written by a newer weigh: format version \(found), this weigh reads \(supported); "
        + "use a newer weigh with this store")
  }
}
