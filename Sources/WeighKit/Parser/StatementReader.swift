/// One logical line of a script: physical lines joined at a trailing `\`.
public struct SourceLine: Equatable, Sendable {
  /// The name the script is shown under.
  public var file: String
  /// The number of the first physical line.
  public var number: Int
  public var text: String
}

/// A unit of execution: a command line, or a `repeat n {` … `}` block.
public indirect enum Statement: Sendable {
  case line(SourceLine, [Token])
  case block(header: SourceLine, tokens: [Token], body: [Statement])
  /// A line that could not be split into tokens; reported when it is reached.
  case invalid(SourceLine, LexError)
}

/// Groups incoming lines into statements.
///
/// The REPL feeds it a line at a time and asks ``needsMore`` to choose the continuation
/// prompt: the parser's own "incomplete" answer, not a second grammar.
public struct StatementReader {
  private var pending: (line: SourceLine, text: String)?
  private var open: [(header: SourceLine, tokens: [Token], body: [Statement])] = []

  public init() {}

  /// Whether a statement is unfinished (a `\` continuation or an open block).
  public var needsMore: Bool { pending != nil || !open.isEmpty }

  /// Adds one physical line; returns the statements it completes.
  public mutating func feed(_ text: String, file: String, number: Int) -> [Statement] {
    var joined: SourceLine
    if let pending {
      joined = pending.line
      // A continuation joins with one space, whatever indentation the next line has.
      joined.text = pending.text + text.drop(while: { $0 == " " || $0 == "\t" })
    } else {
      joined = SourceLine(file: file, number: number, text: text)
    }
    if Lexer.continues(Substring(joined.text)) {
      var trimmed = Substring(joined.text)
      while trimmed.last != "\\" { trimmed = trimmed.dropLast() }
      trimmed = trimmed.dropLast()
      while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
      pending = (joined, String(trimmed) + " ")
      return []
    }
    pending = nil
    let statement: Statement
    do {
      let tokens = try Lexer.tokenize(joined.text)
      if tokens.isEmpty { return [] }
      if tokens.first!.isWord("repeat"), tokens.last!.kind == .openBrace {
        open.append((joined, tokens, []))
        return []
      }
      if tokens.count == 1, tokens[0].kind == .closeBrace, let block = open.popLast() {
        statement = .block(header: block.header, tokens: block.tokens, body: block.body)
      } else {
        statement = .line(joined, tokens)
      }
    } catch {
      statement = .invalid(joined, error)
    }
    if open.isEmpty { return [statement] }
    open[open.count - 1].body.append(statement)
    return []
  }

  /// Ends the input; a block still open is an error pointing at its `repeat` line.
  public mutating func finish() -> Diagnostic? {
    defer { reset() }
    if let pending {
      return Diagnostic(
        "the line ends in \\ but no line follows; remove the \\",
        at: SourceSpan(
          file: pending.line.file, line: pending.line.number, text: pending.line.text,
          start: pending.line.text.utf8.count - 1, end: pending.line.text.utf8.count))
    }
    guard let block = open.first else { return nil }
    let brace = block.tokens.last!
    return Diagnostic(
      "this repeat block is never closed; add a line with } after its commands",
      at: SourceSpan(
        file: block.header.file, line: block.header.number, text: block.header.text,
        start: brace.start, end: brace.end))
  }

  /// Drops an unfinished statement (Ctrl-C in the REPL).
  public mutating func reset() {
    pending = nil
    open = []
  }
}
