import Foundation
import Testing

/// The REPL holds the store's lock only while a command runs (other processes read and
/// write between its commands, and it sees what they committed), and a failed command
/// leaves every byte of the store as it was.
@Suite struct StoreLockingTests {
  /// A REPL on a directory store, on the virtual clock.
  func startRepl(store: String) throws -> PseudoTerminal {
    try PseudoTerminal(
      PseudoTerminal.builtProduct(named: "weigh"),
      arguments: ["--store", store, "--clock", "2026-01-01T08:00Z", "--tz", "UTC"],
      environment: ["WEIGH_HISTORY": "", "NO_COLOR": "1"])
  }

  @Test func anotherProcessUsesTheStoreWhileTheReplIsOpen() throws {
    let store = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let repl = try startRepl(store: store)
    try repl.expect("weigh> ")
    try repl.send("log 70kg at 07:00\r")
    #expect(try repl.expect("weigh> ").contains("#1 2026-01-01 07:00 70.0 kg"))

    // The REPL waits for its next line; a second process neither waits nor fails.
    let other = try WeighProcess.run(
      [
        "--store", store, "--clock", "2026-01-01T09:00Z", "--tz", "UTC", "-e", "log 69.5kg", "-e",
        "list",
      ])
    #expect(other.status == 0, "\(other.standardError)")
    #expect(other.standardOutput.contains("#2 2026-01-01 09:00 69.5 kg"))
    #expect(other.standardOutput.contains("#1  2026-01-01 07:00  70.0 kg"))

    // The REPL's next command sees the other process's entry, and numbers go on from it.
    try repl.send("list\r")
    let listed = try repl.expect("weigh> ")
    #expect(listed.contains("#2  2026-01-01 09:00  69.5 kg"))
    try repl.send("log 69kg at 07:30\r")
    #expect(try repl.expect("weigh> ").contains("#3 2026-01-01 07:30 69.0 kg"))
    // Its undo history was dropped: undoing now would overwrite the other process's work.
    try repl.send("undo\r")
    #expect(try repl.expect("weigh> ").contains("undid log #3"))
    try repl.send("undo\r")
    #expect(try repl.expect("weigh> ").contains("nothing to undo: another process changed"))
    try repl.send("quit\r")
    #expect(try repl.waitForExit() == .exited(0))

    let after = try WeighProcess.run(["--store", store, "-e", "expect entries == 2"])
    #expect(after.status == 0, "\(after.standardError)")
  }

  @Test func theReplSaysSoWhileItWaitsForTheLock() throws {
    let store = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let repl = try startRepl(store: store)
    try repl.expect("weigh> ")
    // A headless run holds the lock for its whole run: here, until its stdin closes.
    let holder = try RunningWeigh(
      ["--store", store, "--clock", "2026-01-01T08:00Z"], keepStandardInputOpen: true)
    try Self.waitForLock(in: store, heldBy: holder.processIdentifier)
    try repl.send("list\r")
    let waited = try repl.expect("weigh> ")
    #expect(waited.contains("warning: store \(store) is in use by process"))
    #expect(waited.contains("waiting up to 5 s for it to finish"))
    #expect(waited.contains("error: store \(store) is in use by process"))
    // A REPL started meanwhile says so too, then gives up.
    let late = try startRepl(store: store)
    let startup = try late.expect("waiting up to 5 s for it to finish")
    #expect(startup.contains("warning: store \(store) is in use by process"))
    #expect(try late.waitForExit() == .exited(1))
    try holder.closeInput()
    #expect(holder.waitForExit() == .exited(0))
    try repl.send("log 70kg\r")
    #expect(try repl.expect("weigh> ").contains("#1 2026-01-01 08:00 70.0 kg"))
    try repl.send(PseudoTerminal.controlD)
    #expect(try repl.waitForExit() == .exited(0))
  }

  /// Waits (a minute at most) until `weigh.lock` names `pid`: the lock is taken then.
  static func waitForLock(in store: String, heldBy pid: Int32) throws {
    for _ in 0..<60_000 {
      let text = try? String(contentsOfFile: store + "/weigh.lock", encoding: .utf8)
      if text?.split(separator: "\n").first == "\(pid)" { return }
      usleep(1_000)
    }
    Issue.record("process \(pid) did not take the lock")
  }

  // MARK: A failed command changes nothing

  /// Every file of the store except the lock file (which names its latest holder).
  static func snapshot(_ store: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: store)
    where name != "weigh.lock" {
      files[name] = try Data(contentsOf: URL(fileURLWithPath: store + "/" + name))
    }
    return files
  }

  /// Runs `setup` on a fresh store, then the commands `failing` in one process, and checks
  /// that it ended with `status`, reported `message`, and changed no byte of the store.
  func expectNoChange(
    setup: [String], failing: [String], message: String, status: Int32 = 1,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let store = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let options = ["--store", store, "--clock", "2026-01-01T08:00Z", "--tz", "UTC"]
    if !setup.isEmpty {
      let prepared = try WeighProcess.run(options + setup.flatMap { ["-e", $0] })
      #expect(prepared.status == 0, "\(prepared.standardError)", sourceLocation: sourceLocation)
    }
    let before = try Self.snapshot(store)
    let result = try WeighProcess.run(options + failing.flatMap { ["-e", $0] })
    #expect(result.status == status, sourceLocation: sourceLocation)
    #expect(
      result.standardError.contains(message), "\(result.standardError)",
      sourceLocation: sourceLocation)
    #expect(result.standardError.contains("-e:"), "a position", sourceLocation: sourceLocation)
    let after = try Self.snapshot(store)
    #expect(Set(after.keys) == Set(before.keys), sourceLocation: sourceLocation)
    for (name, bytes) in before {
      #expect(after[name] == bytes, "\(failing) changed \(name)", sourceLocation: sourceLocation)
    }
  }

  @Test func observeOnWithHealthUnavailableWritesNothing() throws {
    try expectNoChange(
      setup: ["health available no"], failing: ["observe on"],
      message: "Health refused to register the observer: health data is not available")
  }

  @Test func healthDeleteOfNoSampleWritesNothing() throws {
    // Health was never used: its one-time setup is not written either.
    try expectNoChange(
      setup: ["log 70kg"], failing: ["health delete ffff"],
      message: "no live sample starts with ffff")
  }

  @Test func failedCommandsAfterHealthIsSetUpWriteNothing() throws {
    let setup = [
      "health add 70kg at 07:00 source Withings", "set autopush on", "log 69kg at 07:30",
    ]
    try expectNoChange(
      setup: setup, failing: ["health delete ffff"], message: "no live sample starts with ffff")
    // `try` reports the failure and goes on; the failed command still wrote nothing.
    try expectNoChange(
      setup: setup, failing: ["try health delete ffff", "expect health.samples == 2"],
      message: "no live sample starts with ffff", status: 0)
    try expectNoChange(
      setup: setup, failing: ["fault sync fail 1", "sync"], message: "sync failed")
    try expectNoChange(
      setup: setup, failing: ["health add 70kg at 23:00"],
      message: "cannot add a sample in the future")
    try expectNoChange(
      setup: setup + ["set autopush off", "log 68kg at 07:45", "health available no"],
      failing: ["sync push"], message: "health data is not available")
    try expectNoChange(
      setup: setup + ["app lock"], failing: ["sync"], message: "the device is locked")
  }

  @Test func autopushFailuresKeepTheEntryAndFailTheCommand() throws {
    let store = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let options = ["--store", store, "--clock", "2026-01-01T08:00Z", "--tz", "UTC"]
    let cases = [
      ("health available no", "health data is not available on this device (code 1"),
      ("health auth write deny", "writing bodyMass is denied"),
      ("health auth write reset", "writing bodyMass is not determined"),
    ]
    #expect(try WeighProcess.run(options + ["-e", "set autopush on"]).status == 0)
    for (number, (setup, reason)) in cases.enumerated() {
      let id = number + 1
      let result = try WeighProcess.run(
        options + ["-e", setup, "-e", "log 70kg", "-e", "echo after"])
      #expect(result.status == 1)
      #expect(result.standardOutput.contains("#\(id) 2026-01-01 08:00 70.0 kg"))
      #expect(!result.standardOutput.contains("after"), "a script stops at the failure")
      #expect(
        result.standardError.contains(
          "-e:2:1: error: logged #\(id), but Health refused to save it: \(reason)"),
        "\(result.standardError)")
      #expect(result.standardError.contains("the entry is kept and waits for sync push"))
      let restore = try WeighProcess.run(
        options + ["-e", "health available yes", "-e", "health auth write allow"])
      #expect(restore.status == 0)
    }
    let status = try WeighProcess.run(
      options + [
        "-e", "expect entries == 3", "-e", "sync push", "-e", "expect health.samples == 3",
      ])
    #expect(status.status == 0, "\(status.standardError)")
    #expect(status.standardOutput.contains("pushed 3 new, 0 updated, 0 deleted"))
  }
}
