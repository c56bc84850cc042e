import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// Blood-pressure correlations in `health export` and in a store on disk (the language
/// cannot write one; an app's HealthKit code or another source does).
@Suite struct HealthExportCorrelationTests {
  let omron = SourceRevision(
    source: HealthSource(name: "Omron", bundleIdentifier: "sim.omron"), version: "2.1")

  func pressure(_ systolic: Double, _ diastolic: Double, at date: Date) -> HealthSample {
    HealthSample(
      correlation: .bloodPressure,
      objects: [
        HealthSample(type: .bloodPressureSystolic, value: systolic, start: date),
        HealthSample(type: .bloodPressureDiastolic, value: diastolic, start: date),
      ], start: date, metadata: ["Arm": .string("left")])
  }

  func run(_ session: Session, _ output: CapturedOutput, _ script: String) -> String {
    let start = output.text.endIndex
    _ = session.run(script: script, display: "test", directory: ".")
    return String(output.text[start...])
  }

  @Test func exportWritesACorrelationWithItsRecordsAfterTheRecords() throws {
    let output = CapturedOutput()
    let session = try Session(options: .golden, output: output)
    _ = run(session, output, "set tz UTC\nhealth add 70kg at 07:00 source Withings")
    let health = try session.health()
    let date = health.now.addingTimeInterval(-600)
    try health.save([pressure(121, 79, at: date)], as: omron)
    let xml = run(session, output, "health export -")
    let lines = xml.split(separator: "\n").map(String.init)
    let correlation = try #require(
      lines.firstIndex {
        $0.hasPrefix(" <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\"")
      })
    #expect(lines[correlation].contains("sourceName=\"Omron\" sourceVersion=\"2.1\""))
    #expect(lines[correlation + 1] == "  <MetadataEntry key=\"Arm\" value=\"left\"/>")
    let systolic = lines.indices.filter {
      lines[$0].contains("HKQuantityTypeIdentifierBloodPressureSystolic")
    }
    // Once at the top level, before the correlation, and once inside it.
    #expect(systolic.count == 2)
    #expect(systolic[0] < correlation && systolic[1] > correlation)
    #expect(lines[systolic[1]].hasPrefix("  <Record "))
    #expect(lines[systolic[1]].contains("unit=\"mmHg\""))
    #expect(lines[systolic[1]].contains("value=\"121\""))
    #expect(lines.filter { $0 == " </Correlation>" }.count == 1)
    let report = run(session, output, "health export bp.tmp.xml")
    #expect(report.hasPrefix("exported 3 records, 1 correlation and 0 workouts to bp.tmp.xml"))
    unlink("bp.tmp.xml")
  }

  @Test func aStoreOnDiskKeepsCorrelationsAndTheNewTypes() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("weigh-correlation-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var options = SessionOptions.golden
    options.store = .directory(directory)
    var saved: [HealthSample] = []
    do {
      let output = CapturedOutput()
      let session = try Session(options: options, output: output)
      let health = try session.health()
      saved = try health.save(
        [
          pressure(130, 85, at: health.now),
          HealthSample(type: .bodyFatPercentage, value: 0.21, start: health.now),
        ], as: omron)
      // A command commits what Health recorded.
      _ = run(session, output, "health add 70kg source Withings")
      session.close()
    }
    let output = CapturedOutput()
    let session = try Session(options: options, output: output)
    defer { session.close() }
    let health = try session.health()
    #expect(health.allSamples(of: .bloodPressure) == [saved[0]])
    #expect(health.allSamples(of: .bodyFatPercentage) == [saved[1]])
    #expect(health.allSamples(of: .bloodPressureSystolic).map(\.value) == [130])
    #expect(health.liveSampleCount(of: .bodyMass) == 1)
  }
}
