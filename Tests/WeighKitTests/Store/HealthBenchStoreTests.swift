import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// The bench store of `scripts/bench-health.sh` (`weigh-bench health-store`): made fast
/// beside weigh's own commands, it must be a store weigh keeps, whole and consistent.
@Suite struct HealthBenchStoreTests {
  @Test func aSmallBenchStoreChecksCleanAndHoldsWhatItSays() throws {
    let built = builtProduct(named: "weigh-bench")
    try #require(FileManager.default.isExecutableFile(atPath: built), "build weigh-bench first")
    let parent = TemporaryStoreDirectory()
    defer { parent.remove() }
    let directory = parent.file("bench")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: built)
    process.arguments = ["health-store", directory, "4500"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("4500 samples (1000 body mass)"), "\(text)")

    let check = StoreCheck.run(.directory(directory))
    #expect(check.ok, "\(check.text)")
    #expect(check.text == "ok: the store reads in full\n")

    do {
      let storage = try HealthSQLiteStorage(
        path: StoreLocation.joinPath(directory, HealthSQLiteStorage.fileName), creating: false)
      defer { try? storage.close() }
      #expect(try storage.counts(of: nil) == RecordCounts(samples: 4500, deletions: 0))
      #expect(try storage.counts(of: .bodyMass).samples == 1000)
      // 45 + 45 + 8 + 2 of each 100 of the 3,500 others; the run replaces glucose sample 99.
      #expect(try storage.counts(of: .stepCount).samples == 1575)
      #expect(try storage.counts(of: .activeEnergyBurned).samples == 1575)
      #expect(try storage.counts(of: .appleExerciseTime).samples == 280)
      #expect(try storage.counts(of: .workout).samples == 1)
      #expect(try storage.counts(of: .bloodGlucose).samples == 69)
      #expect(try storage.smallState()?.counter == storage.lastPosition())
    }

    // Weigh's commands run on it: the log holds the 1,000 readings, already synced.
    var options = SessionOptions.golden
    options.store = .directory(directory)
    options.clock = 1_664_582_400  // 2022-10-01T00:00Z, after the last reading
    let session = try Session(options: options, output: CapturedOutput())
    defer { session.close() }
    #expect(
      session.run(
        script: "expect entries == 1000\nexpect health.samples == 4500\nsync", display: "test",
        directory: "."))
    #expect(session.memory.output.hasPrefix("imported 0, removed 0, skipped 0"))
    #expect(session.run(script: "health delete last", display: "test", directory: "."))
    #expect(session.memory.output.hasPrefix("deleted "))
    #expect(session.memory.output.contains("mg/dL Dexcom G7"), "\(session.memory.output)")
  }
}
