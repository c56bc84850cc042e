import ArgumentParser
import Testing

@testable import weigh

/// `RunArguments.fast` reads the common invocations without swift-argument-parser: whatever
/// it reads, the parser must read the same way, and whatever the parser refuses, it must
/// leave to the parser.
@Suite struct FastArgumentsTests {
  /// What the parser makes of `arguments`: the run's options, or nil when it refuses them or
  /// runs another subcommand.
  func parsed(_ arguments: [String]) -> RunArguments? {
    guard let command = try? Weigh.parseAsRoot(arguments), let run = command as? Run else {
      return nil
    }
    return run.arguments
  }

  /// What `Weigh.main` runs without the parser: the fast reading when it passes the checks.
  func fastRun(_ arguments: [String]) -> RunArguments? {
    guard let fast = RunArguments.fast(arguments), (try? fast.validate()) != nil else {
      return nil
    }
    return fast
  }

  @Test func plainRunsAreReadAsTheParserReadsThem() throws {
    let cases: [[String]] = [
      [],
      ["--memory", "-e", "log 70kg"],
      ["--store", "s", "-e", "log 70kg", "-e", "list"],
      ["--store=s", "--clock", "2026-01-01T08:00Z", "--tz", "UTC", "tour.wcfg"],
      ["--seed", "7", "--unit", "lb", "--format", "json", "--color", "never", "-"],
      ["--clock", "-3d", "--echo", "--keep-going", "--force", "a.wcfg", "b.wcfg"],
      ["-e", "log 70kg; list", "--tz=Europe/Berlin", "--format=csv"],
      ["--memory", "--shorthand", "-e", "log 70kg", "--force"],
    ]
    for arguments in cases {
      let fast = try #require(fastRun(arguments), "\(arguments)")
      #expect(fast == parsed(arguments), "\(arguments)")
    }
  }

  @Test func checksThatFailAreLeftToTheParser() {
    // Read, but refused by the checks: the parser words the error.
    for arguments in [
      ["--seed", "-1"], ["--unit", "g"], ["--tz", "Mars/Base"], ["--clock", "x"],
    ] {
      #expect(RunArguments.fast(arguments) != nil && fastRun(arguments) == nil)
      #expect(parsed(arguments) == nil)
    }
  }

  @Test func everythingElseIsLeftToTheParser() {
    let cases: [[String]] = [
      ["--help"], ["-h"], ["--version"], ["help"], ["help", "log"], ["check"],
      ["test", "Tests/golden"], ["run", "-e", "list"], ["completion", "bash"],
      ["a.wcfg", "check"], ["--memory", "--memory"], ["--store", "a", "--store", "b"],
      ["-e"], ["-e", "--memory"], ["--store", "--memory"], ["--tz"], ["--echo=yes"],
      ["--unknown"], ["-x"], ["--", "a.wcfg"], ["-3d"],
    ]
    for arguments in cases {
      #expect(RunArguments.fast(arguments) == nil, "\(arguments)")
    }
  }

  /// Random argument lists from the words the two readers tell apart: the fast reading, when
  /// there is one, is the parser's.
  @Test func randomArgumentListsAgree() throws {
    let words = [
      "--memory", "--keep-going", "--echo", "--force", "-e", "--store", "--clock", "--seed",
      "--tz", "--unit", "--format", "--color", "--store=x", "--unit=kg", "--format=json",
      "log 70kg", "list", "a.wcfg", "-", "-1", "--", "check", "help", "UTC", "lb", "7",
      "--help", "-ee", "--echo=1", "", "--shorthand",
    ]
    var generator = SystemRandomNumberGenerator()
    var agreed = 0
    for _ in 0..<1000 {
      let count = Int.random(in: 0...6, using: &generator)
      let arguments = (0..<count).map { _ in words.randomElement(using: &generator)! }
      guard let fast = fastRun(arguments) else { continue }
      #expect(fast == parsed(arguments), "\(arguments)")
      agreed += 1
    }
    // Enough of the lists are plain runs for the comparison to mean something.
    #expect(agreed > 100)
  }
}
