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

  /// The error decoding `text` reports, or nil when it reads.
  func failure(_ text: String) -> JSONSyntaxError? {
    do {
      _ = try JSONReader.withReader(over: Array(text.utf8)) { reader throws(JSONSyntaxError) in
        try HealthRecordCodec.decode(from: &reader)
      }
      return nil
    } catch {
      return error
    }
  }

  /// A sample row of `type` with `value`, and `extra` members at the end.
  func row(
    _ type: String = "bodyMass", value: String = "70", start: String = "100", extra: String = ""
  )
    -> String
  {
    #"{"pos":1,"kind":"sample","uuid":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","type":""#
      + type + #"","start":"# + start + #","end":200,"value":"# + value + extra + "}"
  }

  @Test func valuesOutOfTheirTypesRangeAreErrorsAtTheValue() {
    // Column of the value: after `"value":`.
    let column = row().utf8.count - 2
    let cases: [(String, String, String)] = [
      (
        "bodyMass", "1e308",
        "\"value\" is 1e308, out of range: a weight is more than 0 and at most 1000 kg"
      ),
      (
        "bodyMass", "0", "\"value\" is 0, out of range: a weight is more than 0 and at most 1000 kg"
      ),
      (
        "bloodGlucose", "10001",
        "\"value\" is 10001, out of range: a glucose reading is more than 0 and at most 10000 mg/dL"
      ),
      (
        "stepCount", "800000000000000000",
        "\"value\" is 800000000000000000, out of range: a step count is 0 to 1000000 steps"
      ),
      ("activeEnergyBurned", "-1", "\"value\" is -1, out of range: an energy is 0 to 100000 kcal"),
      (
        "appleExerciseTime", "1441",
        "\"value\" is 1441, out of range: an exercise time is 0 to 1440 min"
      ),
    ]
    for (type, value, message) in cases {
      let text = row(type, value: value)
      let valueColumn = column + type.utf8.count - "bodyMass".utf8.count
      #expect(
        failure(text) == JSONSyntaxError(line: 1, column: valueColumn, message: message), "\(text)")
    }
  }

  @Test func timesOutsideTheYears1900To9999AreErrors() {
    let text = row(start: "1e300")
    let column = text.utf8.count - #"1e300,"end":200,"value":70}"#.utf8.count + 1
    #expect(
      failure(text)
        == JSONSyntaxError(
          line: 1, column: column,
          message: #""start" is 1e300, out of range: a time is from 1900-01-01 to 9999-12-31 (UTC)"#
        ))
    #expect(
      failure(row(extra: #","created":-1e13"#))?.message.hasPrefix(#""created" is -1e13"#) == true)
    #expect(
      failure(row(start: "300"))?.message
        == #""end" is before "start"; a sample cannot end before it starts"#)
  }

  @Test func syncVersionsAndPositionsMustBeWholeAndInRange() {
    let deletion =
      #"{"pos":1,"kind":"deletion","uuid":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","type":"bodyMass","start":100,"end":100,"sync_version":99999999999999999999,"deleted":200}"#
    #expect(
      failure(deletion)?.message
        == #""sync_version" is 99999999999999999999, out of range: a sync version is a whole number from 0 to 9007199254740991"#
    )
    let metadata = row(
      extra: #","metadata":{"HKMetadataKeySyncVersion":{"number":{"_0":1e20}}}"#)
    #expect(
      failure(metadata)?.message
        == #"in "metadata": "HKMetadataKeySyncVersion" is 1e+20, out of range: a sync version is a whole number from 0 to 9007199254740991"#
    )
    #expect(failure(#"{"pos":0,"kind":"sample"}"#)?.column == 8)
    #expect(
      failure(#"{"pos":1,"kind":"removed"}"#)?.message == #"expected kind "sample" or "deletion""#)
  }

  @Test func wrongTypesAreErrorsNotDefaults() {
    #expect(
      failure(row(value: #""70""#))?.message == #""value" must be a number, not a string"#)
    #expect(
      failure(row(extra: #","source":1"#))?.message == #""source" must be a string, not a number"#)
    let noValue =
      #"{"pos":1,"kind":"sample","uuid":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","type":"bodyMass","start":1,"end":1}"#
    #expect(
      failure(noValue) == JSONSyntaxError(line: 1, column: 1, message: #"a sample needs "value""#))
    let workout = row(
      "workout", value: "30",
      extra: #","workout":{"activityType":"running","duration":1e300}"#)
    #expect(failure(workout)?.message.hasPrefix(#"in "workout": "duration" is 1e+300"#) == true)
  }
}

/// `UUIDText.parse` reads what Foundation's parser reads, the same.
@Suite struct UUIDTextTests {
  @Test func readsWhatFoundationReads() {
    var texts = (0..<200).map { _ in UUID().uuidString }
    texts += texts.prefix(50).map { $0.lowercased() }
    texts += [
      "", "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
      "3F2504E04F8911D39A0C0305E82C3301", "3F2504E0-4F89-11D3-9A0C-0305E82C330",
      "3F2504E0-4F89-11D3-9A0C-0305E82C33011", "3F2504E0_4F89-11D3-9A0C-0305E82C3301",
      "3F2504G0-4F89-11D3-9A0C-0305E82C3301", " 3F2504E0-4F89-11D3-9A0C-0305E82C330",
      "+F2504E0-4F89-11D3-9A0C-0305E82C3301", "3F2504E0-4F89-11D3-9A0C-0305E82C33é1",
    ]
    for text in texts {
      #expect(UUIDText.parse(text) == UUID(uuidString: text), "\(text)")
    }
  }
}
