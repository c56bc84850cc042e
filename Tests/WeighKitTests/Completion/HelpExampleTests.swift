import Foundation
import Testing

@testable import WeighKit

/// Every command's help example runs without error, after a prelude that gives it
/// something to act on (entries, a height and pre-pregnancy weight, a Health sample, the
/// files `import` and `include` read).
@Suite struct HelpExampleTests {
  static let prelude = [
    "log 69kg at 2025-12-28 07:00", "log 68.8kg at 2025-12-29 07:00",
    "log 68.6kg at 2025-12-30 07:00", "set height 165cm", "set pre-pregnancy 60kg",
    "health add 70.2kg at 2025-12-31 07:00 source Withings", "export weights.csv",
  ]

  static let specs = CommandTable.all.map(\.name)

  @Test(arguments: specs)
  func exampleRuns(_ name: String) throws {
    let spec = try #require(CommandTable.spec(named: name))
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("weigh-help-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "log 70kg\n".write(toFile: folder + "/setup.wcfg", atomically: true, encoding: .utf8)
    let output = CapturedOutput()
    var options = SessionOptions.golden
    options.keepGoing = false
    let session = try Session(options: options, output: output)
    defer { session.close() }
    #expect(
      session.run(
        script: Self.prelude.joined(separator: "\n"), display: "prelude", directory: folder))
    let before = output.text.count
    let passed = session.run(script: spec.example, display: "example", directory: folder)
    let printed = String(output.text.dropFirst(before))
    // `quit` ends the script it is in; `try delete #99` reports the failure it tolerates.
    #expect(passed || session.quitRequested, "help \(name): \(spec.example)\n\(printed)")
    #expect(session.exitStatus == .success, "help \(name): \(spec.example)\n\(printed)")
  }

  @Test func theIndexFitsOneScreenAndNamesEveryCommand() {
    let index = CommandHelp.index
    #expect(index.count <= 20)
    for spec in CommandTable.all {
      #expect(index.contains { $0.contains(" \(spec.name),") || $0.hasSuffix(" \(spec.name)") })
    }
  }

  @Test func aTopicIsTheUsageSummaryAndExample() throws {
    let lines = try CommandHelp.text(for: "DELETE").get()
    #expect(lines == ["delete #N|last", "  remove an entry", "  example: delete #3"])
    guard case .failure(let error) = CommandHelp.text(for: "lgo") else {
      Issue.record("lgo is no command")
      return
    }
    #expect(error.message == "no command \"lgo\"; did you mean \"log\"?")
  }
}
