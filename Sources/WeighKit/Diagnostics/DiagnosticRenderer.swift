/// Turns diagnostics into text: the one place that knows their layout.
///
/// In a script: `FILE:LINE:COL: error: MESSAGE`, then the source line and a caret under
/// the offending token. In the REPL, where the line is still on screen, only the caret
/// (shifted by the prompt) and the message.
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
    let label = paint(diagnostic.severity.rawValue + ":", diagnostic.severity)
    let message = TerminalText.escaped(diagnostic.message)
    guard let span = diagnostic.span else {
      return "\(label) \(message)\n"
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
    if let promptWidth = interactivePromptWidth {
      return String(repeating: " ", count: promptWidth) + caret + "\n"
        + "\(label) \(message)\n"
    }
    return "\(TerminalText.escaped(span.file)):\(span.line):\(span.column): \(label) \(message)\n"
      + text + "\n" + caret + "\n"
  }

  private func paint(_ text: String, _ severity: Severity) -> String {
    guard color else { return text }
    let code = severity == .error ? "31" : "33"
    return "\u{1B}[1;\(code)m\(text)\u{1B}[0m"
  }
}
