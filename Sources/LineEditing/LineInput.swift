/// What one call to `LineEditor.read(prompt:)` produced.
public enum LineInput: Equatable, Sendable {
  /// A line the user accepted with Return, without its line ending.
  case line(String)
  /// Ctrl-C: the line being edited was dropped; the caller decides what to cancel and prompts again.
  case interrupted
  /// Ctrl-D on an empty line, or the end of piped input.
  case end
}
