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
  /// After blocks nested too deep: how many blocks are still open in the refused one,
  /// whose lines are skipped.
  private var skipping = 0

  public init() {}

  /// Whether a statement is unfinished (a `\` continuation or an open block).
  public var needsMore: Bool { pending != nil || !open.isEmpty || skipping > 0 }

  /// Adds one physical line; returns the statements it completes.
  public mutating func feed(_ text: String, file: String, number: Int) -> [Statement] {
    var joined: SourceLine
    if var held = pending {
      // Taken out first, so the joined text is appended in place, not copied per line.
      pending = nil
      // A continuation joins with one space, whatever indentation the next line has.
      held.text += text.drop(while: { $0 == " " || $0 == "\t" })
      joined = SourceLine(file: held.line.file, number: held.line.number, text: "")
      swap(&joined.text, &held.text)
    } else {
      joined = SourceLine(file: file, number: number, text: text)
    }
    guard joined.text.utf8.count <= ScriptLimits.statementBytes else {
      if skipping > 0 {
        if Self.opensBlock(joined.text) { skipping += 1 }
        return []
      }
      return refuse(tooLong(joined), opensBlock: Self.opensBlock(joined.text))
    }
    if Lexer.continues(Substring(joined.text)) {
      var trimmed = ""
      swap(&trimmed, &joined.text)
      while trimmed.last != "\\" { trimmed.removeLast() }
      trimmed.removeLast()
      while let last = trimmed.last, last == " " || last == "\t" { trimmed.removeLast() }
      trimmed += " "
      pending = (joined, trimmed)
      return []
    }
    pending = nil
    if skipping > 0 {
      skip(joined)
      return []
    }
    let tokens: [Token]
    do {
      tokens = try Lexer.tokenize(joined.text)
    } catch {
      return take(.invalid(joined, error))
    }
    if tokens.count > ScriptLimits.statementTokens {
      let token = tokens[ScriptLimits.statementTokens]
      return refuse(
        .invalid(
          joined,
          LexError(
            "this statement has more than \(ScriptLimits.statementTokens) tokens; split it into several",
            start: token.start, end: token.end)),
        opensBlock: tokens.first!.isWord("repeat") && tokens.last!.kind == .openBrace)
    }
    // `;` separates statements on one line; each keeps the whole line for its messages.
    var statements: [Statement] = []
    var segmentStart = 0
    for end in tokens.indices where tokens[end].kind == .separator || end == tokens.count - 1 {
      let segmentEnd = tokens[end].kind == .separator ? end : end + 1
      let segment = Array(tokens[segmentStart..<segmentEnd])
      segmentStart = end + 1
      if segment.isEmpty { continue }
      statements += statement(segment, line: joined)
      if skipping > 0 { break }
    }
    return statements
  }

  /// The statements one `;`-separated part of a line completes.
  private mutating func statement(_ tokens: [Token], line joined: SourceLine) -> [Statement] {
    if tokens.first!.isWord("repeat"), tokens.last!.kind == .openBrace {
      guard open.count < ScriptLimits.repeatDepth else {
        let brace = tokens.last!
        skipping = open.count + 1
        open = []
        return [
          .invalid(
            joined,
            LexError(
              "repeat blocks nest deeper than \(ScriptLimits.repeatDepth); nest fewer (nothing of the outermost block runs)",
              start: brace.start, end: brace.end))
        ]
      }
      open.append((joined, tokens, []))
      return []
    }
    if tokens.count == 1, tokens[0].kind == .closeBrace, let block = open.popLast() {
      return take(.block(header: block.header, tokens: block.tokens, body: block.body))
    }
    return take(.line(joined, tokens))
  }

  /// Hands `statement` on, or adds it to the innermost open block.
  private mutating func take(_ statement: Statement) -> [Statement] {
    if open.isEmpty { return [statement] }
    open[open.count - 1].body.append(statement)
    return []
  }

  /// A statement refused for a limit: inside a block, the whole outermost block goes with
  /// it (its lines are skipped), so nothing of it runs.
  ///
  /// A refused line that opens a block (`repeat … {`) is skipped up to its own `}` too.
  private mutating func refuse(_ statement: Statement, opensBlock: Bool) -> [Statement] {
    skipping = open.count + (opensBlock ? 1 : 0)
    open = []
    return [statement]
  }

  /// Whether an untokenized line looks like `repeat … {` (for a line too long to read).
  private static func opensBlock(_ text: String) -> Bool {
    let trimmed = text.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
    let end = trimmed.last { $0 != " " && $0 != "\t" && $0 != "\r" }
    return trimmed.lowercased().hasPrefix("repeat") && end == "{"
  }

  /// Follows the braces of a refused block without running anything.
  private mutating func skip(_ line: SourceLine) {
    guard let tokens = try? Lexer.tokenize(line.text), let first = tokens.first else { return }
    if first.isWord("repeat"), tokens.last!.kind == .openBrace {
      skipping += 1
    } else if tokens.count == 1, first.kind == .closeBrace {
      skipping -= 1
    }
  }

  /// The error for a statement longer than the limit, showing only its start.
  private func tooLong(_ line: SourceLine) -> Statement {
    var shown = line
    let utf8 = Array(line.text.utf8.prefix(60))
    shown.text = String(decoding: utf8, as: UTF8.self) + "…"
    return .invalid(
      shown,
      LexError(
        "this statement is longer than \(ScriptLimits.statementBytes >> 20) MiB; split it into several",
        start: 0, end: utf8.count))
  }

  /// Ends the input; a block still open is an error pointing at its `repeat` line.
  public mutating func finish() -> Diagnostic? {
    defer { reset() }
    // A refused block was reported when it was refused.
    if skipping > 0 { return nil }
    if let pending {
      let text = pending.text + "\\"
      return Diagnostic(
        "the line ends in \\ but no line follows; remove the \\",
        at: SourceSpan(
          file: pending.line.file, line: pending.line.number, text: text,
          start: text.utf8.count - 1, end: text.utf8.count))
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
    skipping = 0
  }
}
