import Foundation
import Testing

/// Files weigh writes, exit statuses, limits and escaping, through the built binary.
@Suite struct FileSafetyTests {
  static let clock = ["--clock", "2026-01-01T08:00Z", "--tz", "UTC"]

  // MARK: Exit statuses

  @Test func exitStatusesFollowTheTable() throws {
    let folder = WeighProcess.temporaryDirectory()
    #expect(try WeighProcess.run(["--memory", "-e", "now"]).status == 0)
    #expect(try WeighProcess.run(["--memory", "-e", "delete #9"]).status == 1)
    #expect(try WeighProcess.run(["--memory", "--no-such-flag"]).status == 64)
    #expect(try WeighProcess.run(["--memory", folder + "/missing.wcfg"]).status == 66)
    #expect(try WeighProcess.run(["--memory", folder]).status == 66)
    let store = folder + "/store"
    #expect(try WeighProcess.run(["--store", store, "-e", "log 70kg"]).status == 0)
    try Data("not json".utf8).write(to: URL(fileURLWithPath: store + "/weigh.json"))
    #expect(try WeighProcess.run(["--store", store, "-e", "list"]).status == 65)
  }

  /// `import` of a pipe must not wait for a writer: it is refused (66) before it is opened.
  /// Should weigh open it anyway, a helper thread opens the other end, so the test cannot hang
  /// and says what happened.
  @Test func importingAPipeIsRefusedWithoutWaiting() throws {
    let folder = WeighProcess.temporaryDirectory()
    let fifo = folder + "/weights.csv"
    try #require(mkfifo(fifo, 0o644) == 0)
    final class Unblocker: @unchecked Sendable {
      let lock = NSLock()
      var done = false
      var openedByWeigh = false
    }
    let unblocker = Unblocker()
    let thread = Thread {
      while unblocker.lock.withLock({ !unblocker.done }) {
        // Succeeds only while a reader has the pipe open; closing it gives that reader EOF.
        let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
        if descriptor >= 0 {
          close(descriptor)
          unblocker.lock.withLock { unblocker.openedByWeigh = true }
        }
        usleep(10_000)
      }
    }
    thread.start()
    let run = try WeighProcess.run(["--memory", "-e", "import " + fifo])
    unblocker.lock.withLock { unblocker.done = true }
    #expect(run.status == 66, "\(run.standardError)")
    #expect(
      run.standardError.contains(
        "cannot read \(fifo): it is a pipe, not a regular file; save what it holds to a file"),
      "\(run.standardError)")
    #expect(unblocker.lock.withLock { !unblocker.openedByWeigh })
  }

  @Test func aNegativeSeedSaysWhatIsExpected() throws {
    let result = try WeighProcess.run(["--memory", "--seed", "-1", "-e", "now"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("--seed takes a whole number from 0"))
    #expect(result.standardError.contains("got '-1'"))
    #expect(!result.standardError.contains("Missing value"))
    let unit = try WeighProcess.run(["--memory", "--unit", "furlong", "-e", "now"])
    #expect(unit.status == 64)
    #expect(unit.standardError.contains("--unit takes kg, lb or st; got 'furlong'"))
    let color = try WeighProcess.run(["--memory", "--color", "-e", "now"])
    #expect(color.status == 64)
    #expect(color.standardError.contains("--color takes auto, always or never; got '-e'"))
  }

  @Test func aScriptThatIsNotUTF8IsRefusedWithItsPosition() throws {
    let folder = WeighProcess.temporaryDirectory()
    let script = folder + "/latin1.wcfg"
    try Data([UInt8]("echo first\nlog 70kg note \"caf".utf8) + [0xE9] + [UInt8]("\"\n".utf8))
      .write(to: URL(fileURLWithPath: script))
    let result = try WeighProcess.run(["--memory", script])
    #expect(result.status == 66)
    #expect(result.standardError.contains("latin1.wcfg:2:"))
    #expect(result.standardError.contains("byte 0xE9 at byte offset 18 of line 2"))
    // Nothing of the script ran.
    #expect(result.standardOutput.isEmpty)
  }

  @Test func stdinThatIsNotUTF8FailsAtItsLine() throws {
    let process = try WeighProcess.runBytes(
      ["--memory"] + Self.clock, input: [UInt8]("echo one\necho t".utf8) + [0xFF] + [0x0A])
    #expect(process.status == 66)
    #expect(process.standardOutput == "one\n")
    #expect(process.standardError.hasPrefix("<stdin>:2:7: error: not UTF-8: byte 0xFF"))
  }

  // MARK: Writing files

  @Test func exportRefusesEveryPathIntoTheStoreAndLeavesItAlone() throws {
    let folder = WeighProcess.temporaryDirectory()
    let store = folder + "/store"
    #expect(
      try WeighProcess.run(["--store", store, "-e", "log 70kg", "-e", "log 71kg"]).status == 0)
    let before = try Self.contents(of: store)
    symlink(store, folder + "/link-to-store")
    for target in [
      store + "/journal.jsonl", store + "/weigh.json", store + "/new.csv",
      folder + "/store/../store/journal.jsonl", folder + "/link-to-store/journal.jsonl",
    ] {
      let result = try WeighProcess.run(["--store", store, "-e", "export \"\(target)\" as json"])
      #expect(result.status == 1, "\(target)")
      #expect(result.standardError.contains("it is inside a store folder"), "\(target)")
    }
    // Any folder holding a store is refused, also to a session that does not use it.
    let other = try WeighProcess.run(["--memory", "-e", "export \"\(store)/x.csv\""])
    #expect(other.status == 1)
    #expect(other.standardError.contains("it is inside a store folder"))
    // A relative path from inside the store, too.
    let relative = try WeighProcess.run(
      ["--store", store, "-e", "export journal.jsonl as csv"], directory: store)
    #expect(relative.status == 1)
    #expect(try Self.contents(of: store) == before)
    let list = try WeighProcess.run(["--store", store, "-e", "expect entries == 2"])
    #expect(list.status == 0)
  }

  @Test func aSymbolicLinkIsWrittenThroughAndKept() throws {
    let folder = WeighProcess.temporaryDirectory()
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: folder + "/real.csv"))
    #expect(symlink("real.csv", folder + "/link.csv") == 0)
    let result = try WeighProcess.run(
      ["--memory"] + Self.clock + ["-e", "log 70kg", "-e", "export link.csv"], directory: folder)
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("exported 1 entry to link.csv (replaced the old file)"))
    let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/link.csv")
    #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
    let written = try String(contentsOfFile: folder + "/real.csv", encoding: .utf8)
    #expect(written.hasPrefix("id,instant,kilograms"))
  }

  @Test func anExistingFileIsReplacedWholeKeepingItsPermissions() throws {
    let folder = WeighProcess.temporaryDirectory()
    let target = folder + "/weights.csv"
    try Data("old contents\n".utf8).write(to: URL(fileURLWithPath: target))
    #expect(chmod(target, 0o600) == 0)
    var status = stat()
    #expect(stat(target, &status) == 0)
    let oldInode = status.st_ino
    let result = try WeighProcess.run(
      ["--memory"] + Self.clock + ["-e", "log 70kg", "-e", "export \(target)"])
    #expect(result.status == 0)
    #expect(stat(target, &status) == 0)
    // A new file was renamed into place (a new inode), never the old one truncated.
    #expect(status.st_ino != oldInode)
    #expect(status.st_mode & 0o777 == 0o600)
    #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("id,instant"))
    // No temporary file is left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["weights.csv"])
  }

  @Test func aFailedWriteLeavesTheOldFile() throws {
    let folder = WeighProcess.temporaryDirectory()
    let target = folder + "/chart.svg"
    try Data("old chart\n".utf8).write(to: URL(fileURLWithPath: target))
    // A folder cannot be written as a file; a device is written in place, never replaced.
    let result = try WeighProcess.run(
      ["--memory"] + Self.clock + [
        "--keep-going", "-e", "log 70kg", "-e", "export \(folder) as csv", "-e",
        "export /dev/full as csv", "-e", "export /dev/null as csv",
      ])
    #expect(result.status == 1)
    #expect(result.standardError.contains("it is a folder"))
    #expect(result.standardError.contains("the disk is full"))
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "old chart\n")
    var status = stat()
    #expect(stat("/dev/full", &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFCHR)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["chart.svg"])
  }

  @Test func dashWritesToStandardOutputAndNoFileNamedDash() throws {
    let folder = WeighProcess.temporaryDirectory()
    let result = try WeighProcess.run(
      ["--memory"] + Self.clock + ["-e", "log 70kg", "-e", "export - as csv"], directory: folder)
    #expect(result.status == 0)
    #expect(
      result.standardOutput
        == "#1 2026-01-01 08:00 70.0 kg\n" + "id,instant,kilograms,origin,source,note,revision,"
        + "health_uuid,pushed_uuid,pushed_revision\n"
        + "1,2026-01-01T08:00:00Z,70.0,manual,\"weigh\",,1,,,\n")
    #expect(!FileManager.default.fileExists(atPath: folder + "/-"))
  }

  @Test func devStdoutIsWrittenInPlaceInOrder() throws {
    let result = try WeighProcess.run(
      ["--memory"] + Self.clock + [
        "-e", "log 70kg", "-e", "export /dev/stdout as json", "-e", "echo end",
      ])
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == "#1 2026-01-01 08:00 70.0 kg")
    #expect(lines.dropFirst().first?.hasPrefix("{\"format\": \"weigh\"") == true)
    #expect(lines.suffix(2) == ["exported 1 entry to /dev/stdout", "end"])
  }

  // MARK: Output

  @Test func controlCharactersNeverReachTheTerminalRaw() throws {
    let escape = "\u{1B}"
    let result = try WeighProcess.run(
      ["--memory"] + Self.clock + [
        "--keep-going", "-e", "log 70kg note \"a\(escape)]0;title\u{7}b\"", "-e", "list", "-e",
        "health add 70kg source \"X\(escape)[2J\"", "-e", "health list", "-e",
        "log 70\(escape)[2J",
      ])
    #expect(!result.standardOutput.contains(escape))
    #expect(!result.standardError.contains(escape))
    #expect(result.standardOutput.contains("\"a\\u{1B}]0;title\\u{7}b\""))
    #expect(result.standardOutput.contains("X\\u{1B}[2J"))
    #expect(result.standardError.contains("log 70\\u{1B}[2J"))
  }

  @Test func colourOnlyWhenAskedAndNeverWithNoColor() throws {
    let always = try WeighProcess.run(["--memory", "--color", "always", "-e", "log 7"])
    #expect(always.standardError.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    let auto = try WeighProcess.run(["--memory", "-e", "log 7"])
    #expect(!auto.standardError.contains("\u{1B}"))
  }

  @Test func eachCommandsOutputIsFlushedWithAStoreOnDisk() throws {
    let folder = WeighProcess.temporaryDirectory()
    let fifo = folder + "/blocks.wcfg"
    #expect(mkfifo(fifo, 0o600) == 0)
    let script = folder + "/script.wcfg"
    // The include blocks on a pipe no one writes to: weigh is stuck after the log.
    try Data("log 70kg\ninclude blocks.wcfg\n".utf8).write(to: URL(fileURLWithPath: script))
    let child = try RunningWeigh(["--store", folder + "/store"] + Self.clock + [script])
    defer {
      child.kill()
      _ = child.waitForExit()
    }
    #expect(child.waitForOutputLines(1))
    #expect(child.outputLines() == ["#1 2026-01-01 08:00 70.0 kg"])
  }

  // MARK: Limits

  @Test func deepNestingAndLongTryChainsAreErrorsNotCrashes() throws {
    let nested =
      String(repeating: "repeat 1 {\n", count: 20_000) + "echo deep\n"
      + String(repeating: "}\n", count: 20_000) + "echo after\n"
    let result = try WeighProcess.run(["--memory", "--keep-going"], input: nested)
    #expect(result.status == 1)
    #expect(
      result.standardError.hasPrefix("<stdin>:65:10: error: repeat blocks nest deeper than 64"))
    #expect(result.standardOutput == "after\n")
    let tries = try WeighProcess.run(
      ["--memory"], input: String(repeating: "try ", count: 4_000) + "now\n")
    #expect(tries.status == 1)
    #expect(tries.standardError.contains("more than 8 try in a row"))
    let long = try WeighProcess.run(
      ["--memory"], input: "echo " + String(repeating: "x ", count: 20_000) + "\n")
    #expect(long.status == 1)
    #expect(long.standardError.contains("more than 10000 tokens"))
  }

  // MARK: Helpers

  /// Every file of a store with its bytes, but the lock (which names its latest holder).
  static func contents(of folder: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder)
    where name != "weigh.lock" {
      result[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }
    return result
  }
}
