import Foundation
import Testing

@testable import WeighKit

/// Runs scripts/gen-apple-export.py at a small size and reads its output back.
@Suite struct GeneratedExportTests {
  static let script = Fixtures.folder.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/gen-apple-export.py")

  static var python: URL? {
    let env = URL(fileURLWithPath: "/usr/bin/env")
    return FileManager.default.isExecutableFile(atPath: env.path) ? env : nil
  }

  /// Runs the generator; returns its summary line.
  func generate(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = try #require(Self.python)
    process.arguments = ["python3", Self.script.path] + arguments
    let pipe = Pipe()
    process.standardError = pipe
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  @Test(.enabled(if: python != nil)) func generatedZipIsAWellFormedAppleExport() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let zip = folder.appendingPathComponent("export.zip")
    let summary = try generate(["--size", "400K", "--out", zip.path, "--seed", "7"])
    // "wrote …: export.xml N bytes, R records, B body mass, W workouts, C correlations"
    let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    let (records, bodyMass, workouts, correlations) = (
      numbers[numbers.count - 4], numbers[numbers.count - 3], numbers[numbers.count - 2],
      numbers[numbers.count - 1]
    )
    var seen = (records: 0, workouts: 0, correlations: 0, bodyMassIndex: 0)
    var units = Set<String>()
    try AppleHealthExportReader.read(contentsOf: zip) { item, _ in
      switch item {
      case .record(let record):
        seen.records += 1
        if record.type == healthBodyMassType { units.insert(record.unit ?? "") }
        if record.type == "HKQuantityTypeIdentifierBodyMassIndex" { seen.bodyMassIndex += 1 }
      case .workout: seen.workouts += 1
      case .correlation: seen.correlations += 1
      case .invalid(let rejection): Issue.record("invalid record: \(rejection)")
      default: break
      }
    }
    #expect(seen.records == records)
    #expect(seen.workouts == workouts)
    #expect(seen.correlations == correlations)
    let weights = try AppleHealthWeightImporter.importWeights(from: zip)
    #expect(weights.weights.count == bodyMass)
    #expect(weights.rejections.isEmpty)
    #expect(seen.bodyMassIndex == bodyMass)
    #expect(units == ["kg", "lb"])
    #expect(bodyMass > 0 && records > 100 * bodyMass / 2)
  }
}
