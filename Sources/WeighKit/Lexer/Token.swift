/// One token of a command line.
public struct Token: Equatable, Sendable {
  /// What a token is.
  public enum Kind: Equatable, Sendable {
    /// A bare word: a command, keyword, name, number, quantity, date, time, or UUID.
    case word
    /// A quoted string; `text` holds its value with escapes resolved.
    case string
    /// `#12`; `text` holds the digits.
    case entryReference
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`, `±`, `+-`.
    case comparison
    /// `{`
    case openBrace
    /// `}`
    case closeBrace
    /// `;`, which ends a statement on a line that holds several.
    case separator
    /// The word being completed: never lexed, only placed by completion (see
    /// `CompletionProbe`).
    case probe
  }

  public var kind: Kind
  /// The token's text (for strings, the value).
  public var text: String
  /// UTF-8 offset of the token's first byte in its line.
  public var start: Int
  /// UTF-8 offset just past the token.
  public var end: Int

  public init(_ kind: Kind, _ text: String, start: Int, end: Int) {
    self.kind = kind
    self.text = text
    self.start = start
    self.end = end
  }

  /// Whether this is the bare word `word`, compared case-insensitively.
  public func isWord(_ word: String) -> Bool {
    if kind == .probe { CompletionProbe.current?.offer(.keyword(word)) }
    return kind == .word && text.count == word.count && text.lowercased() == word
  }
}
