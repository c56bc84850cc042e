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
  public func render(_ diagnostic: Diagnostic) -> String {
    let label = paint(diagnostic.severity.rawValue + ":", diagnostic.severity)
    guard let span = diagnostic.span else {
      return "\(label) \(diagnostic.message)\n"
    }
    let caret =
      String(repeating: " ", count: span.column - 1)
      + String(repeating: "^", count: span.width)
    if let promptWidth = interactivePromptWidth {
      return String(repeating: " ", count: promptWidth) + caret + "\n"
        + "\(label) \(diagnostic.message)\n"
    }
    return "\(span.file):\(span.line):\(span.column): \(label) \(diagnostic.message)\n"
      + span.text + "\n" + caret + "\n"
  }

  private func paint(_ text: String, _ severity: Severity) -> String {
    guard color else { return text }
    let code = severity == .error ? "31" : "33"
    return "\u{1B}[1;\(code)m\(text)\u{1B}[0m"
  }
}
