import Foundation
import Testing

/// The built binary, run as a user runs it.
@Suite struct CommandLineTests {
  @Test func versionAndHelp() throws {
    let version = try WeighProcess.run(["--version"])
    #expect(version.status == 0)
    #expect(version.standardOutput.hasPrefix("0."))
    let help = try WeighProcess.run(["--help"])
    #expect(help.standardOutput.contains("--keep-going"))
    #expect(help.standardOutput.contains("test"))
  }

  @Test func commandsFromDashE() throws {
    let result = try WeighProcess.run(
      ["--memory", "--clock", "2026-01-01T08:00Z", "--tz", "UTC", "-e", "log 68.5kg", "-e", "list"])
    #expect(result.status == 0)
    #expect(
      result.standardOutput
        == "#1 2026-01-01 08:00 68.5 kg\n#1  2026-01-01 08:00  68.5 kg  manual  weigh\n")
  }

  @Test func formatFlagPrintsJSONLinesOrCSV() throws {
    let script = ["-e", "log 68.5kg at 07:00 note \"a, b\"", "-e", "log 68.25kg", "-e", "list"]
    let base = ["--memory", "--clock", "2026-01-01T08:00Z", "--tz", "Europe/Berlin"]
    let json = try WeighProcess.run(base + ["--format", "json"] + script)
    #expect(json.status == 0)
    let rows = json.standardOutput.split(separator: "\n").map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
    #expect(rows.count == 4)
    #expect(rows.allSatisfy { $0 != nil })
    #expect(rows[2]?["time"] as? String == "2026-01-01T06:00:00Z")
    #expect(rows[3]?["weight_kg"] as? Double == 68.25)
    #expect(rows[2]?["note"] as? String == "a, b")
    let csv = try WeighProcess.run(base + ["--format", "CSV"] + script)
    #expect(csv.status == 0)
    let lines = csv.standardOutput.split(separator: "\n")
    #expect(
      lines.suffix(3) == [
        "id,time,weight_kg,origin,source,note,revision",
        "1,2026-01-01T06:00:00Z,68.5,manual,weigh,\"a, b\",1",
        "2,2026-01-01T08:00:00Z,68.25,manual,weigh,,1",
      ])
    let bad = try WeighProcess.run(["--format", "yaml", "--memory", "-e", "list"])
    #expect(bad.status == 64)
    #expect(bad.standardError.contains("--format takes text, json or csv; got 'yaml'"))
  }

  @Test func aFailedCommandStopsTheScriptWithStatusOne() throws {
    let result = try WeighProcess.run(["--memory", "-e", "log heavy", "-e", "echo after"])
    #expect(result.status == 1)
    #expect(
      result.standardError.hasPrefix(
        "-e:1:5: error: expected a weight such as 68.5kg, got \"heavy\""))
    #expect(!result.standardOutput.contains("after"))
    let going = try WeighProcess.run([
      "--memory", "--keep-going", "-e", "log heavy", "-e", "echo after",
    ])
    #expect(going.status == 1)
    #expect(going.standardOutput == "after\n")
  }

  @Test func badFlagIsAUsageError() throws {
    #expect(try WeighProcess.run(["--no-such-flag"]).status == 64)
    #expect(try WeighProcess.run(["--unit", "furlong", "--memory", "-e", "now"]).status == 64)
    #expect(try WeighProcess.run(["--tz", "Mars/Base", "--memory", "-e", "now"]).status == 64)
  }

  @Test func unreadableScriptIsStatus66() throws {
    let result = try WeighProcess.run(["--memory", "no-such-script.wcfg"])
    #expect(result.status == 66)
    #expect(result.standardError.contains("no-such-script.wcfg"))
  }

  @Test func pipedStdinHasNoPromptAndNoEcho() throws {
    let result = try WeighProcess.run(
      ["--memory", "--clock", "2026-01-01T08:00Z", "--tz", "UTC"],
      input: "log 70kg\nexpect entries == 1\n")
    #expect(result.status == 0)
    #expect(result.standardOutput == "#1 2026-01-01 08:00 70.0 kg\n")
    #expect(result.standardError.isEmpty)
  }

  @Test func storePersistsBetweenRuns() throws {
    let store = WeighProcess.temporaryDirectory()
    let first = try WeighProcess.run([
      "--store", store, "-e", "log 70kg at 2026-01-01 07:00", "-e", "set unit lb",
    ])
    #expect(first.status == 0)
    let second = try WeighProcess.run([
      "--store", store, "--tz", "UTC", "-e", "list", "-e", "expect entries == 1",
    ])
    #expect(second.status == 0)
    #expect(second.standardOutput.contains("154.3 lb"))
  }

  @Test func theZoneFromTZKeepsTheNameGiven() throws {
    // Foundation calls TZ=UTC "GMT"; the session's zone is the name the user set.
    for (tz, shown) in [("UTC", "UTC"), (":Europe/Berlin", "Europe/Berlin")] {
      let result = try WeighProcess.run(
        ["--memory", "-e", "settings"], environment: ["TZ": tz])
      #expect(result.status == 0)
      #expect(result.standardOutput.contains("tz               \(shown)\n"), "TZ=\(tz)")
    }
  }

  @Test func defaultStoreComesFromTheEnvironment() throws {
    let store = WeighProcess.temporaryDirectory() + "/nested/store"
    let result = try WeighProcess.run(["-e", "log 70kg"], environment: ["WEIGH_STORE": store])
    #expect(result.status == 0)
    #expect(FileManager.default.fileExists(atPath: store))
    let again = try WeighProcess.run(
      ["-e", "expect entries == 1"], environment: ["WEIGH_STORE": store])
    #expect(again.status == 0)
  }

  @Test func goldenRunnerPassesFailsAndRecords() throws {
    let folder = WeighProcess.temporaryDirectory()
    try "log 70kg\nlist\n".write(toFile: folder + "/a.wcfg", atomically: true, encoding: .utf8)
    try "#1 2026-01-01 08:00 70.0 kg\n#1  2026-01-01 08:00  70.0 kg  manual  weigh\n"
      .write(toFile: folder + "/a.out", atomically: true, encoding: .utf8)
    try "echo hi\n".write(toFile: folder + "/b.wcfg", atomically: true, encoding: .utf8)
    try "ho\n".write(toFile: folder + "/b.out", atomically: true, encoding: .utf8)
    let run = try WeighProcess.run(["test", folder])
    #expect(run.status == 1)
    #expect(run.standardOutput.contains("PASS \(folder)/a.wcfg"))
    #expect(run.standardOutput.contains("FAIL \(folder)/b.wcfg"))
    #expect(run.standardOutput.contains("-ho\n+hi"))
    #expect(run.standardOutput.hasSuffix("1 passed, 1 failed\n"))
    let update = try WeighProcess.run(["test", "--update", folder])
    #expect(update.status == 1)
    #expect(update.standardOutput.contains("UPDATED \(folder)/b.wcfg"))
    let after = try WeighProcess.run(["test", folder])
    #expect(after.status == 0)
    #expect(after.standardOutput.hasSuffix("2 passed, 0 failed\n"))
  }

  @Test func includePathsAreRelativeToTheScript() throws {
    let folder = WeighProcess.temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: folder + "/lib", withIntermediateDirectories: true)
    try "include lib/part.wcfg\necho done\n".write(
      toFile: folder + "/main.wcfg", atomically: true, encoding: .utf8)
    try "echo part\n".write(toFile: folder + "/lib/part.wcfg", atomically: true, encoding: .utf8)
    let result = try WeighProcess.run(["--memory", folder + "/main.wcfg"], directory: "/")
    #expect(result.status == 0)
    #expect(result.standardOutput == "part\ndone\n")
  }

  @Test func aReopenedStoreCatchesUpOnSimulations() throws {
    let store = WeighProcess.temporaryDirectory()
    // Started a week ago on a virtual clock; reopened now, on the wall clock.
    let weekAgo = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-7 * 86_400))
    let start = try WeighProcess.run(
      ["--store", store, "--clock", weekAgo, "-e", "simulate scale every 1d start 70kg"])
    #expect(start.status == 0)
    let reopened = try WeighProcess.run(["--store", store, "-e", "echo first"])
    #expect(reopened.status == 0)
    let lines = reopened.standardOutput.split(separator: "\n")
    #expect(lines.filter { $0.contains("scale wrote") }.count >= 6)
    #expect(lines.contains { $0.hasPrefix("caught up: ") })
    #expect(lines.last == "first")
    let again = try WeighProcess.run(["--store", store, "-e", "echo second"])
    #expect(!again.standardOutput.contains("caught up"))
  }

  @Test func catchingUpDeliversToTheObserverTheAppRegistersAtStart() throws {
    let store = WeighProcess.temporaryDirectory()
    let weekAgo = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-7 * 86_400))
    let start = try WeighProcess.run([
      "--store", store, "--clock", weekAgo, "-e", "observe on", "-e", "app background", "-e",
      "simulate scale every 1d start 70kg",
    ])
    #expect(start.status == 0)
    let reopened = try WeighProcess.run(["--store", store, "-e", "sync status"])
    #expect(reopened.status == 0)
    let lines = reopened.standardOutput.split(separator: "\n")
    let written = lines.filter { $0.contains("scale wrote") }.count
    #expect(written >= 6)
    // Each reading woke the app in the background, and its handler synced it.
    #expect(
      lines.filter { $0.contains("delivery #") && $0.contains("imported 1") }.count == written)
    #expect(!lines.contains { $0.contains("wake lost") })
    #expect(lines.contains("entries    \(written) (manual 0, health \(written), import 0)"))
  }
}
