import Foundation
import HealthSim
import Testing

/// A sample's fields are shared by its copies (`HealthSample.Fields`); equality, hashing and
/// the coded form are those of the fields, as when the sample held them itself.
@Suite struct SampleFieldsTests {
  private static let revision = SourceRevision(
    source: HealthSource(name: "Anna’s iPhone", bundleIdentifier: "com.apple.health.A1"),
    version: "17.2", productType: "iPhone15,2", operatingSystemVersion: nil)
  private static let device = HealthDevice(name: "iPhone", manufacturer: "Apple Inc.")

  private static func sample(value: Double = 448, metadata: Metadata = [:]) -> HealthSample {
    HealthSample(
      uuid: UUID(uuidString: "00000000-0000-4000-8000-000000000001"), type: .stepCount,
      startDate: Date(timeIntervalSince1970: 1_000), endDate: Date(timeIntervalSince1970: 1_300),
      value: value, sourceRevision: revision, device: device, metadata: metadata,
      creationDate: Date(timeIntervalSince1970: 1_306), workout: nil)
  }

  @Test func samplesMadeApartWithTheSameFieldsAreEqualAndHashAlike() {
    let one = Self.sample()
    let other = Self.sample()
    #expect(one == other)
    #expect(one.hashValue == other.hashValue)
    #expect(Set([one, other, one]).count == 1)
  }

  @Test func eachFieldTellsSamplesApart() {
    let base = Self.sample()
    let others: [HealthSample] = [
      Self.sample(value: 449),
      Self.sample(metadata: [MetadataKey.wasUserEntered: .bool(true)]),
      HealthSample(
        uuid: nil, type: base.type, startDate: base.startDate, endDate: base.endDate,
        value: base.value, sourceRevision: base.sourceRevision, device: base.device,
        metadata: base.metadata, creationDate: base.creationDate, workout: nil),
      HealthSample(
        uuid: base.uuid, type: .activeEnergyBurned, startDate: base.startDate,
        endDate: base.endDate, value: base.value, sourceRevision: base.sourceRevision,
        device: base.device, metadata: base.metadata, creationDate: base.creationDate,
        workout: nil),
      HealthSample(
        uuid: base.uuid, type: base.type, startDate: base.startDate, endDate: base.endDate,
        value: base.value, sourceRevision: nil, device: base.device, metadata: base.metadata,
        creationDate: base.creationDate, workout: nil),
      HealthSample(
        uuid: base.uuid, type: base.type, startDate: base.startDate, endDate: base.endDate,
        value: base.value, sourceRevision: base.sourceRevision, device: nil,
        metadata: base.metadata, creationDate: nil, workout: nil),
      HealthSample(
        uuid: base.uuid, type: base.type, startDate: base.startDate, endDate: base.endDate,
        value: base.value, sourceRevision: base.sourceRevision, device: base.device,
        metadata: base.metadata, creationDate: base.creationDate, workout: nil, objects: []),
    ]
    for other in others { #expect(other != base) }
    #expect(Set(others + [base]).count == others.count + 1)
  }

  /// The keys and their order are what the synthesized coding of a struct of these fields
  /// wrote: health.sqlite's rows and the state document hold samples so coded.
  @Test func theCodedFormKeepsTheFieldsKeys() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let text = String(decoding: try encoder.encode(Self.sample()), as: UTF8.self)
    #expect(
      text
        == #"{"creationDate":-978305894,"device":{"manufacturer":"Apple Inc.","name":"iPhone"},"endDate":-978305900,"metadata":{},"sourceRevision":{"productType":"iPhone15,2","source":{"bundleIdentifier":"com.apple.health.A1","name":"Anna’s iPhone"},"version":"17.2"},"startDate":-978306200,"type":"stepCount","uuid":"00000000-0000-4000-8000-000000000001","value":448}"#
    )
    let unordered = JSONEncoder()
    let keys = try #require(
      JSONSerialization.jsonObject(with: try unordered.encode(Self.sample())) as? [String: Any])
    #expect(
      Set(keys.keys) == [
        "uuid", "type", "startDate", "endDate", "value", "sourceRevision", "device", "metadata",
        "creationDate",
      ])
    let decoded = try JSONDecoder().decode(HealthSample.self, from: Data(text.utf8))
    #expect(decoded == Self.sample())
  }

  @Test func aCorrelationsObjectsGoThroughTheCodedForm() throws {
    let member = Self.sample()
    let correlation = HealthSample(
      uuid: nil, type: .bloodPressure, startDate: member.startDate, endDate: member.startDate,
      value: 0, sourceRevision: nil, device: nil, metadata: ["k": .number(2)],
      creationDate: nil, workout: nil, objects: [member])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(correlation)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"endDate":-978306200,"metadata":{"k":{"number":{"_0":2}}},"objects":[{"creationDate":-978305894,"device":{"manufacturer":"Apple Inc.","name":"iPhone"},"endDate":-978305900,"metadata":{},"sourceRevision":{"productType":"iPhone15,2","source":{"bundleIdentifier":"com.apple.health.A1","name":"Anna’s iPhone"},"version":"17.2"},"startDate":-978306200,"type":"stepCount","uuid":"00000000-0000-4000-8000-000000000001","value":448}],"startDate":-978306200,"type":"bloodPressure","value":0}"#
    )
    let decoded = try JSONDecoder().decode(HealthSample.self, from: data)
    #expect(decoded == correlation)
    #expect(decoded.objects == [member])
    #expect(decoded.uuid == nil && decoded.sourceRevision == nil)
  }

  /// `presentFields` has one bit per field there, each field its own bit, as the getters say.
  @Test func presentFieldsMarkEachFieldThere() {
    let texts: [String?] = [nil, "x"]
    var seen = Set<UInt16>()
    for bits in 0..<128 {
      func text(_ bit: Int) -> String? { texts[bits >> bit & 1] }
      let device = HealthDevice(
        name: text(5), manufacturer: text(3), model: text(4), hardwareVersion: text(1),
        firmwareVersion: text(0), softwareVersion: text(6), localIdentifier: text(2))
      #expect(device.presentFields == UInt16(bits))
      #expect((device.firmwareVersion != nil) == (bits & 1 != 0))
      seen.insert(device.presentFields)
    }
    #expect(seen.count == 128)
    for bits in 0..<8 {
      func text(_ bit: Int) -> String? { texts[bits >> bit & 1] }
      let revision = SourceRevision(
        source: HealthSource(name: "a", bundleIdentifier: "b"), version: text(0),
        productType: text(1), operatingSystemVersion: text(2))
      #expect(revision.presentFields == UInt16(bits))
    }
  }

  /// `hasNestedParts` is whether the metadata, workout or objects are there.
  @Test func hasNestedPartsSaysWhetherMetadataAWorkoutOrObjectsAreThere() {
    let plain = Self.sample()
    #expect(!plain.hasNestedParts)
    #expect(Self.sample(metadata: [MetadataKey.wasUserEntered: .bool(true)]).hasNestedParts)
    let correlation = HealthSample(
      uuid: nil, type: .bloodPressure, startDate: plain.startDate, endDate: plain.startDate,
      value: 0, sourceRevision: nil, device: nil, metadata: [:], creationDate: nil,
      workout: nil, objects: [])
    #expect(correlation.hasNestedParts)
    let workout = HealthSample(
      uuid: nil, type: .workout, startDate: plain.startDate, endDate: plain.endDate, value: 5,
      sourceRevision: nil, device: nil, metadata: [:], creationDate: nil,
      workout: WorkoutDetails(activityType: .running, duration: 5))
    #expect(workout.hasNestedParts)
  }
}
