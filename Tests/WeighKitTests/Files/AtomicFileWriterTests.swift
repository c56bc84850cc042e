import Foundation
import Testing

@testable import WeighKit

@Suite struct AtomicFileWriterTests {
  func folder() -> String {
    let path = NSTemporaryDirectory() + "weigh-writer-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

  @Test func createsThenReplacesAndSaysWhich() throws {
    let folder = folder()
    let writer = AtomicFileWriter()
    #expect(try writer.write(Array("one\n".utf8), to: folder + "/a.txt") == .created)
    #expect(try writer.write(Array("two\n".utf8), to: folder + "/a.txt") == .replaced)
    #expect(try read(folder + "/a.txt") == "two\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.txt"])
  }

  @Test func aFailingBodyLeavesTheOldFileAndNoTemporary() throws {
    let folder = folder()
    let path = folder + "/a.txt"
    try AtomicFileWriter().write(Array("old\n".utf8), to: path)
    struct Stop: Error {}
    #expect(throws: FileWriteError.self) {
      try AtomicFileWriter().write(to: path) { file in
        try file.append(Array("half of the new".utf8))
        throw Stop()
      }
    }
    #expect(try read(path) == "old\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.txt"])
  }

  @Test func writesThroughSymbolicLinks() throws {
    let folder = folder()
    try AtomicFileWriter().write(Array("old\n".utf8), to: folder + "/real.txt")
    #expect(symlink("real.txt", folder + "/link.txt") == 0)
    #expect(symlink("link.txt", folder + "/link2.txt") == 0)
    #expect(
      try AtomicFileWriter().write(Array("new\n".utf8), to: folder + "/link2.txt") == .replaced)
    #expect(try read(folder + "/real.txt") == "new\n")
    var status = stat()
    #expect(lstat(folder + "/link2.txt", &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFLNK)
    // A dangling link creates its target.
    #expect(symlink("later.txt", folder + "/dangling.txt") == 0)
    #expect(try AtomicFileWriter().write(Array("x".utf8), to: folder + "/dangling.txt") == .created)
    #expect(try read(folder + "/later.txt") == "x")
  }

  @Test func refusesPathsInsideAProtectedFolderHoweverSpelled() throws {
    let folder = folder()
    let store = folder + "/store"
    try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: folder + "/other", withIntermediateDirectories: true)
    #expect(symlink(store, folder + "/alias") == 0)
    #expect(symlink(store + "/journal.jsonl", folder + "/journal-link") == 0)
    let writer = AtomicFileWriter(protecting: [store])
    for path in [
      store + "/journal.jsonl", folder + "/store/./x", folder + "/other/../store/x",
      folder + "/alias/x", folder + "/journal-link",
    ] {
      do {
        try writer.write([], to: path)
        Issue.record("\(path) was written")
      } catch {
        #expect(error.protectedFolder == store, "\(path)")
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: store).isEmpty)
    #expect(
      try AtomicFileWriter(protecting: [store]).resolvedTarget(of: folder + "/alias/../x") != nil)
    #expect(try writer.write([], to: folder + "/store-beside.txt") == .created)
  }

  @Test func namesProblemsInItsOwnWords() throws {
    let folder = folder()
    func reason(_ path: String) -> String? {
      do {
        try AtomicFileWriter().write([0x41], to: path)
        return nil
      } catch {
        return error.reason
      }
    }
    #expect(reason(folder + "/missing/a.txt") == "its folder does not exist; create it first")
    #expect(reason(folder) == "it is a folder; give a file name inside it")
    #expect(reason("") == "the file name is empty; give one")
    #expect(reason("/dev/full") == "writing failed: the disk is full")
  }

  /// The store's files go through the same writer: a kill at any of its steps leaves the old
  /// file whole, and a kill after the temporary file exists leaves it as `NAME.tmp`, which
  /// the next write replaces.
  @Test func aKillAtEveryStepOfAStoreWriteLeavesTheOldFileWhole() throws {
    let folder = folder()
    let path = folder + "/weigh.json"
    let new = Array(String(repeating: "new\n", count: 20).utf8)
    let counter = WriteFaultInjector()
    try WriteFaultInjector.$current.withValue(counter) {
      try AtomicFileWriter.store.write(Array("old\n".utf8), to: path)
    }
    #expect(counter.count == 5, "create, write, sync, rename, sync the folder")
    for killAt in 0..<counter.count {
      try AtomicFileWriter.store.write(Array("old\n".utf8), to: path)
      let injector = WriteFaultInjector(remaining: killAt)
      WriteFaultInjector.$current.withValue(injector) {
        #expect(throws: FileWriteError.self) { try AtomicFileWriter.store.write(new, to: path) }
      }
      let temporary = try? read(path + ".tmp")
      if killAt < 4 {
        #expect(try read(path) == "old\n", "killed at step \(killAt)")
        #expect(killAt == 0 ? temporary == nil : temporary != nil, "killed at step \(killAt)")
      } else {
        #expect(try read(path) == String(decoding: new, as: UTF8.self))
        #expect(temporary == nil)
      }
      if killAt == 1 { #expect(temporary?.utf8.count == new.count / 2) }
    }
    #expect(try AtomicFileWriter.store.write(new, to: path) == .replaced)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["weigh.json"])
  }

  @Test func aStoreFileIsNeverAPipeAndMayBeReadOnly() throws {
    let folder = folder()
    #expect(mkfifo(folder + "/journal.jsonl", 0o644) == 0)
    #expect(throws: FileWriteError("it is not a regular file; give another name")) {
      try AtomicFileWriter.store.write([0x41], to: folder + "/journal.jsonl")
    }
    try AtomicFileWriter.store.write([0x41], to: folder + "/weigh.json")
    #expect(chmod(folder + "/weigh.json", 0o444) == 0)
    #expect(try AtomicFileWriter.store.write([0x42], to: folder + "/weigh.json") == .replaced)
    #expect(try read(folder + "/weigh.json") == "B")
  }
}

@Suite struct TerminalTextTests {
  @Test func escapesControlsButNewlineAndTab() {
    #expect(TerminalText.escaped("plain text, ünïcode ✓") == "plain text, ünïcode ✓")
    #expect(TerminalText.escaped("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
    #expect(
      TerminalText.escaped("bell\u{7} del\u{7F} c1\u{9B} cr\r")
        == "bell\\u{7} del\\u{7F} c1\\u{9B} cr\\u{D}")
    #expect(TerminalText.escaped("line\nnext\tcell") == "line\nnext\tcell")
    #expect(TerminalText.escaped("nul\u{0}") == "nul\\u{0}")
    // U+00A0 and U+0100 are not C1 controls (their UTF-8 shares a lead byte with them).
    #expect(!TerminalText.needsEscaping("\u{A0}\u{100}é"))
  }

  @Test func diagnosticsPlaceTheCaretUnderTheEscapedText() {
    let line = "log 70\u{1B}[2J kg"
    let diagnostic = Diagnostic(
      "bad", at: SourceSpan(file: "x\u{7}.wcfg", line: 1, text: line, start: 4, end: 10))
    #expect(
      DiagnosticRenderer().render(diagnostic)
        == "x\\u{7}.wcfg:1:5: error: bad\nlog 70\\u{1B}[2J kg\n    ^^^^^^^^^^^\n")
    let colored = DiagnosticRenderer(color: true).render(Diagnostic("a\u{1B}b"))
    #expect(colored == "\u{1B}[1;31merror:\u{1B}[0m a\\u{1B}b\n")
  }
}

@Suite struct ScriptLimitTests {
  func statements(_ text: String) -> [Statement] {
    var reader = StatementReader()
    var result: [Statement] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      result += reader.feed(String(line), file: "t", number: index + 1)
    }
    return result
  }

  @Test func repeatStepsMultiplyNestedCountsAndSaturate() {
    #expect(RepeatWork.steps(of: statements("log 70kg\nnow")) == 2)
    // 2 passes of (1 + 3 passes of (1 + 1 command)) = 2 × 7.
    #expect(RepeatWork.steps(of: statements("repeat 2 {\nrepeat 3 {\nnow\n}\n}")) == 14)
    #expect(RepeatWork.steps(of: statements("repeat 0 {\nnow\n}")) == 0)
    #expect(RepeatWork.steps(of: statements("repeat many {\nnow\n}")) == 0)
    let deep =
      String(repeating: "repeat 1000000 {\n", count: 5) + "now\n"
      + String(repeating: "}\n", count: 5)
    #expect(RepeatWork.steps(of: statements(deep)) == Int.max)
  }

  func invalidMessage(_ statement: Statement?) -> String? {
    if case .invalid(_, let error)? = statement { return error.message }
    return nil
  }

  @Test func nestingBeyondTheLimitRefusesTheOutermostBlock() {
    let depth = ScriptLimits.repeatDepth
    let allowed =
      String(repeating: "repeat 1 {\n", count: depth) + "echo x\n"
      + String(repeating: "}\n", count: depth)
    #expect(statements(allowed).count == 1)
    let deep =
      String(repeating: "repeat 1 {\n", count: depth + 5) + "echo x\n"
      + String(repeating: "}\n", count: depth + 5) + "echo after"
    let result = statements(deep)
    #expect(result.count == 2)
    #expect(invalidMessage(result.first)?.hasPrefix("repeat blocks nest deeper than") == true)
    if case .line(_, let tokens)? = result.last {
      #expect(tokens.map(\.text) == ["echo", "after"])
    } else {
      Issue.record("the line after the refused block was not read")
    }
  }

  @Test func aRefusedBlockHeaderTakesItsWholeBlock() {
    let text =
      "repeat 2 {\nrepeat 1" + String(repeating: " x", count: ScriptLimits.statementTokens)
      + " {\necho inner\n}\necho outer\n}\necho after"
    let result = statements(text)
    #expect(result.count == 2)
    #expect(invalidMessage(result.first)?.contains("more than 10000 tokens") == true)
    if case .line(_, let tokens)? = result.last {
      #expect(tokens.map(\.text) == ["echo", "after"])
    } else {
      Issue.record("the line after the refused block was not read")
    }
  }

  @Test func longStatementsAndManyTokensAreRefused() {
    let long = "echo " + String(repeating: "x", count: ScriptLimits.statementBytes)
    #expect(invalidMessage(statements(long).first)?.contains("longer than 1 MiB") == true)
    let continued = String(repeating: "echo xxxxxxxxxxxxxxxx \\\n", count: 70_000) + "end"
    #expect(invalidMessage(statements(continued).first)?.contains("longer than 1 MiB") == true)
    let many = "echo" + String(repeating: " x", count: ScriptLimits.statementTokens)
    #expect(invalidMessage(statements(many).first)?.contains("more than 10000 tokens") == true)
  }

  @Test func invalidUTF8IsReportedWithLineAndByteOffset() throws {
    let bytes = Array("ok\nlog 7".utf8) + [0xC3, 0x28] + Array("kg\n".utf8)
    let result = Result { () throws(Diagnostic) in try ScriptFile.decode(bytes, file: "s.wcfg") }
    guard case .failure(let error) = result else {
      Issue.record("invalid UTF-8 was accepted")
      return
    }
    #expect(error.message.hasPrefix("not UTF-8: byte 0xC3 at byte offset 5 of line 2"))
    #expect(error.span?.line == 2)
    #expect(error.kind == .unreadableInput)
    #expect(try ScriptFile.decode([0xEF, 0xBB, 0xBF] + Array("log".utf8), file: "s") == "log")
  }
}
