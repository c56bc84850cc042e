import Foundation
import Testing

@testable import WeighKit

/// Diagnostics about a position in a file other than the script: a store file, an import.
@Suite struct FileLocationDiagnosticTests {
  private func file(_ text: String) throws -> (path: String, folder: URL) {
    let folder = try Fixtures.temporaryFolder()
    let path = folder.appendingPathComponent("journal.jsonl").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return (path, folder)
  }

  @Test func showsTheLineWithACaretUnderTheColumnInScalars() throws {
    let (path, folder) = try file("{\"a\":1}\r\n{\"é\":x}\n")
    defer { try? FileManager.default.removeItem(at: folder) }
    let location = SourceLocation(file: "journal.jsonl", line: 2, column: 6)
    let diagnostic = Diagnostic("expected a value", in: location, readingFrom: path)
    #expect(
      DiagnosticRenderer().render(diagnostic)
        == "journal.jsonl:2:6: error: expected a value\n{\"é\":x}\n     ^\n")
  }

  @Test func theLastLineNeedsNoLineBreak() throws {
    let (path, folder) = try file("a\n  bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let diagnostic = Diagnostic(
      "bad", in: SourceLocation(file: "f", line: 2, column: 3), readingFrom: path)
    #expect(DiagnosticRenderer().render(diagnostic) == "f:2:3: error: bad\n  bad\n  ^\n")
  }

  @Test func withoutAReadableLineShowsOnlyThePosition() {
    let location = SourceLocation(file: "/no/such/weigh.json", line: 3, column: 13)
    let diagnostic = Diagnostic("written by a newer weigh", in: location)
    #expect(diagnostic.span == nil)
    #expect(
      DiagnosticRenderer().render(diagnostic)
        == "/no/such/weigh.json:3:13: error: written by a newer weigh\n")
    // The REPL shows a file's position in full: the caret-only form is for the typed line.
    #expect(
      DiagnosticRenderer(interactivePromptWidth: 7).render(diagnostic)
        == "/no/such/weigh.json:3:13: error: written by a newer weigh\n")
  }

  @Test func aPositionPastTheLinesEndIsShownWithoutALine() throws {
    let (path, folder) = try file("short\n")
    defer { try? FileManager.default.removeItem(at: folder) }
    for location in [
      SourceLocation(file: "f", line: 1, column: 40), SourceLocation(file: "f", line: 9, column: 1),
    ] {
      let diagnostic = Diagnostic("bad", in: location, readingFrom: path)
      #expect(diagnostic.span == nil, "\(location)")
    }
  }

  @Test func aLongLineIsShownAsAWindowAroundTheColumn() throws {
    let long = String(repeating: "a", count: 300) + "X" + String(repeating: "b", count: 300)
    let (path, folder) = try file(long + "\n")
    defer { try? FileManager.default.removeItem(at: folder) }
    let diagnostic = Diagnostic(
      "bad", in: SourceLocation(file: "f", line: 1, column: 301), readingFrom: path)
    let lines = DiagnosticRenderer().render(diagnostic).split(separator: "\n").map(String.init)
    #expect(lines[0] == "f:1:301: error: bad")
    #expect(lines[1].hasPrefix("…a") && lines[1].hasSuffix("b…"))
    #expect(lines[1].unicodeScalars.count <= FileLineReader.widest + 2)
    let caret = try #require(lines[2].firstIndex(of: "^"))
    let column = lines[2].distance(from: lines[2].startIndex, to: caret)
    #expect(Array(lines[1])[column] == "X")
  }

  @Test func notesFollowTheMessage() {
    let diagnostic = Diagnostic(
      "cannot import w.csv; nothing was imported",
      notes: [.init("the row is here", at: SourceLocation(file: "w.csv", line: 4)), .init("n")])
    #expect(
      DiagnosticRenderer().render(diagnostic)
        == "error: cannot import w.csv; nothing was imported\nw.csv:4: note: the row is here\n"
        + "note: n\n")
  }

  @Test func aStoreErrorPointsAtItsFile() {
    let error = StoreError(.corrupt, file: "/s/weigh.json", line: 2, column: 5, message: "bad")
    let diagnostic = error.diagnostic()
    #expect(diagnostic.location == SourceLocation(file: "/s/weigh.json", line: 2, column: 5))
    #expect(diagnostic.kind == .unreadableStore)
    #expect(StoreError(.locked, message: "busy").diagnostic().location == nil)
    // A store error keeps its own position when a command's word is offered.
    let word = SourceSpan(file: "-e", line: 1, text: "list", start: 0, end: 4)
    #expect(diagnostic.located(at: word).span == nil)
  }
}
