/// Where a diagnostic points: a line of a source and a span of columns on it.
public struct SourceSpan: Equatable, Sendable {
  /// The name the source is shown under (`tour.wcfg`, `<stdin>`, `-e`).
  public var file: String
  /// 1-based line number.
  public var line: Int
  /// The text of the (logical) line the span is on.
  public var text: String
  /// UTF-8 offsets of the span within `text`.
  public var start: Int
  public var end: Int

  public init(file: String, line: Int, text: String, start: Int, end: Int) {
    self.file = file
    self.line = line
    self.text = text
    self.start = start
    self.end = max(end, start + 1)
  }

  /// The 1-based column of the span's start, counted in characters.
  public var column: Int { Self.characterCount(text, upTo: start) + 1 }

  /// The span's width in characters (at least 1).
  public var width: Int {
    max(1, Self.characterCount(text, upTo: min(end, text.utf8.count)) - column + 1)
  }

  private static func characterCount(_ text: String, upTo offset: Int) -> Int {
    let utf8 = text.utf8
    let clamped = min(offset, utf8.count)
    let index = utf8.index(utf8.startIndex, offsetBy: clamped)
    return text.unicodeScalars[..<index].count
  }
}

/// How serious a diagnostic is.
public enum Severity: String, Sendable {
  case error
  case warning
  /// Worth knowing, harmless now (`weigh check`'s findings about an interrupted commit).
  case note
}

/// What kind of failure a diagnostic reports, which decides the exit status.
public enum FailureKind: Sendable {
  /// A command or `expect` failed: exit 1.
  case command
  /// A script or input file cannot be read: exit 66.
  case unreadableInput
  /// The store cannot be read: exit 65.
  case unreadableStore
}

/// An error or warning as a value, with the source span it is about.
///
/// Diagnostics are produced by the lexer, the parser and the interpreter, and made from the
/// store's errors and findings and from import errors; they are turned into text in exactly
/// one place, ``DiagnosticRenderer``.
public struct Diagnostic: Error, Equatable, Sendable {
  /// A remark that follows a diagnostic, with the position it is about when it has one.
  public struct Note: Equatable, Sendable {
    public var message: String
    public var location: SourceLocation?
    /// The line of `location`'s file shown under the note, with a caret.
    public var span: SourceSpan?

    public init(_ message: String, at location: SourceLocation? = nil) {
      self.message = message
      self.location = location
    }

    /// A note about a position in a file, with the line and a caret when it can be read
    /// from `path`.
    public init(_ message: String, in location: SourceLocation, readingFrom path: String) {
      self.init(message, at: location)
      span = FileLineReader.span(at: location, readingFrom: path)
    }
  }

  public var severity: Severity
  public var message: String
  /// The source line and columns shown under the message, with a caret.
  public var span: SourceSpan?
  /// Where the problem is in a file other than the script (a store file, an imported
  /// file); when set, it is the position shown, and `span` (if any) is a line of that file.
  public var location: SourceLocation?
  /// Remarks shown after the message, in order.
  public var notes: [Note]
  public var kind: FailureKind

  public init(
    _ message: String, at span: SourceSpan? = nil, severity: Severity = .error,
    kind: FailureKind = .command, notes: [Note] = []
  ) {
    self.message = message
    self.span = span
    self.location = nil
    self.severity = severity
    self.kind = kind
    self.notes = notes
  }

  /// A diagnostic about a position in a file: shown as `file:line:column`, with the line and a
  /// caret under the column when that line can be read from `path` (the file's path on this
  /// machine, when it is shown under another name).
  public init(
    _ message: String, in location: SourceLocation, readingFrom path: String? = nil,
    severity: Severity = .error, kind: FailureKind = .command, notes: [Note] = []
  ) {
    self.init(message, severity: severity, kind: kind, notes: notes)
    self.location = location
    self.span = FileLineReader.span(at: location, readingFrom: path ?? location.file)
  }

  /// `error` as a diagnostic: itself when it is one (every command throws diagnostics); any
  /// other error by its description.
  public init(_ error: any Error) {
    self = error as? Diagnostic ?? Diagnostic(String(describing: error))
  }

  /// The same diagnostic pointing at `span` when it has no position yet.
  public func located(at span: SourceSpan) -> Diagnostic {
    var copy = self
    if copy.span == nil, copy.location == nil { copy.span = span }
    return copy
  }
}
