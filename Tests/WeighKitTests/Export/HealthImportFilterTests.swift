import Foundation
import Testing

@testable import WeighKit

/// What one pass over an export keeps for `import … types …`: weights, the records asked
/// for, and workouts only when asked for.
@Suite struct HealthImportFilterTests {
  static let xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_US">
     <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" unit="kg" startDate="2025-12-10 07:00:00 +0000" endDate="2025-12-10 07:00:00 +0000" value="75.0"/>
     <Record type="HKQuantityTypeIdentifierBloodGlucose" sourceName="CGM" unit="mg/dL" startDate="2025-12-10 07:05:00 +0000" endDate="2025-12-10 07:05:00 +0000" value="99"/>
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2025-12-10 08:00:00 +0000" endDate="2025-12-10 08:30:00 +0000" value="1200"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2025-12-10 18:00:00 +0000" endDate="2025-12-10 18:30:00 +0000"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeYoga" sourceName="Watch" endDate="2025-12-11 18:30:00 +0000"/>
     <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" endDate="2025-12-11 18:30:00 +0000"/>
    </HealthData>
    """

  func file() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("weigh-filter-\(UUID().uuidString).xml")
    try Self.xml.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  @Test func weightsOnlyLeavesWorkoutsAndCorrelationsAlone() throws {
    let url = try file()
    defer { try? FileManager.default.removeItem(at: url) }
    let result = try AppleHealthWeightImporter.importWeights(from: url)
    #expect(result.weights.map(\.kilograms) == [75])
    // The broken workout and correlation are not weights, so they are not rejected weights.
    #expect(result.rejections.isEmpty)
  }

  /// The weights and the other items handed over.
  func read(_ url: URL, _ types: Set<String>, workouts: Bool) throws
    -> (WeightImportResult, [(item: HealthExportItem, line: Int)])
  {
    var others: [(item: HealthExportItem, line: Int)] = []
    let weights = try AppleHealthWeightImporter.read(url, alsoReading: types, workouts: workouts) {
      others.append(($0, $1))
    }
    return (weights, others)
  }

  @Test func handsOverTheTypesAskedForInFileOrder() throws {
    let url = try file()
    defer { try? FileManager.default.removeItem(at: url) }
    let (weights, glucose) = try read(
      url, ["HKQuantityTypeIdentifierBloodGlucose"], workouts: false)
    #expect(weights.weights.count == 1)
    #expect(weights.rejections.isEmpty)
    #expect(glucose.map(\.line) == [4])
    guard case .record(let record) = glucose.first?.item else {
      Issue.record("expected the glucose record")
      return
    }
    #expect(record.value == "99")
    let (withWorkouts, workouts) = try read(url, [], workouts: true)
    #expect(workouts.map(\.line) == [6, 7])
    guard case .workout(let workout) = workouts.first?.item else {
      Issue.record("expected the workout")
      return
    }
    #expect(workout.activityType == "HKWorkoutActivityTypeRunning")
    // The workout without a start date is handed over as a rejection of its type, with its
    // line, for the Health line of the report: it is not a rejected weight.
    guard case .invalid(let rejection) = workouts.last?.item else {
      Issue.record("expected the rejected workout")
      return
    }
    #expect(rejection.line == 7)
    #expect(rejection.recordType == healthWorkoutType)
    #expect(withWorkouts.rejections.isEmpty)
  }

  @Test func aBrokenFileHandsOverNothingUsable() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("weigh-filter-\(UUID().uuidString).xml")
    defer { try? FileManager.default.removeItem(at: url) }
    // Cut inside the last workout: the reader has handed over earlier items, then fails.
    let cut = Self.xml.prefix(through: Self.xml.range(of: "HKWorkoutActivityTypeYoga")!.lowerBound)
    try String(cut).write(to: url, atomically: true, encoding: .utf8)
    var handed = 0
    #expect(throws: ImportError.self) {
      _ = try AppleHealthWeightImporter.read(
        url, alsoReading: ["HKQuantityTypeIdentifierStepCount"], workouts: true
      ) { _, _ in handed += 1 }
    }
    // Hence the command collects first and applies only after the reader finished.
    #expect(handed == 2)
  }
}
