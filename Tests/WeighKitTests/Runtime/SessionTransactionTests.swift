import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// Sessions that release the store between commands (the REPL) and commands as
/// transactions: a failed command leaves the store as it was.
@Suite struct SessionTransactionTests {
  /// A session on `directory`, or in memory.
  func open(_ directory: String?) throws -> (Session, CapturedOutput) {
    var options = SessionOptions.golden
    if let directory { options.store = .directory(directory) }
    let output = CapturedOutput()
    return (try Session(options: options, output: output), output)
  }

  /// Runs `line` in `session` with the store's lock taken for it alone, as the REPL does;
  /// returns what it printed.
  func runLocked(_ line: String, in session: Session, output: CapturedOutput) throws -> String {
    let start = output.text.endIndex
    try session.acquireStore()
    defer { session.releaseStore() }
    if line == ReopenedStoreTests.compact {
      try session.store.compact()
      return ""
    }
    _ = session.run(script: line, display: "property", directory: ".")
    return String(output.text[start...])
  }

  @Test("two sessions taking turns on one store print what one session prints")
  func sessionsTakingTurnsSeeEachOthersCommits() async {
    // A line's code, plus 800 when the second session runs it.
    await propertyCheck(count: 25, input: Gen.int(in: 0...1599).array(of: 1...30)) { steps in
      failingOnThrow {
        let directory = ReopenedStoreTests.temporaryStorePath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let long = try ReopenedStoreTests.LongSession()
        let (first, firstOutput) = try open(directory)
        first.releaseStore()
        let (second, secondOutput) = try open(directory)
        second.releaseStore()
        defer {
          first.close()
          second.close()
        }
        let lines =
          steps.map { (ReopenedStoreTests.line($0 % 800), $0 < 800) } + [
            ("sync", true), ("health list weight", false), ("list", true),
          ]
        for (line, onFirst) in lines {
          let expected = long.run(line)
          let printed =
            onFirst
            ? try runLocked(line, in: first, output: firstOutput)
            : try runLocked(line, in: second, output: secondOutput)
          #expect(printed == expected, "\(line)")
        }
      }
    }
  }

  @Test("a session keeps what it derived while no other process commits")
  func cachesSurviveWhenNothingChanged() throws {
    let directory = ReopenedStoreTests.temporaryStorePath()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let (session, output) = try open(directory)
    defer { session.close() }
    session.releaseStore()
    _ = try runLocked("health add 70kg at 07:00 source Withings\nsync", in: session, output: output)
    let link = try #require(session.healthLink)
    _ = try runLocked("list", in: session, output: output)
    #expect(session.healthLink === link)

    // Another process changes the settings and Health: the next command sees both.
    let (other, _) = try open(directory)
    _ = other.run(
      script: "set unit lb\nhealth add 70.2kg at 07:30 source Withings", display: "other",
      directory: ".")
    other.close()
    let printed = try runLocked("sync\nlist", in: session, output: output)
    #expect(session.healthLink !== link)
    #expect(printed.contains("imported 1, removed 0, skipped 0 (anchor 2)"))
    #expect(session.settings.unit == .lb)
  }

  @Test("between commands the store's lock is free")
  func theLockIsFreeBetweenCommands() throws {
    let directory = ReopenedStoreTests.temporaryStorePath()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let (session, output) = try open(directory)
    defer { session.close() }
    #expect(throws: StoreError.self) {
      try Store.open(.directory(directory), lockTimeout: .zero)
    }
    session.releaseStore()
    let other = try Store.open(.directory(directory), lockTimeout: .zero)
    // While another holds the lock, a command waits, then fails, and says why.
    #expect(throws: Diagnostic.self) { try session.acquireStore(lockTimeout: 0.6) }
    #expect(output.text.contains("warning: store \(directory) is in use by process"))
    // Completion never waits: it offers nothing while the store is busy.
    #expect(session.entryNumbers() == [])
    other.close()
    _ = try runLocked("log 70kg", in: session, output: output)
    #expect(session.entryNumbers() == [1])
  }

  @Test("an unchanged store's tables are not read again; another process's commit is seen")
  func theReplReadsATableAgainOnlyWhenTheStoreChanged() throws {
    let directory = ReopenedStoreTests.temporaryStorePath()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let (session, output) = try open(directory)
    defer { session.close() }
    session.releaseStore()
    _ = try runLocked("log 70kg at 07:00", in: session, output: output)
    _ = try runLocked("list", in: session, output: output)
    // Nothing committed since: the entries read by the last command are used again.
    #expect(try runLocked("list", in: session, output: output).contains("#1  2026-01-01 07:00"))
    #expect(session.store.reusedTables.contains(EntryCodec.tableName))

    // Another process logs while the session waits between commands.
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: builtProduct(named: "weigh"))
    writer.arguments = [
      "--store", directory, "--clock", "2026-01-01T07:30:00Z", "--tz", "UTC", "-e", "log 69.5kg",
    ]
    writer.standardOutput = FileHandle.nullDevice
    try writer.run()
    writer.waitUntilExit()
    #expect(writer.terminationStatus == 0)

    // The next command reads the table again and sees the other process's entry.
    let listed = try runLocked("list", in: session, output: output)
    #expect(session.store.reusedTables.isEmpty)
    #expect(listed.contains("#2  2026-01-01 07:30  69.5 kg"))
    // From then on, unchanged again: reused.
    #expect(try runLocked("list", in: session, output: output).contains("#2  2026-01-01 07:30"))
    #expect(session.store.reusedTables.contains(EntryCodec.tableName))
    // The session's own commit is its own change: numbers go on, nothing is lost.
    #expect(try runLocked("log 69kg", in: session, output: output).contains("#3 "))
    #expect(try runLocked("list", in: session, output: output).contains("#3  2026-01-01 08:00"))
  }

  // MARK: Failed commands

  /// The store's state as other processes would read it.
  func state(_ session: Session) -> StoreState { StoreState(session.store) }

  /// A line for a code: commands that often fail (Health refusing, no such sample or
  /// entry, a failed expect) among ones that change Health's state, the log and the app's.
  static func mixedLine(_ code: Int) -> String {
    switch code % 24 {
    case 0: return "health delete ffff"
    case 1: return "observe on"
    case 2: return "observe off"
    case 3: return code % 2 == 0 ? "health available no" : "health available yes"
    case 4: return code % 2 == 0 ? "health auth write deny" : "health auth write allow"
    case 5: return code % 2 == 0 ? "app lock" : "app unlock"
    case 6: return "fault sync fail 1"
    case 7: return "expect entries == 999"
    case 8: return "edit #99 70kg"
    case 9: return "undo"
    case 10: return "set autopush \(code % 2 == 0 ? "on" : "off")"
    case 11: return "health add 70kg at 23:00 source Withings"
    case 12: return "simulate scale every 1h start 70kg"
    case 13: return "advance 1h"
    case 14: return "try health delete last"
    default: return ReopenedStoreTests.line(code)
    }
  }

  @Test("a command that fails leaves the store's committed state as it was")
  func failedCommandsLeaveTheStore() async {
    await propertyCheck(count: 30, input: Gen.int(in: 0...999).array(of: 1...40)) { codes in
      failingOnThrow {
        let directory = ReopenedStoreTests.temporaryStorePath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (session, _) = try open(directory)
        defer { session.close() }
        for line in codes.map(Self.mixedLine) where line != ReopenedStoreTests.compact {
          let before = state(session)
          let failures = session.failureCount
          _ = session.run(script: line, display: "property", directory: ".")
          // Autopush is the documented exception: the entry is committed, Health refused.
          guard session.failureCount > failures, !session.memory.error.contains(", but Health")
          else { continue }
          #expect(state(session) == before, "\(line): \(session.memory.error)")
        }
      }
    }
  }

  @Test(
    "a failed command commits nothing, on a memory store too",
    arguments: [nil, "directory"] as [String?])
  func failedCommandsCommitNothing(kind: String?) throws {
    let directory = kind.map { _ in ReopenedStoreTests.temporaryStorePath() }
    defer { if let directory { try? FileManager.default.removeItem(atPath: directory) } }
    let (session, _) = try open(directory)
    defer { session.close() }
    // Health's one-time setup is not written by a command that fails.
    var before = state(session)
    _ = session.run(script: "health delete ffff", display: "test", directory: ".")
    #expect(session.failureCount == 1)
    #expect(state(session) == before)
    #expect(session.store.documents["health"] == nil)

    _ = session.run(script: "health available no", display: "test", directory: ".")
    before = state(session)
    _ = session.run(script: "try observe on", display: "test", directory: ".")
    #expect(state(session) == before)
    // Health as it is in memory was dropped with the failed command's changes.
    _ = session.run(script: "health available yes", display: "test", directory: ".")
    #expect(try session.health().smallState.delivery[.bodyMass] == nil)
  }
}
