import Foundation
import HealthSim
import Testing

@testable import WeighKit

@Suite struct HealthRecordCodecTests {
  func roundTrip(_ record: HealthRecord) throws -> HealthRecord {
    var writer = JSONWriter()
    HealthRecordCodec.encode(record, into: &writer)
    return try JSONReader.withReader(over: writer.bytes) { reader throws(JSONSyntaxError) in
      try HealthRecordCodec.decode(from: &reader)
    }
  }

  @Test func everyFieldOfASampleRoundTrips() throws {
    let revision = SourceRevision(
      source: HealthSource(name: "Withings \"Body+\"", bundleIdentifier: "sim.withings"),
      version: "5.2", productType: "Scale1,1", operatingSystemVersion: "17.4")
    let sample = HealthSample(
      uuid: UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"), type: .bodyMass,
      startDate: Date(timeIntervalSince1970: 1_767_254_400.25),
      endDate: Date(timeIntervalSince1970: 1_767_254_400.25), value: 70.123456789,
      sourceRevision: revision,
      device: HealthDevice(name: "Body+", manufacturer: "Withings", model: "WBS05"),
      metadata: [
        MetadataKey.wasUserEntered: .bool(true), MetadataKey.syncIdentifier: .string("w-1"),
        MetadataKey.syncVersion: .number(3), "Measured": .date(Date(timeIntervalSince1970: 5)),
      ],
      creationDate: Date(timeIntervalSince1970: 1_767_254_401), workout: nil)
    let record = HealthRecord.sample(sample, position: 42)
    #expect(try roundTrip(record) == record)
  }

  @Test func aDeviceReadsAsCodableWroteIt() throws {
    let device = HealthDevice(
      name: "Anna’s Apple Watch \"7\"", manufacturer: "Apple Inc.", model: "Watch",
      hardwareVersion: "Watch6,2", firmwareVersion: nil, softwareVersion: "10.2",
      localIdentifier: "a/b")
    let sample = HealthSample(
      uuid: UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"), type: .stepCount,
      startDate: Date(timeIntervalSince1970: 0), endDate: Date(timeIntervalSince1970: 60),
      value: 10, sourceRevision: nil, device: device, metadata: [:], creationDate: nil,
      workout: nil)
    #expect(try roundTrip(.sample(sample, position: 1)) == .sample(sample, position: 1))
    // Rows written before the device was encoded by hand: through JSONEncoder.
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let old =
      #"{"pos":1,"kind":"sample","uuid":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","type":"stepCount","start":0,"end":60,"value":10,"device":"#
      + String(decoding: try encoder.encode(device), as: UTF8.self) + "}"
    let read = try JSONReader.withReader(over: Array(old.utf8)) { reader throws(JSONSyntaxError) in
      try HealthRecordCodec.decode(from: &reader)
    }
    #expect(read == .sample(sample, position: 1))
  }

  @Test func workoutsAndBareSamplesRoundTrip() throws {
    let workout = HealthSample(
      workout: WorkoutDetails(activityType: .running, duration: 1800, totalEnergyBurned: 300),
      start: Date(timeIntervalSince1970: 1_000), uuid: UUID())
    #expect(try roundTrip(.sample(workout, position: 1)) == .sample(workout, position: 1))
    let bare = HealthSample(
      uuid: UUID(), type: .stepCount, startDate: Date(timeIntervalSince1970: 0),
      endDate: Date(timeIntervalSince1970: 60), value: 8000, sourceRevision: nil, device: nil,
      metadata: [:], creationDate: nil, workout: nil)
    #expect(try roundTrip(.sample(bare, position: 2)) == .sample(bare, position: 2))
  }

  @Test func deletionRecordsKeepTheirSyncIdentifier() throws {
    let sample = HealthSample(
      uuid: UUID(), type: .bodyMass, startDate: Date(timeIntervalSince1970: 100),
      endDate: Date(timeIntervalSince1970: 100), value: 70,
      sourceRevision: SourceRevision(source: HealthSource(name: "R", bundleIdentifier: "sim.r")),
      device: nil,
      metadata: [MetadataKey.syncIdentifier: .string("r-1"), MetadataKey.syncVersion: .number(2)],
      creationDate: nil, workout: nil)
    let record = HealthRecord.deletion(
      DeletedObjectRecord(deleting: sample, at: Date(timeIntervalSince1970: 200)), position: 9)
    #expect(try roundTrip(record) == record)
  }

  @Test func aRowWithoutItsFieldsIsAnError() throws {
    let bytes = Array(#"{"pos":1,"kind":"sample","type":"bodyMass"}"#.utf8)
    #expect(throws: JSONSyntaxError.self) {
      try JSONReader.withReader(over: bytes) { reader throws(JSONSyntaxError) in
        try HealthRecordCodec.decode(from: &reader)
      }
    }
  }
}
