import Foundation
import Testing

/// Health in `health.sqlite` (docs/store.md, "Health in health.sqlite"), checked on the
/// built binary: a command is one commit across `health.sqlite` and the journal, killed at
/// any write it makes; a store of the older layout migrates once, keeps every record, and
/// survives a kill at any write of the migration.
///
/// The kills are real: `strace` injects SIGKILL at the Nth write, sync, rename, unlink or
/// truncation the process makes (SQLite's included), for every N until the command runs
/// to its end. Skipped where strace is missing or cannot trace.
@Suite(.enabled(if: StraceKill.canInject)) struct HealthDiskTests {
  typealias Kill = StraceKill

  @Test func aManyEventCommandKilledAtAnyWriteIsAllThereOrNotAtAll() throws {
    let base = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let setup = try WeighProcess.run(
      [
        "--store", base, "--clock", "2026-01-01 06:00", "-e", "observe on", "-e", "app background",
        "-e", "simulate scale every 1d at 07:00 start 80kg noise 0.3kg",
        "-e", "health add 70kg at 2025-12-31 08:00 source A sync-id a version 1",
        "-e", "health add 5000steps at 2025-12-31 09:00 source Phone",
      ])
    #expect(setup.status == 0, "\(setup.standardError)")
    let command: (String) -> [String] = {
      ["--store", $0, "--clock", "2026-01-01 06:00", "-e", "advance 30d"]
    }
    let clock = "2026-01-01 06:00"
    let before = try Kill.shown(try Kill.copy(base), clock: clock)
    let whole = try Kill.copy(base)
    defer { try? FileManager.default.removeItem(atPath: whole) }
    #expect(try WeighProcess.run(command(whole)).status == 0)
    let after = try Kill.shown(whole, clock: clock)
    #expect(
      after.components(separatedBy: "\n").count > before.components(separatedBy: "\n").count + 50)
    let kills = try Kill.killAtEveryWrite(
      base: base, clock: clock, command, expected: [before, after])
    #expect(kills > 10)
  }

  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("fixtures/health-json-store").path

  @Test func aStoreOfTheOlderLayoutMigratesOnceAndKeepsEveryRecord() throws {
    let store = try Kill.copy(Self.fixture)
    defer { try? FileManager.default.removeItem(atPath: store) }
    let first = try WeighProcess.run(
      [
        "--store", store, "--clock", "2026-05-01 08:00", "-e", "list", "-e", "health list",
        "-e", "health list steps",
      ])
    #expect(first.status == 0)
    #expect(
      first.standardError.hasPrefix(
        "note: migrated Health to health.sqlite (127 records); the old files are in backup/health-json-"
      ),
      "\(first.standardError)")
    #expect(FileManager.default.fileExists(atPath: store + "/health.sqlite"))
    let backups = try FileManager.default.contentsOfDirectory(atPath: store + "/backup")
    #expect(backups.count == 1)
    let copied = try FileManager.default.contentsOfDirectory(
      atPath: store + "/backup/" + backups[0])
    #expect(
      Set(copied) == [
        "weigh.json", "journal.jsonl", "journal.ack", "health.json", "health-sync.json",
      ])
    // The same answers as before, and no second migration.
    let again = try WeighProcess.run(
      [
        "--store", store, "--clock", "2026-05-01 08:00", "-e", "list", "-e", "health list",
        "-e", "health list steps",
      ])
    #expect(again.standardError == "")
    #expect(again.standardOutput == first.standardOutput)
    #expect(first.standardOutput.contains("sync-id c v1"))
    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.status == 0, "\(check.standardOutput)")
    #expect(check.standardOutput == "ok: the store reads in full\n")
  }

  @Test func aMigrationKilledAtAnyWriteLeavesAStoreThatOpens() throws {
    let reference = try Kill.copy(Self.fixture)
    defer { try? FileManager.default.removeItem(atPath: reference) }
    let clock = "2026-05-01 08:00"
    let expected = try Kill.shown(reference, clock: clock)
    #expect(expected.contains("sync-id c v1"))
    let kills = try Kill.killAtEveryWrite(
      base: Self.fixture, clock: clock, { ["--store", $0, "--clock", clock, "-e", "list"] },
      expected: [expected])
    #expect(kills > 5)
  }

  /// A store whose `health.sqlite` an earlier weigh wrote in format 1 (the JSON store above,
  /// migrated by that weigh).
  static let formatOneFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("fixtures/health-sqlite-format1-store")
    .path

  @Test func aFormatOneDatabaseMovesToFormatThreeOnceAndSurvivesAKillAtAnyWrite() throws {
    try movesOnceAndSurvivesAKill(
      Self.formatOneFixture, records: 127, keptAs: "health.sqlite.v1", reading: ["health list"])
  }

  /// A store whose `health.sqlite` the format-2 weigh wrote (ab79d58;
  /// `scripts/make-health-format2-fixture.sh`).
  static let formatTwoFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("fixtures/health-sqlite-format2-store")
    .path

  @Test func aFormatTwoDatabaseMovesToFormatThreeOnceAndSurvivesAKillAtAnyWrite() throws {
    try movesOnceAndSurvivesAKill(
      Self.formatTwoFixture, records: 129, keptAs: "health.sqlite.v2",
      reading: ["health list", "health list steps", "health list exercise", "health list glucose"])
  }

  /// The store at `fixture` moves to format 3 at its first command that reads Health, once,
  /// with its note, keeping the old file byte for byte as `keptAs`; the moved store answers
  /// the same again and checks whole; a kill at any write of the move leaves a store that
  /// shows what the old one shows.
  private func movesOnceAndSurvivesAKill(
    _ fixture: String, records: Int, keptAs: String, reading commands: [String]
  ) throws {
    let store = try Kill.copy(fixture)
    defer { try? FileManager.default.removeItem(atPath: store) }
    let clock = "2026-05-01 08:00"
    let arguments =
      ["--store", store, "--clock", clock, "-e", "list"] + commands.flatMap { ["-e", $0] }
    let first = try WeighProcess.run(arguments)
    #expect(first.status == 0)
    #expect(
      first.standardError
        == "note: health.sqlite moved to format 3 (\(records) records); the old file is kept as "
        + "\(keptAs)\n", "\(first.standardError)")
    #expect(first.standardOutput.contains("sync-id c v1"))
    let old = try Data(contentsOf: URL(fileURLWithPath: fixture + "/health.sqlite"))
    let kept = try Data(contentsOf: URL(fileURLWithPath: store + "/" + keptAs))
    #expect(kept == old)
    let again = try WeighProcess.run(arguments)
    #expect(again.standardError == "")
    #expect(again.standardOutput == first.standardOutput)
    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.standardOutput == "ok: the store reads in full\n")

    let reference = try Kill.copy(fixture)
    defer { try? FileManager.default.removeItem(atPath: reference) }
    let expected = try Kill.shown(reference, clock: clock)
    let kills = try Kill.killAtEveryWrite(
      base: fixture, clock: clock,
      { ["--store", $0, "--clock", clock, "-e", "list"] }, expected: [expected])
    #expect(kills > 3)
  }
}

/// Runs weigh under strace, killed by SIGKILL at a chosen writing call.
enum StraceKill {
  static let strace = "/usr/bin/strace"
  static let calls = "write,pwrite64,fsync,fdatasync,rename,renameat,renameat2,unlink,ftruncate"

  /// Whether `strace` can run the binary here.
  static let canInject: Bool = {
    guard FileManager.default.isExecutableFile(atPath: strace) else { return false }
    return (try? traced(["--version"], killAt: nil).status) == 0
  }()

  /// Runs weigh under strace, killed at the `killAt`th writing call when given.
  static func traced(_ arguments: [String], killAt: Int?, calls: String = calls) throws
    -> WeighProcess.Result
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: strace)
    var options = ["-f", "-o", "/dev/null", "-e", "trace=\(calls)"]
    if let killAt { options += ["-e", "inject=\(calls):signal=KILL:when=\(killAt)"] }
    process.arguments = options + [WeighProcess.executable] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let group = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    group.enter()
    DispatchQueue.global().async {
      errorData = errors.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return WeighProcess.Result(
      status: process.terminationStatus, standardOutput: String(decoding: data, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }

  /// Copies the folder `from` to a new temporary folder.
  static func copy(_ from: String) throws -> String {
    let to = WeighProcess.temporaryDirectory()
    try FileManager.default.removeItem(atPath: to)
    try FileManager.default.copyItem(atPath: from, toPath: to)
    return to
  }

  /// What a store shows: the log and Health's samples of two types, read by a new process
  /// (which finishes a commit or migration the kill interrupted).
  static func shown(_ store: String, clock: String) throws -> String {
    let result = try WeighProcess.run(
      [
        "--store", store, "--clock", clock, "-e", "list", "-e", "health list",
        "-e", "health list steps",
      ])
    return "\(result.status)\n\(result.standardOutput)"
  }

  /// Kills `arguments` (run on a copy of `base`) at every writing call in turn; after each,
  /// the store must show what it showed before the command or after it, and check clean.
  /// Returns how many kills there were.
  static func killAtEveryWrite(
    base: String, clock: String, _ arguments: (String) -> [String], expected: Set<String>
  ) throws -> Int {
    var kills = 0
    for call in 1...2000 {
      let store = try copy(base)
      defer { try? FileManager.default.removeItem(atPath: store) }
      let run = try traced(arguments(store), killAt: call)
      if run.status == 0 { break }
      kills += 1
      let state = try shown(store, clock: clock)
      #expect(expected.contains(state), "killed at call \(call): \(state)")
      let check = try WeighProcess.run(["check", "--store", store])
      #expect(check.status == 0, "killed at call \(call): \(check.standardOutput)")
    }
    return kills
  }
}

/// `weigh check` and `weigh check --repair` on `health.sqlite`, with the exact report.
@Suite struct HealthCheckTests {
  /// A store of two samples whose first one's value has one bit changed in the file.
  static func damagedStore() throws -> String {
    let store = WeighProcess.temporaryDirectory()
    let made = try WeighProcess.run(
      [
        "--store", store, "--clock", "2026-01-10 08:00", "-e", "health add 70.4kg source Withings",
        "-e", "health add 71.3kg source Withings",
      ])
    #expect(made.status == 0)
    let path = store + "/health.sqlite"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    // A REAL column holds the number's 8 bytes, most significant first.
    let value = Data(withUnsafeBytes(of: (70.4).bitPattern.bigEndian) { Array($0) })
    let at = try #require(bytes.range(of: value))
    #expect(bytes.range(of: value, in: at.upperBound..<bytes.endIndex) == nil)
    bytes[at.upperBound - 1] ^= 1
    try bytes.write(to: URL(fileURLWithPath: path))
    return store
  }

  /// `text` with the UTC time in folder names made fixed.
  static func fixed(_ text: String) -> String {
    text.replacingOccurrences(
      of: #"-\d{8}T\d{6}Z"#, with: "-TIME", options: .regularExpression)
  }

  @Test func checkFindsADamagedRowAndRepairKeepsTheOthers() throws {
    let store = try Self.damagedStore()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.status == 65)
    #expect(
      check.standardOutput + check.standardError
        == store
        + "/health.sqlite: error: record at position 1: the columns do not match their checksum (changed outside weigh, or damaged)\n"
    )
    let list = try WeighProcess.run(["--store", store, "-e", "health list"])
    #expect(list.status == 65)
    #expect(list.standardError.contains("cannot read the store: record at position 1"))

    let repair = try WeighProcess.run(["check", "--repair", "--store", store])
    #expect(repair.status == 0)
    #expect(
      Self.fixed(repair.standardOutput) == """
        damaged: health.sqlite: record at position 1: the columns do not match their checksum (changed outside weigh, or damaged)
        kept: 1 Health record in health.sqlite
        lost: 1 Health record of health.sqlite (damaged)
        copy of health.sqlite as it was: damaged/health-repair-TIME
        repaired: the store reads in full

        """)
    let copies = try FileManager.default.contentsOfDirectory(atPath: store + "/damaged")
    #expect(copies.count == 1)
    #expect(
      FileManager.default.fileExists(atPath: store + "/damaged/" + copies[0] + "/health.sqlite"))
    let after = try WeighProcess.run(["check", "--store", store])
    #expect(after.status == 0)
    #expect(after.standardOutput == "ok: the store reads in full\n")
    let kept = try WeighProcess.run(["--store", store, "-e", "health list"])
    #expect(kept.status == 0)
    #expect(kept.standardOutput.hasSuffix("2026-01-10 08:00  71.3 kg  Withings\n"))
    #expect(!kept.standardOutput.contains("70."))
    // Nothing more to repair.
    let again = try WeighProcess.run(["check", "--repair", "--store", store])
    #expect(again.standardOutput == "nothing to repair: the store reads in full\n")
  }
}
