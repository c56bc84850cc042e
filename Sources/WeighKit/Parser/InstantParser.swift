/// Reads an instant written as in the language (`2026-01-01T08:00Z`, `2026-01-03 07:30`)
/// outside a script: for `--clock`.
public enum InstantParser {
  /// The instant `text` names, read in `clock`'s zone when it has no offset.
  public static func parse(_ text: String, clock: ZonedClock, now: Int64 = 0) throws -> Int64 {
    let tokens = try Lexer.tokenize(text)
    var cursor = ArgumentCursor(
      tokens: tokens,
      context: ParseContext(file: "--clock", line: 1, text: text, clock: clock, now: now))
    let (instant, _) = try cursor.readInstant()
    try cursor.expectEnd(after: "the instant")
    return instant
  }
}
