import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// Format 2's row (`HealthSQLiteRowParts`): a record split into its columns, its origin and
/// its extra members reads back as the record format 1's JSON row reads back as, field for
/// field and date for date, for random records of every kind.
@Suite struct HealthSQLiteRowPartsTests {
  typealias Loaded = HealthRecordLoadedTests

  /// Metadata of a few kinds, the sync keys among them half the time.
  static func metadata(_ random: inout SeededGenerator) -> Metadata {
    var metadata: Metadata = [:]
    if Bool.random(using: &random) {
      metadata[MetadataKey.syncIdentifier] = .string(Loaded.text(&random))
      metadata[MetadataKey.syncVersion] = .number(Double(Int.random(in: 0...9, using: &random)))
    }
    if Bool.random(using: &random) { metadata[MetadataKey.wasUserEntered] = .bool(true) }
    if Bool.random(using: &random) { metadata[Loaded.text(&random)] = .number(0.1 + 0.2) }
    if Bool.random(using: &random) { metadata["Measured"] = .date(Loaded.time(&random)) }
    return metadata
  }

  /// A record of any kind: a plain sample of a random shape, one with metadata, a workout,
  /// a correlation, or a deletion with or without its sync identifier and version.
  static func record(_ random: inout SeededGenerator, position: Int64) -> HealthRecord {
    let plain = Loaded.sample(&random)
    func with(
      metadata: Metadata = [:], workout: WorkoutDetails? = nil, type: SampleType? = nil,
      value: Double? = nil, objects: [HealthSample]? = nil
    ) -> HealthSample {
      HealthSample(
        uuid: plain.uuid, type: type ?? plain.type, startDate: plain.startDate,
        endDate: plain.endDate, value: value ?? plain.value,
        sourceRevision: plain.sourceRevision, device: plain.device, metadata: metadata,
        creationDate: plain.creationDate, workout: workout, objects: objects)
    }
    switch Int.random(in: 0..<5, using: &random) {
    case 0:
      return .sample(plain, position: position)
    case 1:
      return .sample(with(metadata: metadata(&random)), position: position)
    case 2:
      let details = WorkoutDetails(
        activityType: .running, duration: Double(Int.random(in: 60...7_200, using: &random)),
        totalEnergyBurned: Bool.random(using: &random) ? 300.5 : nil)
      return .sample(
        with(
          metadata: metadata(&random), workout: details, type: .workout,
          value: details.duration / 60), position: position)
    case 3:
      let part = HealthSample(
        uuid: UUID(), type: .bloodPressureSystolic, startDate: plain.startDate,
        endDate: plain.startDate, value: 120, sourceRevision: plain.sourceRevision,
        device: nil, metadata: [:], creationDate: plain.creationDate, workout: nil)
      return .sample(
        with(type: .bloodPressure, value: 0, objects: [part]), position: position)
    default:
      let deleted = with(metadata: Bool.random(using: &random) ? metadata(&random) : [:])
      return .deletion(
        DeletedObjectRecord(deleting: deleted, at: Loaded.time(&random)), position: position)
    }
  }

  /// What format 1's JSON row of `record` reads back as.
  static func throughFormatOne(_ record: HealthRecord) throws -> HealthRecord {
    var writer = JSONWriter()
    HealthRecordCodec.encode(record, into: &writer)
    return try HealthSQLiteStorage.Writer.readBack(writer.bytes, position: record.position)
  }

  static func bits(_ record: HealthRecord) -> [UInt64?] {
    switch record {
    case .sample(let sample, _):
      [
        Loaded.bits(sample.startDate), Loaded.bits(sample.endDate),
        sample.creationDate.map(Loaded.bits), sample.value.bitPattern,
      ]
    case .deletion(let deleted, _):
      [
        Loaded.bits(deleted.startDate), Loaded.bits(deleted.endDate),
        Loaded.bits(deleted.deletionDate),
      ]
    }
  }

  @Test func randomRecordsReadBackAsTheirJSONRowDoes() throws {
    var random = SeededGenerator(seed: 15)
    var origins = Set<HealthSQLiteOrigin>()
    var extras = 0
    for index in 1...3_000 {
      let record = Self.record(&random, position: Int64(index))
      let parts = HealthSQLiteRowParts(record)
      let expected = try Self.throughFormatOne(record)
      let read = try parts.record()
      #expect(read == expected, "\(record)")
      #expect(Self.bits(read) == Self.bits(expected))
      // The origin's own row reads back as written.
      #expect(try HealthSQLiteOrigin.read(parts.origin.json) == parts.origin)
      // The parts of the record read back are the parts stored.
      #expect(HealthSQLiteRowParts(read) == parts)
      origins.insert(parts.origin)
      if parts.extra != nil { extras += 1 }
    }
    // The draws reach many origins and rows with and without extra members.
    #expect(origins.count > 500)
    #expect(extras > 1_000 && extras < 2_500)
  }

  @Test func anExportsRowHasNoExtraMembersAndFewOrigins() throws {
    let revision = SourceRevision(
      source: HealthSource(name: "Anna’s iPhone", bundleIdentifier: "sim.anna-s-iphone"),
      version: "17.2")
    let device = HealthDevice(
      name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardwareVersion: "iPhone15,2",
      softwareVersion: "17.2")
    let samples = (0..<100).map { index in
      HealthSample(
        uuid: UUID(), type: .stepCount,
        startDate: Date(timeIntervalSince1970: 1_641_117_614 + Double(index) * 600),
        endDate: Date(timeIntervalSince1970: 1_641_117_914 + Double(index) * 600),
        value: Double(index), sourceRevision: revision, device: device, metadata: [:],
        creationDate: Date(timeIntervalSince1970: 7_258_118_400), workout: nil)
    }
    let parts = samples.enumerated().map { HealthSQLiteRowParts($1, position: Int64($0 + 1)) }
    #expect(parts.allSatisfy { $0.extra == nil })
    #expect(Set(parts.map(\.origin)).count == 1)
    let json = String(decoding: parts[0].origin.json, as: UTF8.self)
    #expect(
      json
        == #"{"source":"Anna’s iPhone","bundle":"sim.anna-s-iphone","version":"17.2","device":{"hardwareVersion":"iPhone15,2","manufacturer":"Apple Inc.","model":"iPhone","name":"iPhone","softwareVersion":"17.2"}}"#
    )
    for (sample, part) in zip(samples, parts) {
      #expect(try part.record() == HealthRecordCodec.loaded(sample, position: part.position))
    }
  }

  @Test func wrongPartsAreRefusedInTheDecodersWords() {
    var random = SeededGenerator(seed: 3)
    var parts = HealthSQLiteRowParts(
      HealthSample(
        uuid: UUID(), type: .bodyMass, startDate: Loaded.time(&random),
        endDate: Loaded.time(&random), value: 70, sourceRevision: nil, device: nil,
        metadata: [:], creationDate: nil, workout: nil), position: 4)
    parts.end = parts.start - 1
    #expect(throws: HealthSQLiteDamage.self) { try parts.record() }
    parts.end = parts.start
    parts.value = -5
    #expect(throws: HealthSQLiteDamage.self) { try parts.record() }
    parts.value = 70
    parts.deleted = parts.start
    #expect(throws: HealthSQLiteDamage.self) { try parts.record() }
    parts.deleted = nil
    parts.extra = Array(#""metadata":7"#.utf8)
    #expect(throws: HealthSQLiteDamage.self) { try parts.record() }
    parts.extra = nil
    #expect((try? parts.record()) != nil)
    #expect(throws: JSONSyntaxError.self) {
      try HealthSQLiteOrigin.read(Array(#"{"version":"1"}"#.utf8))
    }
    #expect(throws: JSONSyntaxError.self) {
      try HealthSQLiteOrigin.read(Array(#"{"source":"a","bundle":"b","x":"1"}"#.utf8))
    }
  }

  @Test func typeCodesAreDistinctAndReadBack() {
    let codes = SampleType.allCases.map(HealthSQLiteTypeCode.code)
    #expect(Set(codes).count == SampleType.allCases.count)
    for type in SampleType.allCases {
      #expect(HealthSQLiteTypeCode.type(HealthSQLiteTypeCode.code(type)) == type)
    }
    #expect(HealthSQLiteTypeCode.type(0) == nil)
    #expect(HealthSQLiteTypeCode.type(17) == nil)
  }
}
