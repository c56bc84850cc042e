import Foundation
import Testing

@testable import WeighKit

/// The completion cases in Tests/completion: each `>` line is a line typed up to the cursor
/// (marked `|`), followed by the candidates Tab offers there, one a line (`word  detail`).
/// `$` lines run in the session first; `# ` lines are comments. File names complete in
/// Tests/completion/files.
///
/// `WEIGH_UPDATE_COMPLETION=1 swift test --filter CompletionCaseTests` rewrites the files
/// with what completion offers now (such a run fails, so it is never mistaken for a pass).
@Suite struct CompletionCaseTests {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("completion").path

  static let files: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    .filter { $0.hasSuffix(".complete") }.sorted()

  @Test func casesExist() {
    #expect(!Self.files.isEmpty)
  }

  @Test(arguments: files)
  func cases(_ name: String) throws {
    let path = Self.folder + "/" + name
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let output = CapturedOutput()
    let session = try Session(options: .golden, output: output)
    defer { session.close() }
    var expected = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if expected.last == "" { expected.removeLast() }
    var actual: [String] = []
    var index = 0
    while index < expected.count {
      let line = expected[index]
      index += 1
      if line.hasPrefix("$ ") {
        let before = output.text
        _ = session.run(script: String(line.dropFirst(2)), display: name, directory: ".")
        #expect(
          !output.text.dropFirst(before.count).contains("error:"), "setup line failed: \(line)")
        actual.append(line)
        continue
      }
      guard line.hasPrefix("> ") else {
        actual.append(line)
        continue
      }
      #expect(line.hasSuffix("|"), "a case line ends with | at the cursor: \(line)")
      let typed = String(line.dropFirst(2).dropLast())
      let wordStart = typed.lastIndex(of: " ").map { typed.index(after: $0) } ?? typed.startIndex
      let candidates = Completion.candidates(
        lineBeforeWord: String(typed[..<wordStart]), word: String(typed[wordStart...]),
        data: session.completionData(directory: Self.folder + "/files"))
      actual.append(line)
      actual += candidates.map { $0.detail.isEmpty ? $0.word : "\($0.word)  \($0.detail)" }
      // Skip the expected candidates: every line up to the next case, setup or blank line.
      while index < expected.count, !expected[index].isEmpty, !expected[index].hasPrefix("> "),
        !expected[index].hasPrefix("$ "), !expected[index].hasPrefix("# ")
      {
        index += 1
      }
    }
    let regenerated = actual.joined(separator: "\n") + "\n"
    if ProcessInfo.processInfo.environment["WEIGH_UPDATE_COMPLETION"] == "1" {
      try regenerated.write(toFile: path, atomically: true, encoding: .utf8)
      Issue.record("rewrote \(name); run again without WEIGH_UPDATE_COMPLETION to check it")
      return
    }
    for (number, pair) in zip(expected, actual).enumerated() where pair.0 != pair.1 {
      Issue.record("\(name):\(number + 1): expected \"\(pair.0)\", got \"\(pair.1)\"")
      break
    }
    #expect(expected.count == actual.count, "\(name): the candidates differ in number")
  }
}
