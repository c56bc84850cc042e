/// Turns diagnostics into text: the one place that knows their layout.
///
/// In a script: `FILE:LINE:COL: error: MESSAGE`, then the source line and a caret under
/// the offending token; a store or imported file's position is shown the same way (with its
/// line and a caret when the line could be read). Notes follow, one line each. In the REPL,
/// where the typed line is still on screen, only the caret (shifted by the prompt) and the
/// message.
public struct DiagnosticRenderer: Sendable {
  /// Whether to colour the severity (ANSI); decided once by the front end.
  public var color: Bool
  /// In the REPL: the width of the prompt, so that the caret lines up with the typed line.
  public var interactivePromptWidth: Int?

  public init(color: Bool = false, interactivePromptWidth: Int? = nil) {
    self.color = color
    self.interactivePromptWidth = interactivePromptWidth
  }

  /// The full text of `diagnostic`, ending in a newline.
  ///
  /// What it quotes (the message, the file name, the source line) is shown through
  /// ``TerminalText/escaped(_:)``; the caret is placed under the escaped text.
  public func render(_ diagnostic: Diagnostic) -> String {
    render(main: diagnostic) + diagnostic.notes.map(render).joined()
  }

  /// `file:line:column: note: message` (then the line and a caret when known), or
  /// `note: message` without a position.
  private func render(_ note: Diagnostic.Note) -> String {
    var shown = Diagnostic(note.message, at: note.span, severity: .note)
    shown.location = note.location
    return render(main: shown)
  }

  private func render(main diagnostic: Diagnostic) -> String {
    let label = paint(diagnostic.severity.rawValue + ":", diagnostic.severity)
    let message = TerminalText.escaped(diagnostic.message)
    let position = diagnostic.location.map { TerminalText.escaped($0.description) + ": " }
    guard let span = diagnostic.span else {
      return "\(position ?? "")\(label) \(message)\n"
    }
    let caret: String
    let text: String
    if TerminalText.needsEscaping(span.text) {
      // Columns of the escaped line: the caret must stand under what is shown.
      let utf8 = Array(span.text.utf8)
      let start = min(span.start, utf8.count)
      let end = min(max(span.end, start), utf8.count)
      let before = TerminalText.escaped(String(decoding: utf8[..<start], as: UTF8.self))
      let inside = TerminalText.escaped(String(decoding: utf8[start..<end], as: UTF8.self))
      text = TerminalText.escaped(span.text)
      caret =
        String(repeating: " ", count: before.unicodeScalars.count)
        + String(repeating: "^", count: max(1, inside.unicodeScalars.count))
    } else {
      text = span.text
      caret =
        String(repeating: " ", count: span.column - 1)
        + String(repeating: "^", count: span.width)
    }
    // A position in another file is shown in full, even in the REPL.
    if let promptWidth = interactivePromptWidth, position == nil {
      return String(repeating: " ", count: promptWidth) + caret + "\n"
        + "\(label) \(message)\n"
    }
    let shown = position ?? "\(TerminalText.escaped(span.file)):\(span.line):\(span.column): "
    return "\(shown)\(label) \(message)\n" + text + "\n" + caret + "\n"
  }

  private func paint(_ text: String, _ severity: Severity) -> String {
    guard color else { return text }
    let code =
      switch severity {
      case .error: "31"
      case .warning: "33"
      case .note: "36"
      }
    return "\u{1B}[1;\(code)m\(text)\u{1B}[0m"
  }
}
