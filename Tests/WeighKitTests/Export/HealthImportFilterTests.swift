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

  @Test func keepsTheTypesAskedForInFileOrder() throws {
    let url = try file()
    defer { try? FileManager.default.removeItem(at: url) }
    let glucose = try AppleHealthWeightImporter.read(
      url, alsoReading: ["HKQuantityTypeIdentifierBloodGlucose"], workouts: false)
    #expect(glucose.weights.weights.count == 1)
    #expect(glucose.records.map(\.record.value) == ["99"])
    #expect(glucose.records.map(\.line) == [4])
    #expect(glucose.workouts.isEmpty)
    #expect(glucose.weights.rejections.isEmpty)
    let workouts = try AppleHealthWeightImporter.read(url, alsoReading: [], workouts: true)
    #expect(workouts.records.isEmpty)
    #expect(workouts.workouts.map(\.workout.activityType) == ["HKWorkoutActivityTypeRunning"])
    // The workout without a start date is reported, with its line.
    #expect(workouts.weights.rejections.map(\.line) == [7])
  }
}
