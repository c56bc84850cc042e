import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// The bench store of `scripts/bench-health.sh` (`weigh-bench health-store`): made fast
/// beside weigh's own commands, it must be a store weigh keeps, whole and consistent.
@Suite struct HealthBenchStoreTests {
  /// Runs `weigh-bench health-store DIRECTORY OTHERS` and returns what it printed.
  private func makeStore(_ directory: String, others: Int) throws -> String {
    let built = builtProduct(named: "weigh-bench")
    try #require(FileManager.default.isExecutableFile(atPath: built), "build weigh-bench first")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: built)
    process.arguments = ["health-store", directory, String(others)]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    return text
  }

  /// What `script` prints over the store in `directory` at the bench's clock.
  private func run(_ script: String, on directory: String) throws -> String {
    var options = SessionOptions.golden
    options.store = .directory(directory)
    options.clock = 1_664_582_400  // 2022-10-01T00:00Z, the end of the other samples
    let session = try Session(options: options, output: CapturedOutput())
    defer { session.close() }
    #expect(session.run(script: script, display: "test", directory: "."))
    return session.memory.output
  }

  @Test func aSmallBenchStoreChecksCleanAndHoldsWhatItSays() throws {
    let parent = TemporaryStoreDirectory()
    defer { parent.remove() }
    let directory = parent.file("bench")
    let text = try makeStore(directory, others: 3500)
    #expect(
      text.contains("4500 samples (1000 body mass, 3500 others over 4 days)"), "\(text)")

    let check = StoreCheck.run(.directory(directory))
    #expect(check.ok, "\(check.text)")
    #expect(check.text == "ok: the store reads in full\n")

    do {
      let storage = try HealthSQLiteStorage(
        path: StoreLocation.joinPath(directory, HealthSQLiteStorage.fileName), creating: false)
      defer { try? storage.close() }
      #expect(try storage.counts(of: nil) == RecordCounts(samples: 4500, deletions: 0))
      #expect(try storage.counts(of: .bodyMass).samples == 1000)
      // 40 + 50 + 3 + 7 of each 100 of the 3,500 others; place 99 is a run, not energy.
      #expect(try storage.counts(of: .stepCount).samples == 1400)
      #expect(try storage.counts(of: .activeEnergyBurned).samples == 1749)
      #expect(try storage.counts(of: .appleExerciseTime).samples == 105)
      #expect(try storage.counts(of: .workout).samples == 1)
      #expect(try storage.counts(of: .bloodGlucose).samples == 245)
      #expect(try storage.smallState()?.counter == storage.lastPosition())
    }

    // Weigh's commands run on it: the log holds the 1,000 readings, already synced; the
    // newest sample is the phone's step count that ends at the clock.
    #expect(
      try run("expect entries == 1000\nexpect health.samples == 4500\nsync", on: directory)
        .hasPrefix("imported 0, removed 0, skipped 0"))
    let deleted = try run("health delete last", on: directory)
    #expect(deleted.hasPrefix("deleted "))
    #expect(deleted.contains("iPhone"), "\(deleted)")
  }

  /// The density is constant: the day `bench-health.sh` measures, 2022-09-30, holds the
  /// same samples in the smallest store (1,000 others: that day alone) as in a bigger one,
  /// and a bigger store reaches further back.
  @Test func theMeasuredDayIsTheSameAtEverySize() throws {
    let parent = TemporaryStoreDirectory()
    defer { parent.remove() }
    let small = parent.file("small")
    let big = parent.file("big")
    _ = try makeStore(small, others: 1000)
    _ = try makeStore(big, others: 5000)
    let day = "summary 2022-09-30"
    let summary = try run(day, on: small)
    #expect(summary == (try run(day, on: big)))
    #expect(summary.contains("steps"), "\(summary)")
    #expect(!summary.contains("none"), "\(summary)")
    let before = "summary 2022-09-29"
    #expect((try run(before, on: small)).contains("steps:         none"))
    #expect(!(try run(before, on: big)).contains("none"))
    #expect(StoreCheck.run(.directory(big)).ok)
  }
}
