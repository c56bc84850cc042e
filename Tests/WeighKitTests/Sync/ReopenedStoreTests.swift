import Foundation
import HealthSim
import PropertyBased
import Testing

@testable import WeighKit

/// A directory store reopened for every command, as separate `weigh -e` runs do, loads
/// Health's older records only when a command needs them. Whatever it loads, every command
/// must print what it prints in one long session.
@Suite struct ReopenedStoreTests {
  /// A script line for a code: Health changes, syncs, pushes, settings and reads.
  static func line(_ code: Int) -> String {
    let weight = 60 + Double(code % 40) / 2
    switch code % 16 {
    case 0, 1, 2: return "health add \(weight)kg at 0\(code % 8):00 source S\(code % 3)"
    case 3: return "try health delete last"
    case 4:
      return
        "health add \(weight)kg at 07:00 source R sync-id r-\(code % 4) version \(code % 5 + 1)"
    case 5: return "health purge"
    case 6:
      switch code % 3 {
      case 0: return "log \(weight)kg at 06:30"
      case 1: return "try edit last \(weight)kg"
      default: return "try delete last"
      }
    case 7: return "sync push"
    case 8, 9, 10: return "sync"
    case 11: return code % 3 == 0 ? "sync all" : "sync reset"
    case 12:
      return ["set dedup fuzzy", "set dedup uuid", "set autopush on", "set autopush off"][code % 4]
    case 13: return code % 2 == 0 ? "health auth read deny" : "health auth read allow"
    case 14: return code % 2 == 0 ? "health list weight" : "list"
    default: return code % 2 == 0 ? "sync status" : compact
    }
  }

  /// Not a command: the reopened store folds its journal into table files here, so that
  /// later sessions read the log from `entries.json` too (Health is in `health.sqlite`).
  /// The long session ignores it.
  static let compact = "# compact"

  /// A path for a store of its own, created on first use.
  static func temporaryStorePath() -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("weigh-reopen-\(UUID().uuidString)").path
  }

  /// What one line prints in a session that stays open.
  final class LongSession {
    let output = CapturedOutput()
    let session: Session

    init() throws { session = try Session(options: .golden, output: output) }

    func run(_ line: String) -> String {
      let start = output.text.endIndex
      _ = session.run(script: line, display: "property", directory: ".")
      return String(output.text[start...])
    }
  }

  /// What one line prints in a session opened on `directory` for it alone, at `clock`
  /// (default: the golden tests' clock).
  func runReopened(_ line: String, on directory: String, at clock: Int64? = nil) throws -> String {
    var options = SessionOptions.golden
    options.store = .directory(directory)
    if let clock { options.clock = clock }
    let output = CapturedOutput()
    let session = try Session(options: options, output: output)
    defer { session.close() }
    if line == Self.compact {
      try session.store.compact()
      return ""
    }
    _ = session.run(script: line, display: "property", directory: ".")
    return output.text
  }

  @Test("every command prints the same in one session and in a store reopened for each")
  func reopenedEqualsLong() async {
    await propertyCheck(count: 25, input: Gen.int(in: 0...799).array(of: 1...30)) { codes in
      failingOnThrow {
        let directory = Self.temporaryStorePath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let long = try LongSession()
        for line in codes.map(Self.line) + ["sync", "health list weight", "list"] {
          let expected = long.run(line)
          let reopened = try runReopened(line, on: directory)
          #expect(reopened == expected, "\(line)")
        }
      }
    }
  }

  @Test(
    "an incremental sync on a reopened store reads neither the synced Health records nor the log")
  func incrementalSyncReadsOnlyWhatIsNew() throws {
    let directory = Self.temporaryStorePath()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    _ = try runReopened(
      "simulate scale every 1h start 70kg\nadvance 30h\nsimulate stop all\nsync", on: directory)
    _ = try runReopened("health add 70.4kg at 07:30 source Withings", on: directory)
    var options = SessionOptions.golden
    options.store = .directory(directory)
    let session = try Session(options: options, output: CapturedOutput())
    defer { session.close() }
    _ = session.run(script: "sync", display: "test", directory: ".")
    #expect(session.memory.output == "imported 1, removed 0, skipped 0 (anchor 31)")
    // The new sample, and nothing of the 30 synced before.
    #expect(session.healthLink?.storage.rowsRead == 1)
    #expect(session.healthIndex == nil)
    // A command about the whole history reads it, and sees everything.
    _ = session.run(script: "expect health.samples == 31", display: "test", directory: ".")
    _ = session.run(script: "expect entries == 31", display: "test", directory: ".")
    #expect(session.failureCount == 0)
    // expect reads the facts and leaves them: the output is still the sync's.
    #expect(session.memory.output == "imported 1, removed 0, skipped 0 (anchor 31)")
    _ = session.run(script: "health list", display: "test", directory: ".")
    #expect((session.healthLink?.storage.rowsRead ?? 0) >= 31)
  }
  /// A session on the store in `directory`, for looking inside.
  func open(_ directory: String) throws -> Session {
    var options = SessionOptions.golden
    options.store = .directory(directory)
    return try Session(options: options, output: CapturedOutput())
  }

  @Test("autopush on a reopened store writes, replaces and deletes without Health's history")
  func autopushReadsOnlyTheSyncIndex() throws {
    let directory = Self.temporaryStorePath()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    _ = try runReopened(
      "set autopush on\nsimulate scale every 1h start 70kg\nadvance 30h\nsimulate stop all\n"
        + "log 69kg at 07:10\nsync", on: directory)
    let session = try open(directory)
    defer { session.close() }
    _ = session.run(script: "edit #1 68.9kg", display: "test", directory: ".")
    #expect(session.memory.output.hasSuffix("autopush: pushed 0 new, 1 updated, 0 deleted"))
    _ = session.run(script: "log 68.8kg at 07:20", display: "test", directory: ".")
    _ = session.run(script: "delete #1", display: "test", directory: ".")
    #expect(session.memory.output.hasSuffix("autopush: pushed 0 new, 0 updated, 1 deleted"))
    // Three commands find what they replace and delete by sync identifier: far fewer rows
    // than the 31 samples a full read returns.
    #expect((session.healthLink?.storage.rowsRead ?? 99) < 20)
    _ = session.run(script: "health list", display: "test", directory: ".")
    #expect(session.memory.output.contains("weigh  user-entered  sync-id weigh-32 v1"))
    #expect(!session.memory.output.contains("weigh-1 "))
    #expect(session.memory.output.split(separator: "\n").count == 31)
  }

  @Test("an older sample with a sync identifier is replaced without reading Health's history")
  func olderSyncedSamplesComeFromTheIndex() throws {
    let directory = Self.temporaryStorePath()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    _ = try runReopened(
      "health add 70kg source A sync-id a version 1\nhealth add 71kg source B\nsync",
      on: directory)
    do {
      let session = try open(directory)
      defer { session.close() }
      _ = session.run(
        script: "health add 72kg source A sync-id a version 2", display: "test", directory: ".")
      #expect(session.failureCount == 0)
      // The lookups by sync identifier and UUID, not a list of every sample.
      #expect((session.healthLink?.storage.rowsRead ?? 99) <= 5)
    }
    let session = try open(directory)
    defer { session.close() }
    let health = try session.health()
    let weights = health.allSamples(of: .bodyMass).map(\.value).sorted()
    #expect(weights == [71, 72])
  }

  @Test("undoing a sync puts back its progress only, not the observer or settings changed since")
  func undoOfASyncKeepsLaterSettings() throws {
    let directory = Self.temporaryStorePath()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    _ = try runReopened(
      "observe on\nhealth add 70kg at 07:00 source W\nsync\nobserve off\nset dedup fuzzy\nundo",
      on: directory)
    let session = try open(directory)
    defer { session.close() }
    #expect(session.app.observing == nil)
    #expect(session.app.dedup == .fuzzy)
    #expect(session.app.anchor == 1)
    // No observer comes back at the next run: a new sample waits for a sync.
    _ = session.run(script: "health add 71kg at 07:30 source W", display: "test", directory: ".")
    #expect(!session.memory.output.contains("delivery"))
  }
}
