import Foundation
import Testing

/// A new store's first Health command past the UUID index's exact set (4,096 samples) built
/// aside: the file's pages are written and on their way to the disk before the index's sort
/// (`HealthSQLiteAsideWriteback`), and synced after it, before the rename; killed at any
/// write, sync, rename or unlink, the store shows the whole command or none of it.
@Suite(.enabled(if: StraceKill.canInject)) struct HealthAsideLargeTests {
  typealias Kill = StraceKill

  static let clock = "2026-01-01 06:00"
  static let steps = 4_500

  /// An export of `steps` step counts, one a minute, and one weight.
  static func export() throws -> String {
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <HealthData locale="en_GB">
       <ExportDate value="20250610201512+0000"/>
       <Record type="HKQuantityTypeIdentifierBodyMass" source="Scale" unit="kg" \
      startDate="20250531070000+0000" endDate="20250531070000+0000" value="70.4"/>

      """
    for minute in 0..<steps {
      let date = String(
        format: "202506%02d%02d%02d00+0000", 1 + minute / 1440, minute / 60 % 24, minute % 60)
      xml += " <Record type=\"HKQuantityTypeIdentifierStepCount\" source=\"Phone\" unit=\"count\" "
      xml += "startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(minute % 97 + 1)\"/>\n"
    }
    xml += "</HealthData>\n"
    let path = WeighProcess.temporaryDirectory() + "/export.xml"
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func command(_ export: String) -> (String) -> [String] {
    { ["--store", $0, "--clock", clock, "-e", "import \(export) types weight,steps"] }
  }

  /// A store with entries and no `health.sqlite`.
  static func appOnlyStore() throws -> String {
    let base = WeighProcess.temporaryDirectory()
    let setup = try WeighProcess.run(["--store", base, "--clock", clock, "-e", "log 80kg"])
    #expect(setup.status == 0, "\(setup.standardError)")
    return base
  }

  /// The writeback is asked for on the temporary file before its sync, and the sync and
  /// the rename are where they were.
  @Test func theFileIsOnItsWayBeforeItsSyncAndTheRename() throws {
    let export = try Self.export()
    defer {
      try? FileManager.default.removeItem(atPath: (export as NSString).deletingLastPathComponent)
    }
    let store = try Self.appOnlyStore()
    defer { try? FileManager.default.removeItem(atPath: store) }
    let trace = store + ".trace"
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Kill.strace)
    process.arguments =
      [
        "-f", "-y", "-o", trace, "-e", "trace=sync_file_range,fsync,rename",
        WeighProcess.executable,
      ]
      + Self.command(export)(store)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    func first(_ call: String, _ file: String) -> Int? {
      lines.firstIndex { $0.contains(call + "(") && $0.contains(file) }
    }
    let writeback = first("sync_file_range", "health.sqlite.tmp>")
    let sync = first("fsync", "health.sqlite.tmp>")
    let rename = first("rename", "health.sqlite.tmp\"")
    #expect(writeback != nil, "\(lines)")
    #expect(sync != nil && rename != nil, "\(lines)")
    if let writeback, let sync, let rename { #expect(writeback < sync && sync < rename) }
    let listed = try WeighProcess.run(["--store", store, "-e", "health list steps"])
    #expect(
      listed.standardOutput.split(separator: "\n").count >= Self.steps, "\(listed.standardError)")
    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.status == 0, "\(check.standardOutput)")
  }

  @Test func killedAtAnyWriteItIsAllThereOrNotAtAll() throws {
    let export = try Self.export()
    defer {
      try? FileManager.default.removeItem(atPath: (export as NSString).deletingLastPathComponent)
    }
    let base = try Self.appOnlyStore()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let before = try Kill.shown(try Kill.copy(base), clock: Self.clock)
    let whole = try Kill.copy(base)
    defer { try? FileManager.default.removeItem(atPath: whole) }
    let run = try WeighProcess.run(Self.command(export)(whole))
    #expect(run.status == 0, "\(run.standardError)")
    let after = try Kill.shown(whole, clock: Self.clock)
    #expect(after != before)
    let kills = try Kill.killAtEveryWrite(
      base: base, clock: Self.clock, Self.command(export), expected: [before, after])
    #expect(kills > 5)
  }
}
