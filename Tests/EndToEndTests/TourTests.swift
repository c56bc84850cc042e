import Foundation
import Testing

/// The README's tour (examples.wcfg) and the commands the README shows, run as a user runs
/// them: the built binary, the repository's folder as the working folder, a default store.
@Suite struct TourTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// To record the expected output again after changing the tour, from the repository's folder:
  /// `WEIGH_STORE=$(mktemp -d) TZ=UTC .build/debug/weigh examples.wcfg >Examples/tour/examples.out
  /// 2>Examples/tour/examples.err`
  static func expected(_ name: String) throws -> String {
    try String(contentsOfFile: root + "/Examples/tour/" + name, encoding: .utf8)
  }

  /// Runs `weigh arguments…` in the repository's folder with `store` as the default store.
  static func weigh(_ arguments: [String], store: String, input: String = "") throws
    -> WeighProcess.Result
  {
    try WeighProcess.run(
      arguments, input: input, directory: root,
      environment: ["WEIGH_STORE": store, "TZ": "UTC", "WEIGH_HISTORY": ""])
  }

  /// What a store holds, as its user sees it: entries, settings, the sync state, and with
  /// `health`, Health's samples and simulations.
  static func contents(of store: String, health: Bool = true) throws -> String {
    let log = ["-e", "list", "-e", "settings", "-e", "sync status"]
    let healthState = [
      "-e", "health list", "-e", "simulate list", "-e", "expect health.deleted == 0",
    ]
    let result = try weigh(
      ["--clock", "2026-01-10T00:00Z"] + log + (health ? healthState : []), store: store)
    #expect(result.status == 0, "\(result.standardError)")
    return result.standardOutput
  }

  @Test func theTourPrintsItsCommittedOutputAndLeavesAnEmptyStoreEmpty() throws {
    let store = WeighProcess.temporaryDirectory()
    let result = try Self.weigh(["examples.wcfg"], store: store)
    #expect(result.status == 0)
    #expect(result.standardOutput == (try Self.expected("examples.out")))
    #expect(result.standardError == (try Self.expected("examples.err")))
    let after = try Self.contents(of: store)
    #expect(after.contains("no entries\n"))
    #expect(after.contains("no weight samples\n"))
    #expect(after.contains("no simulations\n"))
    #expect(after.contains("anchor     none\n"))
    #expect(after.contains("observer   off\n"))
  }

  @Test func theTourLeavesAStoreWithDataAsItWas() throws {
    let store = WeighProcess.temporaryDirectory()
    let setup = try Self.weigh(
      [
        "--clock", "2025-06-01T08:00Z", "-e", "set unit lb", "-e", "set goal 150",
        "-e", "log 160.4 at 07:00 note \"mine\"", "-e", "health add 72kg at 07:30 source Scale",
      ], store: store)
    #expect(setup.status == 0, "\(setup.standardError)")
    // The log, settings and the app's sync state come back; Health keeps what the tour
    // cannot tell apart from the user's (the header of examples.wcfg says why).
    let before = try Self.contents(of: store, health: false)
    #expect(before.contains("\"mine\""))
    #expect(before.contains("unit             lb"))
    let tour = try Self.weigh(["examples.wcfg"], store: store)
    #expect(tour.status == 0, "\(tour.standardError)")
    #expect(try Self.contents(of: store, health: false) == before)
    let health = try Self.weigh(
      ["--clock", "2026-01-10T00:00Z", "-e", "health list"], store: store)
    #expect(
      health.standardOutput.contains("72.0 kg  Scale")
        || health.standardOutput.contains("158.7 lb  Scale"))
  }

  /// The README's tour blocks are lines of examples.wcfg, and its output blocks lines the
  /// tour prints, so what the README shows is run and compared by the first test.
  @Test func theReadmeShowsTheTourAsItIs() throws {
    let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
    let script = Set(
      try String(contentsOfFile: Self.root + "/examples.wcfg", encoding: .utf8)
        .split(separator: "\n").map(String.init))
    let printed = Set(
      (try Self.expected("examples.out") + Self.expected("examples.err"))
        .split(separator: "\n").map(String.init))
    guard let start = readme.range(of: "## A short tour of the language"),
      let end = readme.range(of: "## HealthKit on Linux")
    else {
      Issue.record("README.md has no tour section")
      return
    }
    var block: Set<String>? = nil
    var shown = 0
    for line in readme[start.upperBound..<end.lowerBound].split(separator: "\n") {
      if line.hasPrefix("```") {
        block = block == nil ? (line == "```" ? script : printed) : nil
        continue
      }
      guard let lines = block else { continue }
      shown += 1
      #expect(lines.contains(String(line)), "README.md's tour shows a line the tour lacks: \(line)")
    }
    #expect(shown >= 30)
  }

  /// The language's commands of two words or more that the README shows in its text (outside
  /// code blocks and tables, up to "HealthKit on Linux"): each is a line of
  /// Tests/golden/cli/readme-commands.wcfg, so each runs in CI with its output compared.
  @Test func everyLanguageCommandTheReadmeShowsIsInAGoldenScript() throws {
    let names = Set(
      try WeighProcess.run(["complete", "--memory", "--", ""]).standardOutput
        .split(separator: "\n").map(String.init))
    #expect(names.contains("log"))
    let script = Set(
      try String(
        contentsOfFile: Self.root + "/Tests/golden/cli/readme-commands.wcfg", encoding: .utf8
      )
      .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
    let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
    guard let end = readme.range(of: "## HealthKit on Linux") else {
      Issue.record("README.md has no HealthKit section")
      return
    }
    var prose: [Substring] = []
    var inBlock = false
    for line in readme[..<end.lowerBound].split(separator: "\n") {
      if line.hasPrefix("```") {
        inBlock.toggle()
      } else if !inBlock, !line.hasPrefix("|") {
        prose.append(line)
      }
    }
    // A span may run over a line break (`expect latest ==` ⏎ `154.3lb ± 0.1lb`).
    let pieces = prose.joined(separator: " ").split(
      separator: "`", omittingEmptySubsequences: false)
    var shown = 0
    for (index, piece) in pieces.enumerated() where index % 2 == 1 {
      let words = piece.split(separator: " ")
      guard words.count >= 2, names.contains(String(words[0])) else { continue }
      shown += 1
      let command = words.joined(separator: " ")
      #expect(
        script.contains(command), "README.md shows `\(command)`, which readme-commands.wcfg lacks")
    }
    #expect(shown >= 15)
  }

  /// The commands of the README's first screen and its command-line table, each run; a
  /// `weigh …` example added to the README without a case here fails the first test.
  static let readmeCommands: [String: [(arguments: [String], input: String, status: Int32)]] = [
    "weigh": [([], "log 68.5kg\nlist\n", 0)],
    "weigh FILE.wcfg …": [(["A.wcfg", "B.wcfg"], "", 0)],
    "weigh -e 'log 68.5kg' -e list": [(["-e", "log 68.5kg", "-e", "list"], "", 0)],
    "weigh log 68.5kg": [(["log", "68.5kg"], "", 0)],
    "weigh list last 5": [(["list", "last", "5"], "", 0)],
    "weigh trend": [(["trend"], "", 0)],
    "weigh -": [(["-"], "list\n", 0)],
    "weigh FILE.wcfg -": [(["A.wcfg", "-"], "list\n", 0)],
    "weigh test [PATH …] [--update]": [
      (["test", "Tests/golden/log"], "", 0), (["test", "GOLDEN", "--update"], "", 1),
    ],
    "weigh check": [(["check"], "", 0)],
    "weigh check --repair": [(["check", "--repair"], "", 0)],
    "weigh help [COMMAND\\|all]": [
      (["help"], "", 0), (["help", "log"], "", 0), (["help", "all"], "", 0),
    ],
    "weigh completion bash\\|zsh\\|fish": [
      (["completion", "bash"], "", 0), (["completion", "zsh"], "", 0),
      (["completion", "fish"], "", 0),
    ],
    "weigh --store S check": [(["--store", "STORE", "check"], "", 0)],
    "weigh check --store S": [(["check", "--store", "STORE"], "", 0)],
    ".build/release/weigh examples.wcfg": [(["examples.wcfg"], "", 0)],
  ]

  /// Every `` `weigh …` `` span of the README's first screen and its command-line section.
  static func readmeSpans() throws -> [String] {
    let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
    guard let end = readme.range(of: "\n## The REPL") else { return [] }
    var spans: [String] = []
    for line in readme[..<end.lowerBound].split(separator: "\n") {
      let pieces = line.split(separator: "`", omittingEmptySubsequences: false)
      for (index, piece) in pieces.enumerated() where index % 2 == 1 {
        for part in piece.components(separatedBy: "`, `") {
          let text = part.trimmingCharacters(in: .whitespaces)
          if text == "weigh" || text.hasPrefix("weigh ") { spans.append(text) }
        }
      }
      // The first screen's ```sh block: the tour's command after `&&`.
      if line.contains("&& .build/release/weigh examples.wcfg") {
        spans.append(".build/release/weigh examples.wcfg")
      }
    }
    return spans
  }

  @Test func everyCommandTheReadmeShowsHasACase() throws {
    let spans = try Self.readmeSpans()
    #expect(spans.count >= 15)
    for span in spans where Self.readmeCommands[span] == nil {
      Issue.record("README.md shows `\(span)`, which TourTests.readmeCommands does not run")
    }
  }

  @Test func everyCommandTheReadmeShowsRuns() throws {
    let store = WeighProcess.temporaryDirectory()
    let folder = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(
      atPath: folder + "/GOLDEN", withIntermediateDirectories: true)
    try "log 70kg\n".write(toFile: folder + "/A.wcfg", atomically: true, encoding: .utf8)
    try "list\n".write(toFile: folder + "/B.wcfg", atomically: true, encoding: .utf8)
    try "echo hi\n".write(toFile: folder + "/GOLDEN/one.wcfg", atomically: true, encoding: .utf8)
    let placeholders = [
      "STORE": store, "A.wcfg": folder + "/A.wcfg", "B.wcfg": folder + "/B.wcfg",
      "GOLDEN": folder + "/GOLDEN",
    ]
    for span in try Self.readmeSpans() {
      for run in Self.readmeCommands[span] ?? [] {
        let arguments = run.arguments.map { placeholders[$0] ?? $0 }
        let result = try Self.weigh(arguments, store: store, input: run.input)
        #expect(result.status == run.status, "`\(span)` as \(arguments): \(result.standardError)")
        #expect(!result.standardOutput.isEmpty, "`\(span)` as \(arguments) printed nothing")
      }
    }
  }
}
