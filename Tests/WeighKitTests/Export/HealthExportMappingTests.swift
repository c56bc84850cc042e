import Foundation
import HealthSim
import Testing

@testable import WeighKit

private let amsterdam = ZonedClock(identifier: "Europe/Amsterdam")!

/// A saved sample as the store would hold it.
private func saved(
  _ type: SampleType, _ value: Double, start: Int64, end: Int64? = nil, source: String = "Withings",
  version: String? = "6.4", device: HealthDevice? = nil, metadata: Metadata = [:],
  workout: WorkoutDetails? = nil
) -> HealthSample {
  HealthSample(
    uuid: UUID(), type: type, startDate: Date(seconds: start), endDate: Date(seconds: end ?? start),
    value: value,
    sourceRevision: SourceRevision(
      source: HealthSource(name: source, bundleIdentifier: HealthAddCommand.bundle(for: source)),
      version: version),
    device: device, metadata: metadata, creationDate: Date(seconds: start + 60), workout: workout)
}

/// Writes the samples with the writer, reads them back with the parser, maps them again.
private func roundTrip(_ samples: [HealthSample]) throws -> [HealthExportMapping.Imported] {
  let xml = try AppleHealthExportWriter.xml(
    exportDate: HealthExportDate(instant: 0, offsetSeconds: 0)
  ) {
    writer in
    for sample in samples {
      if sample.type == .workout {
        try writer.write(HealthExportMapping.workout(for: sample, zone: amsterdam))
      } else {
        try writer.write(HealthExportMapping.record(for: sample, zone: amsterdam))
      }
    }
  }
  var items: [(HealthExportItem, Int)] = []
  let parser = AppleHealthExportParser { items.append(($0, $1)) }
  try parser.feed(Array(xml.utf8))
  try parser.finish()
  return try items.compactMap { item, line in
    switch item {
    case .record(let record):
      return try HealthExportMapping.sample(
        from: record, type: SampleType(identifier: record.type)!, line: line)
    case .workout(let workout):
      return try HealthExportMapping.sample(from: workout, line: line)
    default:
      return nil
    }
  }
}

@Suite struct HealthExportMappingTests {
  // 2026-01-03 06:30 UTC (+0100) and 2026-07-03 05:30 UTC (+0200).
  let winter: Int64 = 1_767_421_800
  let summer: Int64 = 1_783_056_600

  @Test func recordHasApplesAttributesAndEachMomentsOffset() {
    let watch = HealthDevice(
      name: "Body+", manufacturer: "Withings", model: "WBS05", hardwareVersion: "2",
      softwareVersion: "1.4")
    let record = HealthExportMapping.record(
      for: saved(
        .bodyMass, 68.5, start: winter, device: watch,
        metadata: [MetadataKey.wasUserEntered: .number(1), "b": .string("x"), "a": .bool(false)]),
      zone: amsterdam)
    #expect(record.type == "HKQuantityTypeIdentifierBodyMass")
    #expect(record.sourceName == "Withings")
    #expect(record.sourceVersion == "6.4")
    #expect(record.unit == "kg")
    #expect(record.value == "68.5")
    #expect(record.startDate.description == "2026-01-03 07:30:00 +0100")
    #expect(record.creationDate?.description == "2026-01-03 07:31:00 +0100")
    #expect(
      record.device
        == "<<HKDevice: 0x282a45810>, name:Body+, manufacturer:Withings, model:WBS05, hardware:2, software:1.4>"
    )
    #expect(record.metadata.map(\.key) == ["HKWasUserEntered", "a", "b"])
    #expect(record.metadata.map(\.value) == ["1", "0", "x"])
    let july = HealthExportMapping.record(
      for: saved(.stepCount, 8000, start: summer, end: summer + 1800), zone: amsterdam)
    #expect(july.startDate.description == "2026-07-03 07:30:00 +0200")
    #expect(july.endDate.description == "2026-07-03 08:00:00 +0200")
    #expect(july.value == "8000")
    #expect(july.unit == "count")
  }

  @Test func unitsAreTheCanonicalOnes() {
    let units = [
      SampleType.bodyMass, .bloodGlucose, .stepCount, .activeEnergyBurned, .appleExerciseTime,
    ]
    .map { HealthExportMapping.record(for: saved($0, 1, start: winter), zone: amsterdam).unit }
    #expect(units == ["kg", "mg/dL", "count", "kcal", "min"])
  }

  @Test func everyTypeComesBackExactly() throws {
    // Every value lies in the range of every type (the store loads no other).
    let values = [68.5, 0.1, 1.0 / 3, 104.487_410_400_031_37, 999.125, 7e-7, 350]
    var samples: [HealthSample] = []
    for (index, value) in values.enumerated() {
      let start = winter + Int64(index) * 86_400
      samples.append(saved(.bodyMass, value, start: start))
      // Glucose must lie in 0–10000 mg/dL (the test keeps it below 2000).
      samples.append(
        saved(
          .bloodGlucose, value < 1900 ? value + 40 : 1999.5, start: start, source: "Dexcom G7",
          version: nil,
          device: HealthDevice(name: "G7", manufacturer: "Dexcom"),
          metadata: [MetadataKey.wasUserEntered: .number(1), "Note": .string("a, <b> & \"c\"")]))
      samples.append(
        saved(.stepCount, value, start: start, end: start + 600, source: "Sam’s iPhone"))
      samples.append(saved(.activeEnergyBurned, value, start: start, end: start + 600))
      samples.append(
        saved(
          .appleExerciseTime, value, start: start, end: start + 600,
          metadata: [
            MetadataKey.syncIdentifier: .string("ex-\(index)"), MetadataKey.syncVersion: .number(2),
          ]))
    }
    let back = try roundTrip(samples)
    #expect(back.count == samples.count)
    for (original, imported) in zip(samples, back) {
      #expect(imported.sample.type == original.type)
      #expect(imported.sample.value == original.value)
      #expect(imported.sample.startDate == original.startDate)
      #expect(imported.sample.endDate == original.endDate)
      #expect(imported.sample.device == original.device)
      #expect(imported.sample.metadata == original.metadata)
      #expect(imported.revision.source == original.source)
      #expect(imported.revision.version == original.sourceRevision?.version)
    }
  }

  @Test func workoutComesBackWithDurationDistanceAndEnergy() throws {
    let details = WorkoutDetails(
      activityType: .cycling, duration: 2700, totalEnergyBurned: 512.5, totalDistance: 20_100)
    let original = HealthSample(
      uuid: UUID(), type: .workout, startDate: Date(seconds: summer),
      endDate: Date(seconds: summer + 3000), value: 45,
      sourceRevision: SourceRevision(
        source: HealthSource(name: "Strava", bundleIdentifier: "sim.strava"), version: "300"),
      device: nil, metadata: [MetadataKey.timeZone: .string("Europe/Amsterdam")],
      creationDate: nil, workout: details)
    let exported = HealthExportMapping.workout(for: original, zone: amsterdam)
    #expect(exported.activityType == "HKWorkoutActivityTypeCycling")
    #expect(exported.duration == "45")
    #expect(exported.durationUnit == "min")
    #expect(exported.totalDistance == "20.1")
    #expect(exported.totalDistanceUnit == "km")
    #expect(exported.totalEnergyBurnedUnit == "kcal")
    let back = try #require(try roundTrip([original]).first)
    #expect(back.sample.type == .workout)
    #expect(back.sample.value == 45)
    #expect(back.sample.workout?.activityType == .cycling)
    #expect(back.sample.workout?.duration == 2700)
    #expect(back.sample.workout?.totalEnergyBurned == 512.5)
    #expect(abs((back.sample.workout?.totalDistance ?? 0) - 20_100) < 1e-9)
    #expect(back.sample.endDate == original.endDate)
    #expect(back.sample.metadata == original.metadata)
  }

  @Test func workoutTotalsComeFromStatisticsWhenLeftOut() throws {
    let start = HealthExportDate(instant: summer, offsetSeconds: 7200)
    let end = HealthExportDate(instant: summer + 1800, offsetSeconds: 7200)
    let workout = HealthExportWorkout(
      activityType: "HKWorkoutActivityTypeWalking", duration: "1800", durationUnit: "s",
      sourceName: "Watch", startDate: start, endDate: end,
      statistics: [
        .init(
          type: "HKQuantityTypeIdentifierHeartRate", startDate: start, endDate: end,
          average: "110", unit: "count/min"),
        .init(
          type: "HKQuantityTypeIdentifierActiveEnergyBurned", startDate: start, endDate: end,
          sum: "836.8", unit: "kJ"),
        .init(
          type: "HKQuantityTypeIdentifierDistanceWalkingRunning", startDate: start, endDate: end,
          sum: "2", unit: "mi"),
      ])
    let details = try #require(
      try HealthExportMapping.sample(from: workout, line: 3).sample.workout)
    #expect(details.activityType == .walking)
    #expect(details.duration == 1800)
    #expect(abs((details.totalEnergyBurned ?? 0) - 200) < 1e-9)
    #expect(details.totalDistance == 3218.688)
  }

  @Test func recordsAreReadInTheirOwnUnits() throws {
    func value(_ type: SampleType, _ unit: String, _ text: String) throws -> Double {
      let date = HealthExportDate(instant: winter, offsetSeconds: 3600)
      let record = HealthExportRecord(
        type: type.identifier, sourceName: "Health", unit: unit, startDate: date, endDate: date,
        value: text)
      return try HealthExportMapping.sample(from: record, type: type, line: 1).sample.value
    }
    #expect(
      try value(.bloodGlucose, "mmol<180.1558800000541>/L", "5") == 5 * 18.015_588_000_005_408)
    #expect(abs(try value(.activeEnergyBurned, "kJ", "418.4") - 100) < 1e-12)
    #expect(try value(.activeEnergyBurned, "Cal", "310") == 310)
    #expect(try value(.appleExerciseTime, "hr", "0.5") == 30)
    #expect(try value(.bodyMass, "lb", "100") == 45.359_237)
  }

  @Test func badRecordsAreRejectedWithTheirLine() {
    let date = HealthExportDate(instant: winter, offsetSeconds: 3600)
    func reason(_ type: SampleType, _ unit: String?, _ value: String?) -> String? {
      let record = HealthExportRecord(
        type: type.identifier, sourceName: "Health", unit: unit, startDate: date, endDate: date,
        value: value)
      do {
        _ = try HealthExportMapping.sample(from: record, type: type, line: 7)
        return nil
      } catch {
        #expect(error.line == 7)
        return error.reason
      }
    }
    #expect(reason(.bloodGlucose, "kg", "5") == "glucose with unit 'kg'; expected mg/dL or mmol/L")
    #expect(reason(.stepCount, nil, "5") == "steps with no unit; expected count")
    #expect(reason(.stepCount, "count", "many") == "steps value 'many' is not a number")
    #expect(
      reason(.stepCount, "count", "-3")
        == "steps -3 count is out of range: a step count must be from 0 to 1000000 steps")
    #expect(reason(.stepCount, "count", "0x46") == "steps value '0x46' is not a number")
    #expect(reason(.stepCount, "count", "1e999") == "steps value '1e999' is not a number")
    #expect(
      reason(.bloodGlucose, "mg/dL", "0")
        == "glucose 0 mg/dL is out of range: a glucose reading must be more than 0 mg/dL and at most 10000 mg/dL"
    )
    #expect(reason(.bloodGlucose, "mg/dL", "90") == nil)
  }

  @Test func recordsTheStoreCouldNotLoadAreRejected() {
    func reason(
      _ type: SampleType, _ unit: String, _ value: String, at instant: Int64? = nil,
      metadata: [HealthExportMetadataEntry] = []
    ) -> String? {
      let date = HealthExportDate(instant: instant ?? winter, offsetSeconds: 0)
      let record = HealthExportRecord(
        type: type.identifier, sourceName: "Health", unit: unit, startDate: date, endDate: date,
        value: value, metadata: metadata)
      do {
        _ = try HealthExportMapping.sample(from: record, type: type, line: 7)
        return nil
      } catch {
        return error.reason
      }
    }
    #expect(
      reason(.bodyMass, "kg", "1500")
        == "weight 1500 kg is out of range: a weight must be more than 0 kg and at most 1000 kg")
    #expect(
      reason(.stepCount, "count", "800000000000000000")
        == "steps 800000000000000000 count is out of range: a step count must be from 0 to 1000000 steps"
    )
    #expect(
      reason(.bodyMass, "kg", "70", at: -2_208_988_801)
        == "weight is dated outside 1900-01-01 to 9999-12-31")
    #expect(reason(.bodyMass, "kg", "70", at: -2_208_988_800) == nil)
    let version = { (text: String) in
      reason(
        .bodyMass, "kg", "70",
        metadata: [HealthExportMetadataEntry(key: "HKMetadataKeySyncVersion", value: text)])
    }
    #expect(version("3") == nil)
    #expect(
      version("99999999999999999999")
        == "metadata HKMetadataKeySyncVersion '99999999999999999999' is out of range: a sync version is a whole number from 0 to 9007199254740991"
    )
    #expect(version("two") == "metadata HKMetadataKeySyncVersion 'two' is not a number")
    #expect(
      reason(
        .bodyMass, "kg", "70",
        metadata: [HealthExportMetadataEntry(key: "HKWasUserEntered", value: "nan")]) == nil,
      "text that is not a decimal number stays text")
  }

  @Test func activityTypesMapByName() {
    #expect(HealthExportMapping.activityType("HKWorkoutActivityTypeRunning") == .running)
    #expect(
      HealthExportMapping.activityType("HKWorkoutActivityTypeHighIntensityIntervalTraining")
        == .highIntensityIntervalTraining)
    #expect(HealthExportMapping.activityType("HKWorkoutActivityTypeSoccer") == .other)
    #expect(HealthExportMapping.activityType("Running") == .other)
  }

  @Test func devicesInAnotherShapeKeepTheirText() {
    #expect(HealthExportMapping.device("Body+") == HealthDevice(name: "Body+"))
    let parsed = HealthExportMapping.device(
      "<<HKDevice: 0x3012772a0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2>"
    )
    #expect(parsed.hardwareVersion == "Watch6,7")
    #expect(parsed.softwareVersion == "10.2")
  }

  @Test func numbersAreShortAndExact() {
    for value in [70.0, 68.5, 0.1, 1.0 / 3, 1e20, 7e-7] {
      #expect(Double(HealthExportMapping.number(value)) == value)
    }
    #expect(HealthExportMapping.number(70) == "70")
    #expect(HealthExportMapping.number(68.5) == "68.5")
  }
}
