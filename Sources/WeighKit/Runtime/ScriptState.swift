/// The script runner's state in a session: where relative paths and `include` resolve, how
/// much a `repeat` block may still do, and the REPL's current line.
struct ScriptState {
  /// The scripts being run, innermost last (for `include`).
  var sources: [(display: String, directory: String)] = []
  /// While a `repeat` block runs: the steps it may still take (``RepeatWork``).
  var repeatWork: RepeatWork?
  /// In the REPL, the number of the line just typed: its errors show only a caret.
  var interactiveLine: Int?
}
