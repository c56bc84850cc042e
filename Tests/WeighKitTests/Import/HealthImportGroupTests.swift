import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// The reader's thread of `import … types …` (`HealthImportPlan.BatchReader`) numbers each
/// sample's source revision within its batch and checks each sample's content, so that the
/// saving thread groups by a number and does not check again: the numbers must group
/// exactly as equal revisions do, and the checks must pass exactly the samples Health takes.
@Suite struct HealthImportGroupTests {
  /// A steps record at `minute` (seconds since 2025-11-01 00:00 UTC from `minute`) of one
  /// of the sources and versions, `value` its count.
  static func record(minute: Int64, source: String, version: String?, value: String)
    -> HealthExportItem
  {
    let start = 1_761_955_200 + minute * 60
    return .record(
      HealthExportRecord(
        type: "HKQuantityTypeIdentifierStepCount", sourceName: source, sourceVersion: version,
        unit: "count", startDate: HealthExportDate(instant: start, offsetSeconds: 0),
        endDate: HealthExportDate(instant: start + 60, offsetSeconds: 0), value: value))
  }

  /// Records of 14 revisions (7 names, two versions each, and names alike but for a
  /// version) in a random order with runs, across batches of 1, 5, 37 and 1,000: within a
  /// batch, two samples have the same number exactly when their revisions are equal, and
  /// the batch's revisions are distinct and those of its samples.
  @Test(arguments: [1, 5, 37, 1_000])
  func equalRevisionsShareANumber(batchSize: Int) {
    var random = SeededGenerator(seed: UInt64(batchSize))
    let names = ["Phone", "Watch", "Anna’s iPhone", "Scale", "App", "Ring", "Band"]
    var reader = HealthImportPlan.BatchReader(types: [.steps], batchSize: batchSize)
    var batches: [HealthImportPlan.Batch] = []
    var minute: Int64 = 0
    while minute < 600 {
      let name = names[Int(random.next() % UInt64(names.count))]
      let version = random.next() % 2 == 0 ? "1.0" : (random.next() % 3 == 0 ? nil : "2.0")
      // Runs of one revision, as an export has.
      for _ in 0..<Int(1 + random.next() % 6) {
        minute += 1
        let item = Self.record(minute: minute, source: name, version: version, value: "12")
        if let full = reader.take(item, line: Int(minute)) { batches.append(full) }
      }
    }
    batches.append(reader.rest())
    var samples = 0
    for batch in batches {
      samples += batch.candidates.count
      for (index, revision) in batch.revisions.enumerated() {
        #expect(!batch.revisions[..<index].contains(revision))
      }
      #expect(Set(batch.candidates.map(\.group)) == Set(batch.revisions.indices))
      for first in batch.candidates {
        #expect(batch.revisions[first.group] == first.imported.revision)
        for second in batch.candidates {
          #expect(
            (first.group == second.group)
              == (first.imported.revision == second.imported.revision))
        }
      }
    }
    #expect(samples == Int(minute))
  }

  /// A sample is checked on the reader's thread exactly when Health takes it (the mapping
  /// keeps out what Health would refuse, so every one here is), and the checked sample is
  /// the sample itself.
  @Test func theReaderChecksWhatHealthTakes() throws {
    var reader = HealthImportPlan.BatchReader(types: [.steps, .workouts], batchSize: 100)
    _ = reader.take(Self.record(minute: 1, source: "Phone", version: nil, value: "40"), line: 1)
    let start = HealthExportDate(instant: 1_761_955_200, offsetSeconds: 0)
    let end = HealthExportDate(instant: 1_761_957_000, offsetSeconds: 0)
    let workout = HealthExportWorkout(
      activityType: "HKWorkoutActivityTypeRunning", duration: "30", durationUnit: "min",
      totalDistance: "3", totalDistanceUnit: "km", sourceName: "Watch", startDate: start,
      endDate: end)
    _ = reader.take(.workout(workout), line: 2)
    let batch = reader.rest()
    #expect(batch.candidates.count == 2)
    for candidate in batch.candidates {
      let refusal: HealthError? = {
        do throws(HealthError) {
          try HealthStore(clock: Date(timeIntervalSince1970: 1_800_000_000)).save(
            [candidate.imported.sample], as: candidate.imported.revision)
          return nil
        } catch { return error }
      }()
      #expect((candidate.checked == nil) == (refusal != nil), "line \(candidate.line)")
      #expect(candidate.checked.map { $0.sample == candidate.imported.sample } ?? true)
    }
  }
}
