/// What a command line is read against: where it came from, the session's time zone, the
/// clock (for `now`, `today` and the future check) and the display unit (for bare weights).
public struct ParseContext: Sendable {
  /// The `file` of shorthand (`weigh delete last`): its errors say `command line:1:8`.
  public static let commandLine = "command line"

  public var file: String
  public var line: Int
  public var text: String
  public var clock: ZonedClock
  public var now: Int64
  /// The display unit, in which a bare number where a weight is expected is read.
  public var unit: DisplayUnit

  public init(
    file: String, line: Int, text: String, clock: ZonedClock, now: Int64, unit: DisplayUnit = .kg
  ) {
    self.file = file
    self.line = line
    self.text = text
    self.clock = clock
    self.now = now
    self.unit = unit
  }
}

/// Walks the tokens of one command, reading typed values from them.
///
/// Each reader either consumes the tokens of one value or throws a diagnostic that names
/// what was expected, pointing at the offending token.
public struct ArgumentCursor {
  public let tokens: [Token]
  public internal(set) var index: Int
  public let context: ParseContext

  public init(tokens: [Token], context: ParseContext, index: Int = 0) {
    self.tokens = tokens
    self.context = context
    self.index = index
  }

  /// Whether every token has been read.
  public var isAtEnd: Bool { index >= tokens.count }

  /// The next token, not consumed.
  public func peek(_ offset: Int = 0) -> Token? {
    index + offset < tokens.count ? tokens[index + offset] : nil
  }

  /// The next token, consumed.
  public mutating func next() -> Token? {
    guard index < tokens.count else { return nil }
    defer { index += 1 }
    return tokens[index]
  }

  /// The tokens not yet read.
  public var rest: ArraySlice<Token> { tokens[min(index, tokens.count)...] }

  /// Consumes the next token when it is the keyword `word`.
  public mutating func take(_ word: String) -> Bool {
    guard let token = peek(), token.isWord(word) else { return false }
    index += 1
    return true
  }

  /// Consumes the next token when it is one of `words`; returns which, lower-cased.
  public mutating func take(oneOf words: [String]) -> String? {
    if let token = peek(), token.kind == .probe {
      for word in words { CompletionProbe.current?.offer(.keyword(word)) }
    }
    guard let token = peek(), token.kind == .word else { return nil }
    let lowered = token.text.lowercased()
    guard words.contains(lowered) else { return nil }
    index += 1
    return lowered
  }

  /// The span of `token` (or of the end of the line when nil).
  public func span(_ token: Token?) -> SourceSpan {
    let length = context.text.utf8.count
    let start = token?.start ?? length
    let end = token?.end ?? length + 1
    return SourceSpan(
      file: context.file, line: context.line, text: context.text, start: start, end: end)
  }

  /// The span from `first` to `last` inclusive.
  public func span(from first: Token, to last: Token) -> SourceSpan {
    SourceSpan(
      file: context.file, line: context.line, text: context.text, start: first.start,
      end: last.end)
  }

  /// A diagnostic pointing at `token` (or at the end of the line).
  public func error(_ message: String, at token: Token?) -> Diagnostic {
    Diagnostic(message, at: span(token))
  }

  /// `got "68.5"`, or `got the end of the line`.
  public func got(_ token: Token?) -> String {
    guard let token else { return "got nothing" }
    switch token.kind {
    case .string: return "got the string \"\(token.text)\""
    case .entryReference: return "got \"#\(token.text)\""
    default: return "got \"\(token.text)\""
    }
  }

  /// Fails unless every token has been read.
  public func expectEnd(after what: String) throws(Diagnostic) {
    guard let token = peek() else { return }
    throw error("unexpected \"\(token.text)\" after \(what); remove it", at: token)
  }

  /// Requires the keyword `word` next.
  public mutating func expect(_ word: String, in usage: String) throws(Diagnostic) {
    guard take(word) else {
      throw error("expected \"\(word)\" (\(usage)), \(got(peek()))", at: peek())
    }
  }

  /// Requires one of `words` next; returns it lower-cased.
  public mutating func expect(oneOf words: [String], what: String) throws(Diagnostic) -> String {
    if let word = take(oneOf: words) { return word }
    throw notOneOf(words, what: what)
  }

  /// Reads the next word as one of `Choice`'s cases (by raw value, listed in declaration
  /// order when it is none of them), or fails like ``expect(oneOf:what:)``.
  public mutating func expect<Choice: CaseIterable & RawRepresentable<String>>(
    _ choice: Choice.Type, what: String
  ) throws(Diagnostic) -> Choice {
    let words = Choice.allCases.map(\.rawValue)
    if let word = take(oneOf: words), let choice = Choice(rawValue: word) { return choice }
    throw notOneOf(words, what: what)
  }

  /// The error for a next token that is none of `words`.
  private func notOneOf(_ words: [String], what: String) -> Diagnostic {
    let token = peek()
    var message = "expected \(what): \(words.joined(separator: ", ")); \(got(token))"
    if let token, token.kind == .word,
      let guess = Suggestion.closest(to: token.text.lowercased(), among: words)
    {
      message += "; did you mean \"\(guess)\"?"
    }
    return error(message, at: token)
  }
}

/// A number split from the unit that follows it in the same word (`68.5kg`).
struct NumberPrefix {
  var value: Double
  var unit: Substring

  /// Reads an optional sign, digits and an optional fraction; nil when `text` does not
  /// start with a number.
  init?(_ text: String) {
    let utf8 = text.utf8
    var index = utf8.startIndex
    if index < utf8.endIndex, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
      index = utf8.index(after: index)
    }
    var digits = 0
    var sawPoint = false
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        digits += 1
      } else if byte == UInt8(ascii: "."), !sawPoint {
        sawPoint = true
      } else {
        break
      }
      index = utf8.index(after: index)
    }
    guard digits > 0, let value = Double(text[text.startIndex..<index]) else { return nil }
    self.value = value
    self.unit = text[index...]
  }
}
