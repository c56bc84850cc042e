import Foundation
import Testing

/// A new store's import with `types` whose journal record passes 8 MiB: health.sqlite's
/// pending row is written a piece at a time, its head copied from the journal
/// (docs/store.md, "The pending record written in pieces (hpend21)"). Killed by strace at
/// page writes spread over the whole command, and at each of its syncs, renames and writes
/// (the `COMMIT`'s, the rename of the file built aside, the journal's append), the store
/// shows the whole import or none of it, and checks clean.
@Suite(.enabled(if: StraceKill.canInject)) struct HealthPendingPiecesTests {
  typealias Kill = StraceKill

  static let clock = "2026-01-01 06:00"
  /// About 130 bytes of journal record a weight: past `StoreJournal.largeRecordBytes`.
  static let weights = 80_000

  /// An export of `weights` weights, one a minute in time order, and a step count.
  static func export() throws -> String {
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <HealthData locale="en_GB">
       <ExportDate value="20250610201512+0000"/>
       <Record type="HKQuantityTypeIdentifierStepCount" source="Phone" unit="count" \
      startDate="20250101070000+0000" endDate="20250101070000+0000" value="120"/>

      """
    for minute in 0..<weights {
      // 28 days a month, so that every date exists.
      let date = String(
        format: "2025%02d%02d%02d%02d00+0000", 1 + minute / 40_320, 1 + minute / 1440 % 28,
        minute / 60 % 24, minute % 60)
      xml += " <Record type=\"HKQuantityTypeIdentifierBodyMass\" source=\"Scale\" unit=\"kg\" "
      xml += "startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(60 + minute % 30).5\"/>\n"
    }
    xml += "</HealthData>\n"
    let path = WeighProcess.temporaryDirectory() + "/export.xml"
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The length of the log's listing and its last entries, and Health's steps: what the store shows, read by a
  /// new process (which finishes a commit the kill interrupted).
  static func shown(_ store: String) throws -> String {
    let result = try WeighProcess.run(
      [
        "--store", store, "--clock", clock, "-e", "list", "-e", "health list steps",
      ])
    return "\(result.status)\n\(result.standardOutput.count)\n\(result.standardOutput.suffix(400))"
  }

  @Test func killedAtWritesOfTheWholeImportItIsAllThereOrNotAtAll() throws {
    let export = try Self.export()
    defer {
      try? FileManager.default.removeItem(atPath: (export as NSString).deletingLastPathComponent)
    }
    let command: (String) -> [String] = {
      ["--store", $0, "--clock", Self.clock, "-e", "import \(export) types weight,steps"]
    }
    let base = WeighProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let before = try Self.shown(try Kill.copy(base))
    let whole = try Kill.copy(base)
    defer { try? FileManager.default.removeItem(atPath: whole) }
    #expect(try WeighProcess.run(command(whole)).status == 0)
    let after = try Self.shown(whole)
    #expect(after.count > before.count, "\(after.prefix(200))")
    let pending = try WeighProcess.run(["check", "--store", whole])
    #expect(pending.status == 0, "\(pending.standardOutput)")

    // strace counts each call apart: the Nth page written (spread over the record's
    // pieces), then the Nth sync, rename, unlink or truncation, then the Nth `write` (the
    // journal's pieces and its append), for every N until the command ends.
    var kills = 0
    var finished = Set<String>()
    var appendedByTheOpen = 0
    for (calls, step) in [
      ("pwrite64", 240), ("fsync,fdatasync,rename,renameat,renameat2,unlink,ftruncate", 1),
      ("write", 1),
    ] {
      for call in stride(from: 1, through: 20_000, by: step) {
        let store = try Kill.copy(base)
        defer { try? FileManager.default.removeItem(atPath: store) }
        let run = try Kill.traced(command(store), killAt: call, calls: calls)
        if run.status == 0 { break }
        kills += 1
        // Committed, and the journal ends in the streamed head: the open appends the rest.
        let journal = FileManager.default.contents(atPath: store + "/journal.jsonl") ?? Data()
        if FileManager.default.fileExists(atPath: store + "/health.sqlite"),
          journal.count > 1 << 20, journal.last != 0x0A
        {
          appendedByTheOpen += 1
        }
        let state = try Self.shown(store)
        #expect(state == before || state == after, "killed at \(calls) \(call)")
        finished.insert(state == after ? "all" : "none")
        let check = try WeighProcess.run(["check", "--store", store])
        #expect(check.status == 0, "killed at \(calls) \(call): \(check.standardOutput)")
      }
    }
    #expect(kills > 20)
    #expect(finished == ["all", "none"], "kills before and after the commit point")
    #expect(appendedByTheOpen >= 1, "a kill between the COMMIT and the journal's append")
  }
}
