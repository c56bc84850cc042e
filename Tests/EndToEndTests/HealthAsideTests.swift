import Foundation
import Testing

/// A new store's first Health command builds `health.sqlite` aside, in `health.sqlite.tmp`
/// without a log and without syncs, and renames it into place at its commit (docs/store.md,
/// "A new store's first Health command built aside"): killed at any write, sync, rename or
/// unlink, the store shows the whole command or none of it and checks clean; what a kill
/// leaves beside it is ignored, and removed by the next creation.
@Suite(.enabled(if: StraceKill.canInject)) struct HealthAsideTests {
  typealias Kill = StraceKill

  static let clock = "2026-01-01 06:00"
  static let export = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("golden/files/apple-ios8.xml").path

  /// The first Health command: weights into the app's journal, steps and energy into a new
  /// `health.sqlite`, one command.
  static func command(_ store: String) -> [String] {
    ["--store", store, "--clock", clock, "-e", "import \(export) types weight,steps,energy"]
  }

  /// A store with entries and no `health.sqlite`.
  static func appOnlyStore() throws -> String {
    let base = WeighProcess.temporaryDirectory()
    let setup = try WeighProcess.run(["--store", base, "--clock", clock, "-e", "log 80kg"])
    #expect(setup.status == 0, "\(setup.standardError)")
    #expect(!FileManager.default.fileExists(atPath: base + "/health.sqlite"))
    return base
  }

  @Test func aFirstHealthCommandKilledAtAnyWriteIsAllThereOrNotAtAll() throws {
    let base = try Self.appOnlyStore()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let before = try Kill.shown(try Kill.copy(base), clock: Self.clock)
    let whole = try Kill.copy(base)
    defer { try? FileManager.default.removeItem(atPath: whole) }
    let run = try WeighProcess.run(Self.command(whole))
    #expect(run.status == 0, "\(run.standardError)")
    let after = try Kill.shown(whole, clock: Self.clock)
    #expect(after != before)
    #expect(after.contains("steps"), "\(after)")
    let files = try FileManager.default.contentsOfDirectory(atPath: whole)
    #expect(!files.contains("health.sqlite.tmp"), "\(files)")
    #expect(files.contains("health.sqlite"), "\(files)")
    let check = try WeighProcess.run(["check", "--store", whole])
    #expect(check.status == 0, "\(check.standardOutput)")
    let kills = try Kill.killAtEveryWrite(
      base: base, clock: Self.clock, Self.command, expected: [before, after])
    #expect(kills > 5)
  }

  /// What a kill before the rename leaves (the temporary file, a lone log mark) is ignored
  /// by the next open and `check`, and removed by the next creation.
  @Test func whatAKillLeavesBesideTheStoreIsIgnoredThenRemoved() throws {
    let base = try Self.appOnlyStore()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let before = try Kill.shown(try Kill.copy(base), clock: Self.clock)
    let store = try Kill.copy(base)
    defer { try? FileManager.default.removeItem(atPath: store) }
    try Data("half a database".utf8).write(to: URL(fileURLWithPath: store + "/health.sqlite.tmp"))
    try Data().write(to: URL(fileURLWithPath: store + "/health.sqlite-wal"))
    #expect(try Kill.shown(store, clock: Self.clock) == before)
    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.status == 0, "\(check.standardOutput)")
    let run = try WeighProcess.run(Self.command(store))
    #expect(run.status == 0, "\(run.standardError)")
    let whole = try Kill.copy(base)
    defer { try? FileManager.default.removeItem(atPath: whole) }
    #expect(try WeighProcess.run(Self.command(whole)).status == 0)
    #expect(try Kill.shown(store, clock: Self.clock) == Kill.shown(whole, clock: Self.clock))
    let files = try FileManager.default.contentsOfDirectory(atPath: store)
    #expect(!files.contains("health.sqlite.tmp"), "\(files)")
    #expect(!files.contains("health.sqlite-wal"), "\(files)")
  }

  /// The session goes on after the rename with `health.sqlite` opened where it now is: the
  /// next commands of the same process read and write it.
  @Test func theSessionGoesOnWithTheFileInPlace() throws {
    let base = try Self.appOnlyStore()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let run = try WeighProcess.run([
      "--store", base, "--clock", Self.clock, "-e", "health add 70kg at 2025-12-31 08:00 source A",
      "-e", "health add 71kg at 2025-12-31 09:00 source B", "-e", "health list",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("70") && run.standardOutput.contains("71"))
    let again = try WeighProcess.run(["--store", base, "--clock", Self.clock, "-e", "health list"])
    let lines = again.standardOutput.components(separatedBy: "\n").filter { $0.contains("kg") }
    #expect(lines.count == 2, "\(again.standardOutput)")
    let files = try FileManager.default.contentsOfDirectory(atPath: base)
    #expect(!files.contains("health.sqlite.tmp"), "\(files)")
    #expect(!files.contains("health.sqlite-wal"), "\(files)")
  }
}
