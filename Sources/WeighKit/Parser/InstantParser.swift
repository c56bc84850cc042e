/// Reads an instant written as in the language (`2026-01-01T08:00Z`, `2026-01-03 07:30`,
/// `today 07:30`, `-3d`) outside a script: for `--clock`.
public enum InstantParser {
  /// The instant `text` names, read in `clock`'s zone when it has no offset; `now`, `today`,
  /// a bare time and a signed duration are read against `now`.
  public static func parse(
    _ text: String, clock: ZonedClock, now: Int64, shownAs name: String = "--clock"
  ) throws(Diagnostic) -> Int64 {
    let tokens: [Token]
    do throws(LexError) { tokens = try Lexer.tokenize(text) } catch {
      throw Diagnostic(
        error.message,
        at: SourceSpan(file: name, line: 1, text: text, start: error.start, end: error.end))
    }
    var cursor = ArgumentCursor(
      tokens: tokens,
      context: ParseContext(file: name, line: 1, text: text, clock: clock, now: now))
    let (instant, _) = try cursor.readInstant()
    try cursor.expectEnd(after: "the instant")
    return instant
  }
}
