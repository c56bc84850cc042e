import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// `health.json` rows of the sample types the language does not write.
@Suite struct HealthRecordCodecTypeTests {
  func roundTrip(_ record: HealthRecord) throws -> HealthRecord {
    var writer = JSONWriter()
    HealthRecordCodec.encode(record, into: &writer)
    return try JSONReader.withReader(over: writer.bytes) { reader throws(JSONSyntaxError) in
      try HealthRecordCodec.decode(from: &reader)
    }
  }

  func read(_ text: String) throws -> HealthRecord {
    try JSONReader.withReader(over: Array(text.utf8)) { reader throws(JSONSyntaxError) in
      try HealthRecordCodec.decode(from: &reader)
    }
  }

  let revision = SourceRevision(
    source: HealthSource(name: "Omron", bundleIdentifier: "sim.omron"), version: "2.1")

  @Test func everyNewTypeRoundTrips() throws {
    let values: [SampleType: Double] = [
      .height: 1.82, .bodyMassIndex: 22.4, .bodyFatPercentage: 0.215, .leanBodyMass: 58.2,
      .basalEnergyBurned: 1650, .distanceWalkingRunning: 5234.5, .heartRate: 61,
      .bloodPressureSystolic: 121, .bloodPressureDiastolic: 79,
    ]
    for (offset, (type, value)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
      let sample = HealthSample(
        uuid: UUID(), type: type, startDate: Date(timeIntervalSince1970: 1_767_254_400),
        endDate: Date(timeIntervalSince1970: 1_767_254_460), value: value,
        sourceRevision: revision, device: nil, metadata: [:],
        creationDate: Date(timeIntervalSince1970: 1_767_254_500), workout: nil)
      let record = HealthRecord.sample(sample, position: Int64(offset + 1))
      #expect(try roundTrip(record) == record)
    }
  }

  @Test func aCorrelationRoundTripsWithItsObjects() throws {
    let start = Date(timeIntervalSince1970: 1_767_254_400)
    func member(_ type: SampleType, _ value: Double) -> HealthSample {
      HealthSample(
        uuid: UUID(), type: type, startDate: start, endDate: start, value: value,
        sourceRevision: revision, device: nil, metadata: [:], creationDate: start, workout: nil)
    }
    let correlation = HealthSample(
      uuid: UUID(), type: .bloodPressure, startDate: start, endDate: start, value: 0,
      sourceRevision: revision, device: HealthDevice(name: "M7"),
      metadata: [MetadataKey.syncIdentifier: .string("bp-1"), MetadataKey.syncVersion: .number(1)],
      creationDate: start, workout: nil,
      objects: [member(.bloodPressureSystolic, 120), member(.bloodPressureDiastolic, 80)])
    let record = HealthRecord.sample(correlation, position: 3)
    let read = try roundTrip(record)
    #expect(read == record)
    guard case .sample(let sample, _) = read else { return }
    #expect(sample.objects?.map(\.value) == [120, 80])
  }

  @Test func valuesHealthRefusesAreErrorsAtTheValue() {
    let row = { (type: String, value: String) in
      #"{"pos":1,"kind":"sample","uuid":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","type":""#
        + type + #"","start":0,"end":0,"value":"# + value + "}"
    }
    #expect(throws: JSONSyntaxError.self) { try read(row("bodyFatPercentage", "21.5")) }
    #expect(throws: JSONSyntaxError.self) { try read(row("bloodPressure", "3")) }
    #expect(throws: JSONSyntaxError.self) { try read(row("heartRate", "-1")) }
    #expect(throws: JSONSyntaxError.self) { try read(row("pulse", "60")) }
    #expect((try? read(row("heartRate", "61"))) != nil)
    #expect((try? read(row("bodyFatPercentage", "0.215"))) != nil)
  }
  @Test func aWorkoutKeepsItsEventsStatisticsAndRoutes() throws {
    let start = Date(timeIntervalSince1970: 1_767_254_400)
    let details = WorkoutDetails(
      activityType: .running, duration: 1800, totalEnergyBurned: 300,
      events: [WorkoutEvent(type: .lap, date: start, duration: 90, metadata: ["N": .number(1)])],
      statistics: [
        WorkoutStatistic(
          typeIdentifier: "HKQuantityTypeIdentifierRunningPower", startDate: start,
          endDate: start.addingTimeInterval(1800), average: 262, unit: "W")
      ],
      routes: [
        WorkoutRoute(
          sourceRevision: revision, startDate: start, endDate: start.addingTimeInterval(1800),
          filePath: "/workout-routes/route.gpx")
      ])
    let sample = HealthSample(
      uuid: UUID(), type: .workout, startDate: start, endDate: start.addingTimeInterval(1800),
      value: 30, sourceRevision: revision, device: nil, metadata: [:], creationDate: start,
      workout: details)
    let record = HealthRecord.sample(sample, position: 9)
    #expect(try roundTrip(record) == record)
  }

  @Test func aWorkoutEventOutOfRangeIsAnErrorAtTheWorkout() {
    let row =
      #"{"pos":1,"kind":"sample","uuid":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","type":"workout","start":0,"end":60,"value":1,"workout":{"activityType":"running","duration":60,"events":[{"type":3,"date":0,"duration":-5,"metadata":{}}]}}"#
    #expect(throws: JSONSyntaxError.self) { try read(row) }
  }
}
