import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The store's promises (docs/store.md), checked on the built binary: a kill -9 at
/// any moment loses no acknowledged change, two processes on one store lose nothing, and a
/// store that cannot be read is never written to.
///
/// Every test works in its own temporary store. Waits are bounded loops that only keep a
/// hung test from hanging the suite; nothing here measures time.
@Suite struct DurabilityTests {
  // MARK: kill -9

  /// Rounds of logging into one store, each killed at a seeded random moment (or while a
  /// compaction's temporary file exists), then checked from the outside.
  @Test func killAtRandomMomentsLosesNoAcknowledgedEntry() throws {
    let store = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: store) }
    var random = SplitMix64(seed: 0x5EED_D0AB)
    var ledger = LogLedger()
    var compactions = 0
    var sequence = try ManifestProbe.sequence(in: store)

    let rounds = 20
    for round in 0..<rounds {
      let plan: RoundPlan
      if round == rounds - 1 {
        // A last round that runs to its end and writes more than the journal's largest
        // allowed size (1 MiB), so at least one compaction certainly happens.
        plan = RoundPlan(lines: 140, noteBytes: 8_000, kill: .never)
      } else if round % 2 == 1 {
        // Long notes make the journal reach its compaction size within a few lines, and
        // make each compaction rewrite megabytes, so the kill lands at different steps.
        plan = RoundPlan(
          lines: 140, noteBytes: 8_000,
          kill: .duringCompaction(extraMicroseconds: UInt32.random(in: 0..<6_000, using: &random)))
      } else {
        let lines = Int.random(in: 100...800, using: &random)
        plan = RoundPlan(
          lines: lines, noteBytes: 0,
          kill: .afterAcknowledgements(
            Int.random(in: 0...lines, using: &random),
            extraMicroseconds: UInt32.random(in: 0..<3_000, using: &random)))
      }
      let lines = ledger.startRound(count: plan.lines)
      let script = store + "-round.wcfg"
      try plan.scriptText(for: lines).write(toFile: script, atomically: true, encoding: .utf8)
      // Alternate between a script argument and stdin, the two headless ways of feeding weigh.
      let child =
        round % 2 == 0
        ? try RunningWeigh(["--store", store, "--tz", "UTC", script])
        : try RunningWeigh(["--store", store, "--tz", "UTC"], standardInputFile: script)
      plan.kill.perform(on: child, store: store)
      let ending = child.waitForExit()
      let acknowledgements = child.outputLines()
      try? FileManager.default.removeItem(atPath: script)
      if case .never = plan.kill {
        #expect(ending == .exited(0), "round \(round) ended with \(ending)")
      } else {
        #expect(
          ending == .exited(0) || ending == .killed,
          "round \(round) ended with \(ending) before it was killed")
      }

      let listing = try WeighProcess.run(["--store", store, "--tz", "UTC", "-e", "list"])
      try #require(
        listing.status == 0,
        "round \(round): the store no longer opens after kill -9: \(listing.standardError)")
      let entries = try ListedEntry.parse(listing.standardOutput)
      let problems = ledger.problems(
        entries: entries, acknowledgements: acknowledgements, roundRanToEnd: ending == .exited(0))
      for problem in problems.prefix(10) {
        Issue.record("round \(round) (\(plan.kill)): \(problem)")
      }
      // Later rounds would only repeat what went wrong here.
      guard problems.isEmpty else { break }

      let count = try WeighProcess.run(
        ["--store", store, "-e", "expect entries == \(ledger.committedTotal)"])
      #expect(count.status == 0, "round \(round): \(count.standardError)")
      let check = try WeighProcess.run(["check", "--store", store])
      #expect(check.status == 0, "round \(round): weigh check says \(check.standardOutput)")

      let now = try ManifestProbe.sequence(in: store)
      if now != sequence { compactions += 1 }
      sequence = now
    }
    #expect(compactions >= 1, "no round crossed a compaction; the test no longer covers it")
  }

  /// Killing a script of mixed changes (log, edit, delete, settings, undo) leaves the store
  /// exactly as the same session would after some prefix of it, one that covers every
  /// change acknowledged; a fresh store each round, compactions included.
  @Test func killDuringMixedChangesLeavesAPrefixOfThem() throws {
    let folder = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var random = SplitMix64(seed: 0x5EED_3A1D)
    for round in 0..<6 {
      let commands = MixedCommands.make(count: 300, using: &random)
      let store = folder + "/store-\(round)"
      let script = folder + "/round-\(round).wcfg"
      // `echo @k` prints only once command k is done; the failing delete flushes it.
      let text = commands.enumerated().map { "try \($1)\necho @\($0 + 1)\n" + LogLine.flush }
      try text.joined().write(toFile: script, atomically: true, encoding: .utf8)
      let target = Int.random(in: 0...commands.count, using: &random)
      let child = try RunningWeigh(["--store", store, "--tz", "UTC", script])
      child.waitForOutput { MixedCommands.done(in: $0) >= target }
      usleep(UInt32.random(in: 0..<2_000, using: &random))
      child.kill()
      let ending = child.waitForExit()
      #expect(ending == .killed || ending == .exited(0), "round \(round): \(ending)")
      let done = MixedCommands.done(in: child.outputLines())

      let found = try MixedCommands.state(of: ["--store", store], after: [])
      try #require(found.status == 0, "round \(round): the store does not open: \(found.text)")
      let candidates = ending == .exited(0) ? [commands.count] : [done, done + 1]
      var matched = false
      for count in candidates where count <= commands.count {
        let expected = try MixedCommands.state(of: ["--memory"], after: Array(commands[..<count]))
        if expected.text == found.text {
          matched = true
          break
        }
      }
      #expect(
        matched,
        "round \(round): after \(done) acknowledged commands the store is not the state after \(candidates)"
      )
      #expect(try WeighProcess.run(["check", "--store", store]).status == 0, "round \(round)")
    }
  }

  // MARK: Two processes

  /// Two loops of short `weigh -e 'log …'` runs on one store at once: each run either
  /// acknowledges its entry or fails because the store is busy and changes nothing.
  @Test func twoWritersAtOnceLoseNothing() throws {
    let store = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let perWriter = 20
    let results = WriterResults()
    DispatchQueue.concurrentPerform(iterations: 2) { writer in
      for index in 0..<perWriter {
        let line = LogLine(index: writer * 10_000 + index)
        // A run that found the store busy retries; a bounded number of times.
        for _ in 0..<5 {
          do {
            let run = try WeighProcess.run(["--store", store, "--tz", "UTC", "-e", line.command])
            if run.status == 0 {
              results.acknowledge(line, output: run.standardOutput)
              break
            }
            results.refuse(run.standardError)
          } catch {
            results.refuse("could not start weigh: \(error)")
            break
          }
        }
      }
    }
    for refusal in results.refusals {
      #expect(refusal.contains("is in use by process"), "unexpected failure: \(refusal)")
    }
    let acknowledged = results.acknowledged
    #expect(acknowledged.count == 2 * perWriter)
    let listing = try WeighProcess.run(["--store", store, "--tz", "UTC", "-e", "list"])
    #expect(listing.status == 0)
    let entries = try ListedEntry.parse(listing.standardOutput)
    #expect(entries.count == acknowledged.count, "entries that nobody acknowledged, or lost ones")
    try expectEachOnce(acknowledged, in: entries)
    #expect(try WeighProcess.run(["check", "--store", store]).status == 0)
  }

  /// A long-running writer holds the store; a second one started meanwhile waits for the
  /// lock and writes once the first is done.
  @Test func aSecondLongRunningWriterWaitsForTheFirst() throws {
    let store = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let count = 50
    let first = try RunningWeigh(["--store", store, "--tz", "UTC"], keepStandardInputOpen: true)
    let firstLines = (0..<count).map { LogLine(index: $0) }
    try first.send(firstLines.map { $0.command + "\n" + LogLine.flush }.joined())
    #expect(first.waitForOutputLines(count), "the first writer did not acknowledge its entries")

    let secondLines = (0..<count).map { LogLine(index: 10_000 + $0) }
    let script = store + "-second.wcfg"
    try secondLines.map { $0.command + "\n" }.joined().write(
      toFile: script, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: script) }
    let second = try RunningWeigh(["--store", store, "--tz", "UTC", script])
    // The second writer is now waiting for the lock (or about to); ending the first releases it.
    usleep(200_000)
    try first.closeInput()
    #expect(first.waitForExit() == .exited(0))
    #expect(second.waitForExit() == .exited(0), "the second writer did not get the store")

    let acknowledged =
      zip(firstLines, first.outputLines()).map { Acknowledged(line: $0, output: $1) }
      + zip(secondLines, second.outputLines()).map { Acknowledged(line: $0, output: $1) }
    #expect(acknowledged.count == 2 * count)
    let entries = try ListedEntry.parse(
      try WeighProcess.run(["--store", store, "--tz", "UTC", "-e", "list"]).standardOutput)
    #expect(entries.count == 2 * count)
    try expectEachOnce(acknowledged, in: entries)
  }

  /// While one process holds the store, another gives up after its lock timeout, names the
  /// holder's pid, exits non-zero and changes nothing.
  @Test func aBusyStoreNamesItsHolderAndChangesNothing() throws {
    let store = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let holder = try RunningWeigh(["--store", store, "--tz", "UTC"], keepStandardInputOpen: true)
    try holder.send(LogLine(index: 0).command + "\n" + LogLine.flush)
    #expect(holder.waitForOutputLines(1))
    let before = try StoreFiles(store)

    let second = try WeighProcess.run(
      ["--store", store, "--tz", "UTC", "-e", LogLine(index: 1).command])
    #expect(second.status != 0)
    #expect(second.standardOutput.isEmpty)
    #expect(second.standardError.contains("in use by process \(holder.processIdentifier)"))
    #expect(try StoreFiles(store) == before)

    try holder.closeInput()
    #expect(holder.waitForExit() == .exited(0))
    let entries = try ListedEntry.parse(
      try WeighProcess.run(["--store", store, "--tz", "UTC", "-e", "list"]).standardOutput)
    #expect(entries.map(\.weight) == [LogLine(index: 0).weight])
  }

  // MARK: Unreadable stores

  /// Each kind of damage: `list` exits 65 naming the file and position, `weigh check` exits
  /// 65 and lists the problem, and neither changes a byte.
  @Test(arguments: StoreDamage.allCases)
  func anUnreadableStoreIsRefusedAndLeftAlone(_ damage: StoreDamage) throws {
    let store = try StoreDamage.makeDamagedStore(damage)
    defer { try? FileManager.default.removeItem(atPath: store.directory) }
    let before = try StoreFiles(store.directory, ignoringLock: true)

    let list = try WeighProcess.run(["--store", store.directory, "-e", "list"])
    #expect(list.status == 65)
    #expect(list.standardOutput.isEmpty)
    #expect(
      list.standardError.contains(store.position),
      "expected \(store.position) in: \(list.standardError)")
    #expect(try StoreFiles(store.directory, ignoringLock: true) == before)

    let check = try WeighProcess.run(["check", "--store", store.directory])
    #expect(check.status == 65)
    #expect(
      check.standardOutput.contains(store.position),
      "expected \(store.position) in: \(check.standardOutput)")
    #expect(check.standardOutput.contains("error:"))
    #expect(try StoreFiles(store.directory, ignoringLock: true) == before)
  }

  /// A command that changes the store is refused too: damage must not be buried under new
  /// journal lines, and a compaction must never write over it.
  @Test(arguments: StoreDamage.allCases)
  func aChangeToAnUnreadableStoreIsRefused(_ damage: StoreDamage) throws {
    let store = try StoreDamage.makeDamagedStore(damage)
    defer { try? FileManager.default.removeItem(atPath: store.directory) }
    let before = try StoreFiles(store.directory, ignoringLock: true)
    let log = try WeighProcess.run(["--store", store.directory, "-e", "log 70kg"])
    let after = try StoreFiles(store.directory, ignoringLock: true)
    #expect(log.status == 65, "log exited \(log.status): \(log.standardOutput)")
    #expect(log.standardError.contains(store.position), "\(log.standardError)")
    #expect(after == before, "the damaged store was written to")
  }

  /// Damage among Health's records in `health.sqlite`: a command that reads the record
  /// (a full `health list`) exits 65 naming its position and writes nothing; `weigh check`
  /// finds it. (Health's records were in `health.json` before, where a changed file was
  /// read whole at open; SQLite reads only the rows a query needs, so a record no command
  /// reads is found by `weigh check`: docs/store.md, "What is not detected".)
  @Test func damageAmongHealthRecordsIsFoundWhereItIsRead() throws {
    let store = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let clock = ["--clock", "2026-01-10T00:00Z"]
    // 3,000 readings, then one of a weight no reading has (its value column is found in the
    // file by its bytes), then 3,000 more: the damaged record is deep among the others.
    let made = try WeighProcess.run(
      ["--store", store] + clock + [
        "-e", "clock 2026-01-01T00:00Z", "-e", "simulate scale every 1min start 70kg",
        "-e", "advance 3000min", "-e", "health add 93.217kg source Withings",
        "-e", "advance 3000min", "-e", "simulate stop all", "-e", "sync",
      ])
    #expect(made.status == 0, "\(made.standardError)")
    let path = store + "/health.sqlite"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    // A REAL column holds the number's 8 bytes, most significant first.
    let value = Data(withUnsafeBytes(of: (93.217).bitPattern.bigEndian) { Array($0) })
    let at = try #require(bytes.range(of: value))
    #expect(bytes.range(of: value, in: at.upperBound..<bytes.endIndex) == nil)
    bytes[at.upperBound - 1] ^= 1
    try bytes.write(to: URL(fileURLWithPath: path))

    let before = try StoreFiles(store, ignoringLock: true)
    let list = try WeighProcess.run(["--store", store] + clock + ["-e", "health list"])
    #expect(list.status == 65)
    #expect(list.standardOutput.isEmpty)
    #expect(
      list.standardError.contains(
        "health.sqlite: error: cannot read the store: record at position 3001: the columns do "
          + "not match their checksum"),
      "\(list.standardError)")
    #expect(try StoreFiles(store, ignoringLock: true) == before)
    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.status == 65)
    #expect(check.standardOutput.contains("record at position 3001"), "\(check.standardOutput)")
  }

  // MARK: Damage found by the checksums and journal.ack

  /// A store of three entries, all in the journal.
  private func makeSmallStore() throws -> String {
    let store = WeighProcess.temporaryDirectory()
    let made = try WeighProcess.run(
      [
        "--store", store, "--clock", "2026-01-01T08:00Z", "--tz", "UTC", "-e", "log 70kg",
        "-e", "log 71kg", "-e", "log 72kg",
      ])
    try #require(made.status == 0, "\(made.standardError)")
    return store
  }

  /// The issue's first case: cutting 40 bytes off the journal loses an acknowledged entry,
  /// so every command refuses the store (65) and nothing is written; the repair keeps the
  /// intact two, says what it lost and where the copies are, and #3 is not given again.
  @Test func aJournalCutShortIsRefusedThenRepairedWithoutReusingNumbers() throws {
    let store = try makeSmallStore()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let journal = store + "/journal.jsonl"
    let size = try #require(FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int)
    try #require(truncate(journal, off_t(size - 40)) == 0)
    let before = try StoreFiles(store, ignoringLock: true)

    for command in ["list", "log 73kg"] {
      let run = try WeighProcess.run(["--store", store, "-e", command])
      #expect(run.status == 65, "\(command): \(run.standardError)")
      #expect(run.standardError.contains(journal + ":4:1:"), "\(run.standardError)")
      #expect(run.standardError.contains("acknowledged"), "\(run.standardError)")
    }
    #expect(try StoreFiles(store, ignoringLock: true) == before)
    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.status == 65)
    #expect(check.standardOutput.hasPrefix(journal + ":4:1: error: the last line is incomplete"))

    let repair = try WeighProcess.run(["check", "--repair", "--store", store])
    #expect(repair.status == 0, "\(repair.standardOutput)")
    let copies = try #require(
      try FileManager.default.contentsOfDirectory(atPath: store + "/damaged").first)
    let expected = """
      damaged: \(journal):4:1: error: the last line is incomplete (no newline): a commit interrupted \
      by a crash, or the file was cut short; this record was acknowledged (the journal held \
      \(size) bytes through sequence 3); restore it from a backup or run weigh check --repair
      kept: weigh.json: settings and the app's state
      kept: journal.jsonl: 2 transactions (sequence 1 to 2)
      lost: journal.jsonl: 1 line from line 4 on (the last line is incomplete (no newline): \
      a commit interrupted by a crash, or the file was cut short)
      copies of the files as they were: \(store)/damaged/\(copies)
      repaired: the store reads in full

      """
    #expect(repair.standardOutput == expected)
    #expect(
      FileManager.default.contents(atPath: "\(store)/damaged/\(copies)/journal.jsonl")
        == before.contents["journal.jsonl"])

    let after = try WeighProcess.run(
      [
        "--store", store, "--clock", "2026-01-01T09:00Z", "--tz", "UTC", "-e", "log 74kg",
        "-e", "list",
      ])
    #expect(after.status == 0, "\(after.standardError)")
    #expect(after.standardOutput.hasPrefix("#4 "), "\(after.standardOutput)")
    #expect(!after.standardOutput.contains("#3 "))
    #expect(try WeighProcess.run(["check", "--store", store]).status == 0)
  }

  /// A commit torn by a crash (no newline, past what was acknowledged) is moved into
  /// damaged/, said once as a warning by the command that found it, and explained by check.
  @Test func aTornLastRecordIsMovedAsideAndReportedOnce() throws {
    let store = try makeSmallStore()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let torn = #"{"seq":4,"changes":[{"put":"entries","row":{"id":4,"#
    let handle = try #require(FileHandle(forWritingAtPath: store + "/journal.jsonl"))
    handle.seekToEndOfFile()
    handle.write(Data(torn.utf8))
    try handle.close()

    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.status == 0)
    #expect(
      check.standardOutput == """
        \(store)/journal.jsonl:5:1: note: the last record is incomplete (\(torn.utf8.count) bytes): \
        a commit interrupted by a crash, never acknowledged; the next command that opens the \
        store moves it aside into damaged/
        \(torn)
        ^
        ok: the store reads in full

        """)

    let list = try WeighProcess.run(["--store", store, "--tz", "UTC", "-e", "list"])
    #expect(list.status == 0)
    #expect(
      list.standardOutput.components(separatedBy: "\n").filter { $0.hasPrefix("#") }.count == 3)
    #expect(
      list.standardError.hasPrefix(
        "warning: \(store)/journal.jsonl:5:1: the last record was incomplete"))
    #expect(list.standardError.contains("moved aside to damaged/journal-torn-"))
    let aside = try FileManager.default.contentsOfDirectory(atPath: store + "/damaged")
    #expect(aside.count == 1)
    #expect(FileManager.default.contents(atPath: "\(store)/damaged/\(aside[0])") == Data(torn.utf8))

    let again = try WeighProcess.run(["--store", store, "-e", "log 73kg"])
    #expect(again.status == 0)
    #expect(again.standardError.isEmpty, "warned twice: \(again.standardError)")
    // The torn commit's number 4 was never shown, and is not given again.
    #expect(again.standardOutput.hasPrefix("#5 "), "\(again.standardOutput)")
    #expect(
      try WeighProcess.run(["check", "--store", store]).standardOutput
        == "ok: the store reads in full\n")
  }

  /// Runs weigh as the unprivileged user `nobody` when the tests run as root (root reads
  /// and writes any file, whatever its mode), else as the current user.
  private func runUnprivileged(_ arguments: [String]) throws -> WeighProcess.Result {
    guard getuid() == 0 else { return try WeighProcess.run(arguments) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments =
      ["--reuid=65534", "--regid=65534", "--clear-groups", WeighProcess.executable] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["HOME"] = "/tmp"
    process.environment = environment
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return WeighProcess.Result(
      status: process.terminationStatus, standardOutput: String(decoding: output, as: UTF8.self),
      standardError: String(decoding: errors, as: UTF8.self))
  }

  /// A read-only journal: reading commands work, a change fails saying why (exit 1) and
  /// writes nothing. An unreadable file is an unreadable store: exit 65.
  @Test func aReadOnlyJournalReadsAndAnUnreadableFileIsRefused() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") || getuid() != 0
    else { return }
    let store = try makeSmallStore()
    defer { try? FileManager.default.removeItem(atPath: store) }
    if getuid() == 0 {
      for name in try FileManager.default.contentsOfDirectory(atPath: store) + [""] {
        chown(store + "/" + name, 65534, 65534)
      }
      // The test's temporary folder may be private to root.
      chmod(store, 0o777)
      chmod((store as NSString).deletingLastPathComponent, 0o1777)
    }
    chmod(store + "/journal.jsonl", 0o444)
    let before = try StoreFiles(store, ignoringLock: true)
    let list = try runUnprivileged(["--store", store, "--tz", "UTC", "-e", "list"])
    #expect(list.status == 0, "\(list.standardError)")
    #expect(
      list.standardOutput.components(separatedBy: "\n").filter { $0.hasPrefix("#") }.count == 3)
    let log = try runUnprivileged(["--store", store, "-e", "log 73kg"])
    #expect(log.status == 1)
    #expect(log.standardError.contains("the journal is read-only"), "\(log.standardError)")
    #expect(try StoreFiles(store, ignoringLock: true) == before)

    chmod(store + "/journal.jsonl", 0o644)
    chmod(store + "/weigh.json", 0o000)
    let unreadable = try runUnprivileged(["--store", store, "-e", "list"])
    #expect(unreadable.status == 65, "\(unreadable.standardError)")
    #expect(
      unreadable.standardError.contains(
        store + "/weigh.json: error: cannot read the store: cannot open: permission denied"))
    let check = try runUnprivileged(["check", "--store", store])
    #expect(check.status == 65)
    chmod(store + "/weigh.json", 0o644)
  }

  /// A `weigh.lock` that cannot be opened (a folder in its place, no permission) makes the
  /// store unusable: exit 65 naming the file and the fix, for readers and writers alike, and
  /// nothing is written. One that may only be read still locks.
  @Test func aLockFileThatCannotBeOpenedIsAnUnreadableStore() throws {
    let store = try makeSmallStore()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let lock = store + "/weigh.lock"
    try FileManager.default.removeItem(atPath: lock)
    try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
    let before = try StoreFiles(store, ignoringLock: true)
    for arguments in [["--store", store, "-e", "list"], ["--store", store, "-e", "log 73kg"]] {
      let run = try WeighProcess.run(arguments)
      #expect(run.status == 65, "\(arguments): \(run.standardError)")
      #expect(
        run.standardError.contains(lock + ": error: cannot read the store: is a folder; remove it"),
        "\(run.standardError)")
      #expect(run.standardOutput.isEmpty)
    }
    #expect(try WeighProcess.run(["check", "--store", store]).status == 65)
    #expect(try StoreFiles(store, ignoringLock: true) == before)
    try FileManager.default.removeItem(atPath: lock)

    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") || getuid() != 0
    else { return }
    if getuid() == 0 {
      chmod(store, 0o777)
      chmod((store as NSString).deletingLastPathComponent, 0o1777)
    }
    #expect(FileManager.default.createFile(atPath: lock, contents: nil))
    chmod(lock, 0o000)
    let refused = try runUnprivileged(["--store", store, "-e", "list"])
    #expect(refused.status == 65, "\(refused.standardError)")
    #expect(
      refused.standardError.contains(
        lock + ": error: cannot read the store: cannot open the lock file: permission denied"),
      "\(refused.standardError)")
    chmod(lock, 0o444)
    let readOnly = try runUnprivileged(["--store", store, "--tz", "UTC", "-e", "list"])
    #expect(readOnly.status == 0, "\(readOnly.standardError)")
    #expect(readOnly.standardOutput.contains("#3"))
  }

  /// Asserts that every acknowledged entry is listed exactly once, with its number.
  private func expectEachOnce(_ acknowledged: [Acknowledged], in entries: [ListedEntry]) throws {
    var byInstant: [String: [ListedEntry]] = [:]
    for entry in entries { byInstant[entry.instant, default: []].append(entry) }
    for item in acknowledged {
      let found = byInstant[item.line.instant] ?? []
      #expect(found.count == 1, "entry at \(item.line.instant) is there \(found.count) times")
      #expect(found.first?.id == item.id, "acknowledged as #\(item.id), listed as \(found)")
      #expect(found.first?.weight == item.line.weight)
    }
    #expect(Set(entries.map(\.id)).count == entries.count, "an entry number is used twice")
  }
}

// MARK: - Lines to log and what weigh prints for them

/// The `index`-th line a test logs: a distinct minute from 2020-01-01 00:00 UTC, so the
/// instant alone identifies a line, and a weight derived from the index.
struct LogLine: Hashable, CustomStringConvertible {
  var index: Int

  /// A command that fails harmlessly and prints to stderr: stdout is block-buffered on a
  /// pipe, and weigh flushes it before writing to stderr, so following each `log` with this
  /// makes its acknowledgement visible at once.
  static let flush = "try delete #0\n"

  private static let base = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01T00:00:00Z

  /// `2020-01-01 00:05`, as `log` and `list` print it in UTC.
  var instant: String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute], from: Self.base.addingTimeInterval(Double(index) * 60))
    return String(
      format: "%04d-%02d-%02d %02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!,
      parts.minute!)
  }

  /// `55.3 kg`.
  var weight: String { String(format: "%.1f kg", 50 + Double(index % 700) / 10) }

  /// `log 55.3kg at 2020-01-01 00:05`.
  var command: String { "log \(weight.replacingOccurrences(of: " ", with: "")) at \(instant)" }

  var description: String { "line \(index) (\(instant))" }
}

/// A line weigh printed for a `log`: `#N <date> <time> <weight>`.
struct Acknowledged {
  var line: LogLine
  var id: Int

  init(line: LogLine, output: String) {
    self.line = line
    let fields = output.split(separator: " ", maxSplits: 1)
    id = Int(fields.first?.dropFirst() ?? "") ?? -1
    #expect(
      output == "#\(id) \(line.instant) \(line.weight)", "unexpected acknowledgement \(output)")
  }
}

/// One line of `list`: `#N  <date> <time>  <weight>  <origin>  <source>[  "<note>"]`, with
/// columns padded.
struct ListedEntry: CustomStringConvertible {
  var id: Int
  var instant: String
  var weight: String

  static func parse(_ listing: String) throws -> [ListedEntry] {
    if listing == "no entries\n" { return [] }
    return try listing.split(separator: "\n").map { line in
      // Columns are padded to a common width, so split on runs of spaces.
      let fields = line.split(separator: " ", maxSplits: 5)
      let id = try #require(
        fields.count >= 5 && fields[0].hasPrefix("#") ? Int(fields[0].dropFirst()) : nil,
        "not a line of list: \(line.prefix(120))")
      return ListedEntry(
        id: id, instant: fields[1] + " " + fields[2], weight: fields[3] + " " + fields[4])
    }
  }

  var description: String { "#\(id) \(instant) \(weight)" }
}

/// Everything logged into one store over several rounds, and how much of each round the
/// store holds.
struct LogLedger {
  private(set) var rounds: [[LogLine]] = []
  private(set) var committed: [Int] = []
  private var nextIndex = 0

  var committedTotal: Int { committed.reduce(0, +) }

  /// The lines of a new round.
  mutating func startRound(count: Int) -> [LogLine] {
    let lines = (nextIndex..<nextIndex + count).map { LogLine(index: $0) }
    nextIndex += count
    rounds.append(lines)
    return lines
  }

  /// Checks the store's entries after the latest round: earlier rounds are exactly as they
  /// were, the latest one is present as a prefix of its lines that covers every
  /// acknowledgement, and nothing appears twice. Returns what is wrong (empty when sound).
  mutating func problems(
    entries: [ListedEntry], acknowledgements: [String], roundRanToEnd: Bool
  ) -> [String] {
    var problems: [String] = []
    var roundOf: [String: (round: Int, position: Int)] = [:]
    for (number, lines) in rounds.enumerated() {
      for (position, line) in lines.enumerated() { roundOf[line.instant] = (number, position) }
    }
    var present = Array(repeating: [Int](), count: rounds.count)
    var seenInstants = Set<String>()
    var previousID = 0
    for entry in entries {
      if entry.id <= previousID { problems.append("entry numbers out of order at \(entry)") }
      previousID = entry.id
      if !seenInstants.insert(entry.instant).inserted { problems.append("\(entry) appears twice") }
      guard let origin = roundOf[entry.instant] else {
        problems.append("\(entry) was never logged")
        continue
      }
      let line = rounds[origin.round][origin.position]
      if entry.weight != line.weight { problems.append("\(entry) was logged as \(line.weight)") }
      present[origin.round].append(origin.position)
    }
    for (number, positions) in present.enumerated().dropLast()
    where positions.count != committed[number] {
      problems.append(
        "round \(number) had \(committed[number]) entries, now \(positions.count)")
    }
    let latest = present.last ?? []
    if latest != Array(0..<latest.count) {
      problems.append("the store holds lines \(latest.prefix(20))…, not a prefix of those sent")
    }
    if latest.count < acknowledgements.count {
      problems.append("\(acknowledgements.count) acknowledged, only \(latest.count) stored")
    }
    if roundRanToEnd && latest.count != rounds.last?.count {
      problems.append("the round ran to its end, but only \(latest.count) entries are stored")
    }
    let byID = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    for (line, text) in zip(rounds.last ?? [], acknowledgements) {
      let acknowledged = Acknowledged(line: line, output: text)
      if byID[acknowledged.id]?.instant != line.instant {
        problems.append(
          "\(text) was acknowledged, but #\(acknowledged.id) is "
            + (byID[acknowledged.id].map(String.init(describing:)) ?? "missing"))
      }
    }
    committed.append(latest.count)
    return problems
  }
}

/// The mixed scripts of the second kill test.
enum MixedCommands {
  /// `count` commands: mostly `log` (some with 3 KB notes, to reach compactions), and
  /// `edit`, `delete`, settings and `undo` (each may fail; the script runs them with `try`).
  static func make(count: Int, using random: inout SplitMix64) -> [String] {
    var commands: [String] = []
    var logged = 0
    for index in 0..<count {
      let roll = Double.random(in: 0..<1, using: &random)
      if roll < 0.6 || logged < 3 {
        logged += 1
        let note =
          Bool.random(using: &random)
          ? " note \"" + String(repeating: "z", count: 3_000) + "\"" : ""
        commands.append(LogLine(index: index).command + note)
      } else if roll < 0.75 {
        commands.append("edit #\(Int.random(in: 1...logged, using: &random)) \(60 + index % 100)kg")
      } else if roll < 0.85 {
        commands.append("delete #\(Int.random(in: 1...logged, using: &random))")
      } else if roll < 0.92 {
        commands.append(
          ["set unit lb", "set unit kg", "set goal 65kg", "set height 175cm"].randomElement(
            using: &random)!)
      } else {
        commands.append("undo")
      }
    }
    return commands
  }

  /// The number of commands known to be done: the highest `@k` printed.
  static func done(in lines: [String]) -> Int {
    lines.lazy.filter { $0.hasPrefix("@") }.compactMap { Int($0.dropFirst()) }.max() ?? 0
  }

  /// `list` and `settings` of a session that first runs `commands` (each with `try`).
  static func state(of store: [String], after commands: [String]) throws -> (
    status: Int32, text: String
  ) {
    let input = commands.map { "try \($0)\n" }.joined() + "echo =====\nlist\nsettings\n"
    let run = try WeighProcess.run(store + ["--tz", "UTC", "--keep-going"], input: input)
    let text = run.standardOutput.components(separatedBy: "=====\n").last ?? ""
    return (run.status, run.status == 0 ? text : run.standardError)
  }
}

// MARK: - Rounds of the kill test

/// One round: how many lines, how long a note each carries, and when to kill.
struct RoundPlan {
  enum Kill {
    /// Let the round finish.
    case never
    /// Once this many entries are acknowledged, and a few microseconds later.
    case afterAcknowledgements(Int, extraMicroseconds: UInt32)
    /// Soon after a compaction's temporary file is seen (or when the round ends).
    case duringCompaction(extraMicroseconds: UInt32)

    /// Inode, size and modification time of a file, or nil when there is none.
    private static func fileIdentity(_ path: String) -> [Int]? {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      return [
        Int(status.st_ino), Int(status.st_size), Int(status.st_mtim.tv_sec),
        Int(status.st_mtim.tv_nsec),
      ]
    }

    func perform(on child: RunningWeigh, store: String) {
      switch self {
      case .never:
        return
      case .afterAcknowledgements(let count, let extra):
        _ = child.waitForOutputLines(count)
        usleep(extra)
        child.kill()
      case .duringCompaction(let extra):
        // A temporary file left by an earlier killed compaction does not count; a new one,
        // or that one rewritten, does.
        let temporaries = ["entries.json.tmp", "weigh.json.tmp", "journal.jsonl.tmp"].map {
          store + "/" + $0
        }
        let leftovers = temporaries.map(Self.fileIdentity)
        // Bounded: about 60 s of polling at most.
        for _ in 0..<600_000 where !child.hasEnded {
          let now = temporaries.map(Self.fileIdentity)
          if zip(now, leftovers).contains(where: { $0 != nil && $0 != $1 }) {
            usleep(extra)
            break
          }
          usleep(100)
        }
        child.kill()
      }
    }
  }

  var lines: Int
  var noteBytes: Int
  var kill: Kill

  /// The script: each `log` followed by the flushing no-op.
  func scriptText(for lines: [LogLine]) -> String {
    let note = noteBytes > 0 ? " note \"" + String(repeating: "n", count: noteBytes) + "\"" : ""
    return lines.map { $0.command + note + "\n" + LogLine.flush }.joined()
  }
}

/// A small seeded generator, so the kill moments are the same on every run.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

/// The `sequence` recorded in `weigh.json`, which only a compaction changes.
enum ManifestProbe {
  static func sequence(in store: String) throws -> Int {
    guard let data = FileManager.default.contents(atPath: store + "/weigh.json") else { return 0 }
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return object?["sequence"] as? Int ?? 0
  }
}

// MARK: - A weigh process left running

/// A `weigh` child whose stdout is collected as it arrives, so a test can see what it has
/// acknowledged, feed it more, or kill it.
final class RunningWeigh: @unchecked Sendable {
  /// How a child ended.
  enum Ending: Equatable, CustomStringConvertible {
    case exited(Int32)
    case killed
    case otherSignal(Int32)
    case stillRunning

    var description: String {
      switch self {
      case .exited(let status): "exit status \(status)"
      case .killed: "SIGKILL"
      case .otherSignal(let signal): "signal \(signal)"
      case .stillRunning: "no exit within a minute"
      }
    }
  }

  private let process = Process()
  private let standardOutput = Pipe()
  private let input: Pipe?
  private let lock = NSLock()
  private var output: [UInt8] = []
  private var ended = false
  private let drained = DispatchSemaphore(value: 0)

  /// Starts `weigh arguments…` with stdin from a file, a pipe kept open, or nothing;
  /// stderr is discarded.
  init(
    _ arguments: [String], standardInputFile: String? = nil, keepStandardInputOpen: Bool = false
  ) throws {
    process.executableURL = URL(fileURLWithPath: WeighProcess.executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    if let standardInputFile {
      process.standardInput = try FileHandle(
        forReadingFrom: URL(fileURLWithPath: standardInputFile))
      input = nil
    } else if keepStandardInputOpen {
      let pipe = Pipe()
      process.standardInput = pipe
      input = pipe
    } else {
      process.standardInput = FileHandle.nullDevice
      input = nil
    }
    process.standardOutput = standardOutput
    process.standardError = FileHandle.nullDevice
    try process.run()
    let descriptor = standardOutput.fileHandleForReading.fileDescriptor
    DispatchQueue.global().async { self.drain(descriptor) }
  }

  var processIdentifier: Int32 { process.processIdentifier }

  /// True once the child's stdout has closed (it has exited, or is about to).
  var hasEnded: Bool {
    lock.lock()
    defer { lock.unlock() }
    return ended
  }

  private func drain(_ descriptor: Int32) {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
      if count < 0 && errno == EINTR { continue }
      lock.lock()
      if count <= 0 {
        ended = true
        lock.unlock()
        break
      }
      output.append(contentsOf: buffer[0..<count])
      lock.unlock()
    }
    drained.signal()
  }

  /// The complete lines printed so far.
  func outputLines() -> [String] {
    lock.lock()
    let bytes = output
    lock.unlock()
    let text = String(decoding: bytes, as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines.removeLast()  // the unfinished line after the last newline, often empty
    return lines
  }

  /// Waits (a minute at most) until `count` lines are printed or the child has ended;
  /// true when they were.
  @discardableResult
  func waitForOutputLines(_ count: Int) -> Bool {
    waitForOutput { $0.count >= count }
  }

  /// Waits (a minute at most) until the lines printed so far satisfy `condition` or the
  /// child has ended; true when they do.
  @discardableResult
  func waitForOutput(_ condition: ([String]) -> Bool) -> Bool {
    for _ in 0..<60_000 {
      if condition(outputLines()) { return true }
      if hasEnded { break }
      usleep(1_000)
    }
    return condition(outputLines())
  }

  /// Writes `text` to the child's stdin pipe.
  func send(_ text: String) throws {
    let pipe = try #require(input, "this child reads no pipe")
    try pipe.fileHandleForWriting.write(contentsOf: Data(text.utf8))
  }

  /// Closes the child's stdin pipe: the end of its input.
  func closeInput() throws {
    try input?.fileHandleForWriting.close()
  }

  /// SIGKILL, as `kill -9` does.
  func kill() {
    _ = Glibc.kill(process.processIdentifier, SIGKILL)
  }

  /// Waits (a minute at most) for the child to exit and its output to be read.
  func waitForExit() -> Ending {
    guard drained.wait(timeout: .now() + 60) == .success else {
      kill()
      return .stillRunning
    }
    drained.signal()
    process.waitUntilExit()
    switch process.terminationReason {
    case .exit: return .exited(process.terminationStatus)
    case .uncaughtSignal:
      return process.terminationStatus == SIGKILL
        ? .killed : .otherSignal(process.terminationStatus)
    @unknown default: return .otherSignal(process.terminationStatus)
    }
  }
}

// MARK: - Two writers' results

/// What the concurrent writers saw, gathered across threads.
final class WriterResults: @unchecked Sendable {
  private let lock = NSLock()
  private var acknowledgedItems: [Acknowledged] = []
  private var refusalTexts: [String] = []

  func acknowledge(_ line: LogLine, output: String) {
    let item = Acknowledged(line: line, output: output.trimmingCharacters(in: .newlines))
    lock.lock()
    acknowledgedItems.append(item)
    lock.unlock()
  }

  func refuse(_ message: String) {
    lock.lock()
    refusalTexts.append(message)
    lock.unlock()
  }

  var acknowledged: [Acknowledged] {
    lock.lock()
    defer { lock.unlock() }
    return acknowledgedItems
  }

  var refusals: [String] {
    lock.lock()
    defer { lock.unlock() }
    return refusalTexts
  }
}

// MARK: - Damaged stores

/// The bytes of every file in a store folder, to prove nothing was written.
struct StoreFiles: Equatable {
  var contents: [String: Data]

  /// Reads every file in `directory`; with `ignoringLock`, `weigh.lock` is left out (each
  /// opener writes its pid there, which is not the store's data).
  init(_ directory: String, ignoringLock: Bool = false) throws {
    contents = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory)
    where !(ignoringLock && name == "weigh.lock") {
      contents[name] = FileManager.default.contents(atPath: directory + "/" + name)
    }
  }
}

/// Ways a store can be unreadable, each made from a sound store of a few hundred entries
/// (compacted once, with lines in its journal after that).
enum StoreDamage: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case garbageManifest
  case corruptJournalLine
  case truncatedTable
  case corruptTableLine
  case newerManifest
  case newerJournal
  case newerTable
  case deletedJournal
  case emptiedJournal
  case truncatedJournal
  case changedDigitInJournal
  case removedJournalRecord
  case changedDigitInManifest
  case changedDigitInTableRow
  case journalIsADirectory

  var testDescription: String { rawValue }

  /// Damage that only a read of the rows themselves can find.
  var isInsideTheRows: Bool { self == .corruptTableLine || self == .changedDigitInTableRow }

  /// A damaged store and the `file:line:` its error must name.
  struct Damaged {
    var directory: String
    var position: String
  }

  static func makeDamagedStore(_ damage: StoreDamage) throws -> Damaged {
    let directory = WeighProcess.temporaryDirectory()
    let script = (0..<600).map { LogLine(index: $0).command + "\n" }.joined() + "set unit lb\n"
    try script.write(toFile: directory + ".wcfg", atomically: true, encoding: .utf8)
    let made = try WeighProcess.run(["--store", directory, "--tz", "UTC", directory + ".wcfg"])
    try #require(made.status == 0, "could not make the store: \(made.standardError)")
    try? FileManager.default.removeItem(atPath: directory + ".wcfg")

    func file(_ name: String) -> String { directory + "/" + name }
    func lines(_ name: String) throws -> [String] {
      try String(contentsOfFile: file(name), encoding: .utf8).components(separatedBy: "\n")
    }
    func write(_ name: String, _ text: String) throws {
      try text.write(toFile: file(name), atomically: false, encoding: .utf8)
    }
    func bumpVersion(_ name: String, from old: String, to new: String) throws -> Int {
      var text = try lines(name)
      let line = try #require(text.firstIndex { $0.contains(old) }, "no \(old) in \(name)")
      text[line] = text[line].replacingOccurrences(of: old, with: new)
      try write(name, text.joined(separator: "\n"))
      return line + 1
    }

    switch damage {
    case .garbageManifest:
      try write("weigh.json", "this is not json\n")
      return Damaged(directory: directory, position: file("weigh.json") + ":1:1")
    case .corruptJournalLine:
      var text = try lines("journal.jsonl")
      try #require(text.count > 6, "the journal has too few lines to damage one in the middle")
      text[3] = String(text[3].prefix(text[3].count / 2))
      try write("journal.jsonl", text.joined(separator: "\n"))
      return Damaged(directory: directory, position: file("journal.jsonl") + ":4:")
    case .truncatedTable:
      let bytes = try #require(FileManager.default.contents(atPath: file("entries.json")))
      let kept = bytes.prefix(bytes.count / 2 + 7)
      try kept.write(to: URL(fileURLWithPath: file("entries.json")))
      let line = kept.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
      return Damaged(directory: directory, position: file("entries.json") + ":\(line):")
    case .corruptTableLine:
      var text = try lines("entries.json")
      try #require(text.count > 100, "the table has too few lines")
      text[100] = text[100].replacingOccurrences(of: "\"kg\":", with: "\"kg\"")
      try write("entries.json", text.joined(separator: "\n"))
      return Damaged(directory: directory, position: file("entries.json") + ":101:")
    case .newerManifest:
      let line = try bumpVersion("weigh.json", from: "\"version\": 2", to: "\"version\": 99")
      return Damaged(directory: directory, position: file("weigh.json") + ":\(line):")
    case .newerJournal:
      let line = try bumpVersion("journal.jsonl", from: "\"version\":2", to: "\"version\":99")
      return Damaged(directory: directory, position: file("journal.jsonl") + ":\(line):")
    case .newerTable:
      let line = try bumpVersion("entries.json", from: "\"version\":1", to: "\"version\":99")
      return Damaged(directory: directory, position: file("entries.json") + ":\(line):")
    case .deletedJournal:
      try FileManager.default.removeItem(atPath: file("journal.jsonl"))
      return Damaged(directory: directory, position: file("journal.jsonl") + ":")
    case .emptiedJournal:
      try write("journal.jsonl", "")
      return Damaged(directory: directory, position: file("journal.jsonl") + ":1:1:")
    case .truncatedJournal:
      let text = try lines("journal.jsonl")
      let bytes = try #require(FileManager.default.contents(atPath: file("journal.jsonl")))
      try bytes.prefix(bytes.count - 40).write(to: URL(fileURLWithPath: file("journal.jsonl")))
      // The file ends with a newline, so the last line (the one cut) is the one before "".
      return Damaged(
        directory: directory, position: file("journal.jsonl") + ":\(text.count - 1):1:")
    case .changedDigitInJournal:
      var text = try lines("journal.jsonl")
      try #require(text.count > 6)
      text[3] = text[3].replacingOccurrences(of: "\"seq\":", with: "\"seq\":1")
      try write("journal.jsonl", text.joined(separator: "\n"))
      return Damaged(directory: directory, position: file("journal.jsonl") + ":4:1:")
    case .removedJournalRecord:
      var text = try lines("journal.jsonl")
      try #require(text.count > 6)
      text.remove(at: 3)
      try write("journal.jsonl", text.joined(separator: "\n"))
      return Damaged(directory: directory, position: file("journal.jsonl") + ":4:1:")
    case .changedDigitInManifest:
      var text = try lines("weigh.json")
      let line = try #require(text.firstIndex { $0.contains("\"sequence\"") })
      text[line] = text[line].replacingOccurrences(of: "\"sequence\": ", with: "\"sequence\": 1")
      try write("weigh.json", text.joined(separator: "\n"))
      return Damaged(directory: directory, position: file("weigh.json") + ":")
    case .changedDigitInTableRow:
      var text = try lines("entries.json")
      try #require(text.count > 100)
      text[100] = text[100].replacingOccurrences(of: "\"kg\":", with: "\"kg\":1")
      try write("entries.json", text.joined(separator: "\n"))
      return Damaged(directory: directory, position: file("entries.json") + ":101:1:")
    case .journalIsADirectory:
      try FileManager.default.removeItem(atPath: file("journal.jsonl"))
      try FileManager.default.createDirectory(
        atPath: file("journal.jsonl"), withIntermediateDirectories: false)
      return Damaged(directory: directory, position: file("journal.jsonl") + ":")
    }
  }
}
