import Foundation
import Testing

@testable import WeighKit

/// Completion read from the parser: what the probe collects, and how candidates are made.
@Suite struct CompletionTests {
  /// What the grammar accepts after `line` (which ends where the probe goes).
  func nextWords(after line: String) -> [NextWord] {
    let probe = CompletionProbe()
    var tokens = (try? Lexer.tokenize(line)) ?? []
    tokens.append(Token(.probe, "", start: line.utf8.count, end: line.utf8.count))
    CompletionProbe.$current.withValue(probe) {
      let context = ParseContext(
        file: "t", line: 1, text: line, clock: ZonedClock(zone: .gmt), now: 0)
      _ = try? CommandTable.parse(tokens, context: context)
    }
    return probe.nextWords
  }

  func words(_ line: String, _ word: String = "", unit: DisplayUnit = .kg) -> [String] {
    var data = CompletionData()
    data.unit = unit
    data.entries = {
      [CompletionCandidate("#2"), CompletionCandidate("#10"), CompletionCandidate("last")]
    }
    return Completion.candidates(lineBeforeWord: line, word: word, data: data).map(\.word)
  }

  @Test func theFirstWordIsACommand() {
    #expect(nextWords(after: "") == [.command])
    // `try try …` is allowed, up to a limit.
    #expect(nextWords(after: "try ") == [.keyword("try"), .command])
    #expect(nextWords(after: "help ") == [.command, .keyword("all")])
  }

  @Test func anEntryIsOfferedOnceAndNothingFollowsIt() {
    #expect(nextWords(after: "delete ") == [.entry, .keyword("last")])
    #expect(nextWords(after: "delete last ").isEmpty)
    #expect(nextWords(after: "delete #3 ").isEmpty)
    #expect(words("delete ") == ["#2", "#10", "last"])
  }

  @Test func optionsThatAppearOnceAreNotOfferedAgain() {
    #expect(
      nextWords(after: "log 70kg ") == [.keyword("at"), .keyword("note"), .keyword("force")])
    #expect(nextWords(after: "log 70kg at now ") == [.keyword("note"), .keyword("force")])
    #expect(nextWords(after: "log 70kg note x at now force ").isEmpty)
    #expect(
      nextWords(after: "log 70kg at today ")
        == [.time, .keyword("note"), .keyword("force")])
  }

  @Test func filesAreExpectedWhereTheGrammarTakesAFile() {
    #expect(nextWords(after: "include ") == [.file(extensions: ["wcfg"])])
    #expect(nextWords(after: "include a.wcfg ").isEmpty)
    #expect(nextWords(after: "export ") == [.file(extensions: ["csv", "json"])])
    #expect(nextWords(after: "export w.csv ") == [.keyword("as")])
    #expect(nextWords(after: "chart to ") == [.file(extensions: ["svg"])])
  }

  @Test func aNumberIsCompletedWithUnitsInTheDisplayUnitFirst() {
    #expect(words("log ", "70", unit: .lb) == ["70lb", "70kg", "70st", "70lbs", "70g"])
    #expect(words("log ", "70", unit: .kg).first == "70kg")
    #expect(words("log ", "70s") == ["70st"])
    #expect(words("log 70 ") == ["kg", "lb", "st", "lbs", "g", "at", "note", "force"])
    #expect(words("log ", "x").isEmpty)
  }

  @Test func candidatesMatchTheTypedPrefixCaseInsensitively() {
    #expect(words("", "DEL") == ["delete"])
    #expect(words("set unit ", "L") == ["lb"])
  }

  @Test func aStatementAfterASemicolonIsCompletedOnItsOwn() {
    #expect(Completion.lastStatement("log 70kg; li") == " li")
    #expect(Completion.lastStatement("echo \"a;b\" x") == "echo \"a;b\" x")
    #expect(words("log 70kg; ", "und") == ["undo"])
  }

  @Test func aLineThatDoesNotLexOffersNothing() {
    #expect(words("log 70kg note \"open ", "x").isEmpty)
  }

  @Test func everyPrefixOfTheGoldenScriptsCompletesWithoutTrouble() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("golden")
    let scripts = try FileManager.default.subpathsOfDirectory(atPath: root.path)
      .filter { $0.hasSuffix(".wcfg") }
    #expect(scripts.count > 30)
    var data = CompletionData()
    data.directory = root.path
    var offered = 0
    for script in scripts {
      // Some scripts hold bytes that are not UTF-8 on purpose; they are read as the REPL would.
      let bytes = FileManager.default.contents(atPath: root.path + "/" + script) ?? Data()
      let text = String(decoding: bytes, as: UTF8.self)
      for line in text.split(separator: "\n").prefix(200) {
        // Every cut at a space: the words before it, and the next word half typed.
        for (index, character) in zip(line.indices, line) where character == " " {
          let before = String(line[...index])
          let rest = line[line.index(after: index)...]
          let half = String(rest.prefix { $0 != " " }.prefix(2))
          let candidates = Completion.candidates(lineBeforeWord: before, word: half, data: data)
          #expect(candidates.allSatisfy { $0.word.lowercased().hasPrefix(half.lowercased()) })
          offered += candidates.count
        }
      }
    }
    #expect(offered > 100)
  }

  @Test func filesAreFilteredByExtensionAndFoldersEndInASlash() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("weigh-completion-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: folder + "/sub", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for name in ["a.wcfg", "b.csv", ".hidden.wcfg", "sub/c.wcfg"] {
      FileManager.default.createFile(atPath: folder + "/" + name, contents: Data())
    }
    let words = { (word: String) in
      Completion.files(word, extensions: ["wcfg"], in: folder).map(\.word)
    }
    #expect(words("") == ["a.wcfg", "sub/"])
    #expect(words("sub/") == ["sub/c.wcfg"])
    #expect(words(".") == [".hidden.wcfg"])
    #expect(
      Completion.files("", extensions: [], in: folder).map(\.word) == ["a.wcfg", "b.csv", "sub/"])
  }
}
