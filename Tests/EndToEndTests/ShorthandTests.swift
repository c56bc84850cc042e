import Foundation
import Testing

/// Options anywhere, shorthand commands, clock words, `;`, `-` and `--echo`, as a user types
/// them.
@Suite struct ShorthandTests {
  static let fixedClock = ["--clock", "2026-01-01T08:00Z", "--tz", "UTC"]

  /// `2026-01-03`: the UTC date `days` from today on the wall clock.
  func utcDate(daysFromToday days: Int) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = calendar.date(byAdding: .day, value: days, to: Date())!
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
  }

  @Test func clockWordsAreReadAgainstTheWallClock() throws {
    // Run twice around each check, so a run across midnight still finds its day.
    for (words, days, time) in [
      ("today", 0, "00:00:00"), ("yesterday", -1, "00:00:00"), ("07:30", 0, "07:30:00"),
      ("today 07:30", 0, "07:30:00"),
    ] {
      let before = utcDate(daysFromToday: days)
      let result = try WeighProcess.run(["--memory", "--tz", "UTC", "--clock", words, "-e", "now"])
      let after = utcDate(daysFromToday: days)
      #expect(result.status == 0)
      #expect(
        ["\(before) \(time) UTC\n", "\(after) \(time) UTC\n"].contains(result.standardOutput),
        "--clock \(words)")
    }
    let threeDaysAgo = try WeighProcess.run([
      "--memory", "--tz", "UTC", "--clock", "-3d", "-e", "now",
    ])
    #expect(threeDaysAgo.status == 0)
    #expect(threeDaysAgo.standardOutput.hasPrefix(utcDate(daysFromToday: -3)))
    let bad = try WeighProcess.run(["--memory", "--clock", "tomorrow", "-e", "now"])
    #expect(bad.status == 64)
    #expect(bad.standardError.contains("cannot read --clock 'tomorrow'"))
    #expect(bad.standardOutput.isEmpty)
    // The usage is weigh's, not that of the `run` the user never typed.
    #expect(
      bad.standardError.hasSuffix(
        "\nUsage: weigh [<options>] [<file.wcfg> | - ...] [-e <command> ...]\n"
          + "       weigh [<options>] <command> [<argument> ...]\n"
          + "  See 'weigh --help' for more information.\n"))
    let typedRun = try WeighProcess.run(["run", "--memory", "--clock", "tomorrow", "-e", "now"])
    #expect(typedRun.status == 64)
    #expect(typedRun.standardError.contains("Usage: weigh run"))
  }

  @Test func clockWordsUseTheStoredZone() throws {
    let store = WeighProcess.temporaryDirectory() + "/store"
    #expect(try WeighProcess.run(["--store", store, "-e", "set tz Asia/Tokyo"]).status == 0)
    let result = try WeighProcess.run(["--store", store, "--clock", "today 07:30", "-e", "now"])
    #expect(result.status == 0)
    #expect(result.standardOutput.hasSuffix(" 07:30:00 Asia/Tokyo\n"))
  }

  @Test func optionsMayStandBeforeOrAfterTheSubcommand() throws {
    let store = WeighProcess.temporaryDirectory() + "/store"
    #expect(try WeighProcess.run(["--store", store, "-e", "log 70kg"]).status == 0)
    for arguments in [["--store", store, "check"], ["check", "--store", store]] {
      let check = try WeighProcess.run(arguments)
      #expect(check.status == 0, "\(arguments)")
      #expect(check.standardOutput.contains("ok"))
    }
    let folder = WeighProcess.temporaryDirectory()
    try "echo hi\n".write(toFile: folder + "/hi.wcfg", atomically: true, encoding: .utf8)
    try "hi\n".write(toFile: folder + "/hi.out", atomically: true, encoding: .utf8)
    let test = try WeighProcess.run(["--memory", "test", folder])
    #expect(test.status == 0)
    #expect(test.standardOutput.hasSuffix("1 passed, 0 failed\n"))
    let script = try WeighProcess.run([folder + "/hi.wcfg", "--memory", "--echo"])
    #expect(script.standardOutput == "echo hi\nhi\n")
  }

  @Test func aCommandNameRunsOneCommand() throws {
    let store = WeighProcess.temporaryDirectory() + "/store"
    let base = ["--store", store] + Self.fixedClock
    let logged = try WeighProcess.run(base + ["log", "70.2kg", "note", "after run"])
    #expect(logged.status == 0)
    #expect(logged.standardOutput == "#1 2026-01-01 08:00 70.2 kg\n")
    #expect(try WeighProcess.run(base + ["log", "70kg", "at", "-2h"]).status == 0)
    let listed = try WeighProcess.run(["list", "last", "5"] + base)
    #expect(listed.status == 0)
    #expect(
      listed.standardOutput
        == "#2  2026-01-01 06:00  70.0 kg  manual  weigh\n"
        + "#1  2026-01-01 08:00  70.2 kg  manual  weigh  \"after run\"\n")
    let then = try WeighProcess.run(base + ["-e", "echo first", "delete", "#2", "-e", "list"])
    #expect(then.status == 0)
    #expect(
      then.standardOutput
        == "first\ndeleted #2 2026-01-01 06:00 70.0 kg\n"
        + "#1  2026-01-01 08:00  70.2 kg  manual  weigh  \"after run\"\n")
    #expect(try WeighProcess.run(base + ["undo"]).status == 1)
    let trend = try WeighProcess.run(["trend"] + base)
    #expect(trend.standardOutput.hasPrefix("trend: "))
    // A weight far from any body weight needs --force, after the command too.
    let grams = try WeighProcess.run(base + ["log", "70g"])
    #expect(grams.status == 1)
    #expect(grams.standardError.contains("did you mean 70kg?"))
    // Errors of shorthand name the command line, not an `-e` nobody typed.
    let typo = try WeighProcess.run(base + ["log", "70kgg"])
    #expect(typo.status == 1)
    #expect(
      typo.standardError
        == "command line:1:5: error: unknown unit \"kgg\" in \"70kgg\"; expected a weight such as 68.5kg\n"
        + "log 70kgg\n    ^^^^^\n")
    let typed = try WeighProcess.run(base + ["-e", "log 70kgg"])
    #expect(typed.standardError.hasPrefix("-e:1:5: error: unknown unit"))
    let forced = try WeighProcess.run(base + ["log", "70g", "--force"])
    #expect(forced.status == 0)
    #expect(forced.standardError.contains("warning: 0.1 kg is outside the usual 20–350 kg"))
  }

  @Test func anExistingFileWinsOverACommandName() throws {
    let folder = WeighProcess.temporaryDirectory()
    try "echo from the file\n".write(toFile: folder + "/list", atomically: true, encoding: .utf8)
    let result = try WeighProcess.run(["--memory", "list"], directory: folder)
    #expect(result.status == 0)
    #expect(result.standardOutput == "from the file\n")
  }

  @Test func neitherFileNorCommandSuggestsTheCommand() throws {
    let result = try WeighProcess.run(["--memory", "lst"])
    #expect(result.status == 66)
    #expect(
      result.standardError
        == "error: cannot read script lst: no such file; did you mean the command \"weigh list\"?\n"
    )
  }

  @Test func semicolonsDashAndEcho() throws {
    let both = try WeighProcess.run(
      ["--memory"] + Self.fixedClock + ["-e", "log 70kg; log 71kg at 07:00; list"])
    #expect(both.status == 0)
    #expect(both.standardOutput.split(separator: "\n").count == 4)
    let folder = WeighProcess.temporaryDirectory()
    try "echo from the file\n".write(toFile: folder + "/a.wcfg", atomically: true, encoding: .utf8)
    let stdin = try WeighProcess.run(
      ["--memory", folder + "/a.wcfg", "-"], input: "echo from stdin; echo again\n")
    #expect(stdin.status == 0)
    #expect(stdin.standardOutput == "from the file\nfrom stdin\nagain\n")
    let echoed = try WeighProcess.run(
      ["--memory", "--echo"] + Self.fixedClock + ["-e", "echo hi; now"])
    #expect(echoed.standardOutput == "echo hi\nhi\nnow\n2026-01-01 08:00:00 UTC\n")
  }
}
