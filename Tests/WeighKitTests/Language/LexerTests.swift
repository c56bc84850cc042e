import Testing

@testable import WeighKit

@Suite struct LexerTests {
  func kinds(_ line: String) throws -> [Token.Kind] { try Lexer.tokenize(line).map(\.kind) }
  func texts(_ line: String) throws -> [String] { try Lexer.tokenize(line).map(\.text) }

  @Test func wordsStringsReferencesAndComments() throws {
    #expect(
      try texts(#"log 68.5kg note "after \"run\"" # a comment"#) == [
        "log", "68.5kg", "note", #"after "run""#,
      ])
    #expect(try kinds("delete #12") == [.word, .entryReference])
    #expect(try texts("delete #12") == ["delete", "12"])
    #expect(try texts("# only a comment").isEmpty)
    #expect(try texts("echo a#b") == ["echo", "a#b"])
  }

  @Test func semicolonsSeparateStatementsOutsideStringsAndComments() throws {
    #expect(try kinds("log 70kg;list") == [.word, .word, .separator, .word])
    #expect(try texts(#"echo "a;b"; echo c # d; e"#) == ["echo", "a;b", ";", "echo", "c"])
    var reader = StatementReader()
    let statements = reader.feed("log 70kg; ; list last 2;", file: "t", number: 1)
    let words = statements.map { statement -> [String] in
      guard case .line(let line, let tokens) = statement else { return [] }
      #expect(line.text == "log 70kg; ; list last 2;")
      return tokens.map(\.text)
    }
    #expect(words == [["log", "70kg"], ["list", "last", "2"]])
    #expect(reader.feed("repeat 2 { ; echo hi ; }", file: "t", number: 2).count == 1)
    #expect(!reader.needsMore)
  }

  @Test func comparisonsStandAloneOrGlued() throws {
    #expect(try texts("expect entries>=2") == ["expect", "entries", ">=", "2"])
    #expect(
      try kinds("expect latest == 70kg ± 0.1kg") == [
        .word, .word, .comparison, .word, .comparison, .word,
      ])
    #expect(try texts("expect latest == 70kg +- 0.1kg")[4] == "±")
    #expect(try texts("log -0.5kg/w") == ["log", "-0.5kg/w"])
  }

  @Test func bracesAreTokens() throws {
    #expect(try kinds("repeat 3 {") == [.word, .word, .openBrace])
    #expect(try kinds("}") == [.closeBrace])
  }

  @Test func spansAreUTF8Offsets() throws {
    let tokens = try Lexer.tokenize("echo \"é\" x")
    #expect(tokens[1].start == 5)
    #expect(tokens[1].end == 9)
    #expect(tokens[2].start == 10)
  }

  @Test func errorsPointAtTheText() {
    #expect(throws: LexError("unterminated string; add a closing \"", start: 5, end: 9)) {
      try Lexer.tokenize("echo \"abc")
    }
    #expect(throws: LexError.self) { try Lexer.tokenize("echo \"a\\qb\"") }
    #expect(throws: LexError.self) { try Lexer.tokenize("delete #1x") }
  }

  @Test func continuation() {
    #expect(Lexer.continues("log 70kg \\"))
    #expect(Lexer.continues("log 70kg \\   "))
    #expect(!Lexer.continues("log 70kg"))
  }
}

@Suite struct StatementReaderTests {
  @Test func joinsContinuedLines() {
    var reader = StatementReader()
    #expect(reader.feed("log 70kg \\", file: "f", number: 1).isEmpty)
    #expect(reader.needsMore)
    let done = reader.feed("   note \"x\"", file: "f", number: 2)
    guard case .line(let line, let tokens)? = done.first else {
      Issue.record("expected a line")
      return
    }
    #expect(line.text == "log 70kg note \"x\"")
    #expect(line.number == 1)
    #expect(tokens.count == 4)
  }

  @Test func nestsBlocksAndReportsAnUnclosedOne() {
    var reader = StatementReader()
    #expect(reader.feed("repeat 2 {", file: "f", number: 1).isEmpty)
    #expect(reader.feed("repeat 3 {", file: "f", number: 2).isEmpty)
    #expect(reader.feed("echo x", file: "f", number: 3).isEmpty)
    #expect(reader.feed("}", file: "f", number: 4).isEmpty)
    #expect(reader.needsMore)
    let done = reader.feed("}", file: "f", number: 5)
    guard case .block(_, _, let body)? = done.first, case .block(_, _, let inner) = body[0] else {
      Issue.record("expected nested blocks")
      return
    }
    #expect(inner.count == 1)
    #expect(!reader.needsMore)
    _ = reader.feed("repeat 1 {", file: "f", number: 6)
    #expect(reader.finish()?.message.contains("never closed") == true)
  }
}
