import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// The hand-written coding of a workout and of metadata (`HealthRecordCodec+Workout.swift`)
/// against Foundation's, which wrote every row until it: the same bytes, the same values
/// read back, and the same answer for a value the writer never gives.
@Suite struct HealthNestedCodecTests {
  static func foundationBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value))
  }

  static func parsed(_ bytes: [UInt8]) throws -> JSONValue {
    try JSONReader.withReader(over: bytes) { reader throws(JSONSyntaxError) in
      try reader.readValue()
    }
  }

  /// Texts with what needs escaping, slashes, non-ASCII letters and scalars past U+FFFF.
  static func text(_ random: inout SeededGenerator) -> String {
    let pieces = [
      "a", "Z", "7", "/", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{1}", "\u{1F}",
      "\u{7F}", "é", "e\u{301}", "Ω", "’", "\u{2028}", "😀", "𐀀", " ", "HK", "_", ":",
    ]
    let count = Int.random(in: 0...6, using: &random)
    return (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
  }

  /// Numbers of every form `description` takes: whole, fractions, exponents, −0.
  static func number(_ random: inout SeededGenerator) -> Double {
    switch Int.random(in: 0..<9, using: &random) {
    case 0: return Double(Int.random(in: -1000...100_000, using: &random))
    case 1: return Double.random(in: 0..<1000, using: &random)
    case 2: return Double.random(in: -1e-3..<1e-3, using: &random)
    case 3: return Double.random(in: 1e15..<1e18, using: &random).rounded()
    case 4: return -0.0
    case 5:
      return [1e16, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, 0.1, 2e53][
        Int.random(in: 0..<7, using: &random)]
    case 6: return Double(bitPattern: UInt64.random(in: 0..<0x7FF0_0000_0000_0000, using: &random))
    default: return (Double.random(in: 0..<200, using: &random) * 10).rounded() / 10
    }
  }

  static func date(_ random: inout SeededGenerator) -> Date {
    Date(timeIntervalSince1970: number(&random).magnitude.truncatingRemainder(dividingBy: 4e9))
  }

  static func metadata(_ random: inout SeededGenerator) -> Metadata {
    var metadata = Metadata()
    for _ in 0..<Int.random(in: 0...4, using: &random) {
      let value: MetadataValue
      switch Int.random(in: 0..<4, using: &random) {
      case 0: value = .string(text(&random))
      case 1: value = .number(number(&random))
      case 2: value = .bool(Bool.random(using: &random))
      default: value = .date(date(&random))
      }
      metadata[text(&random)] = value
    }
    return metadata
  }

  static func optional<T>(_ random: inout SeededGenerator, _ make: (inout SeededGenerator) -> T)
    -> T?
  {
    Bool.random(using: &random) ? make(&random) : nil
  }

  static func workout(_ random: inout SeededGenerator) -> WorkoutDetails {
    let events = (0..<Int.random(in: 0...3, using: &random)).map { _ in
      WorkoutEvent(
        type: WorkoutEventType.allCases.randomElement(using: &random)!, date: date(&random),
        duration: number(&random).magnitude, metadata: metadata(&random))
    }
    let statistics = (0..<Int.random(in: 0...3, using: &random)).map { _ in
      WorkoutStatistic(
        typeIdentifier: text(&random), startDate: date(&random), endDate: date(&random),
        average: optional(&random, number), minimum: optional(&random, number),
        maximum: optional(&random, number), sum: optional(&random, number), unit: text(&random))
    }
    let routes = (0..<Int.random(in: 0...2, using: &random)).map { _ in
      let revision = optional(&random) { random in
        SourceRevision(
          source: HealthSource(name: text(&random), bundleIdentifier: text(&random)),
          version: optional(&random, text), productType: optional(&random, text),
          operatingSystemVersion: optional(&random, text))
      }
      let device = optional(&random) { random in
        HealthDevice(
          name: optional(&random, text), manufacturer: optional(&random, text),
          model: optional(&random, text), hardwareVersion: optional(&random, text),
          firmwareVersion: optional(&random, text), softwareVersion: optional(&random, text),
          localIdentifier: optional(&random, text))
      }
      return WorkoutRoute(
        sourceRevision: revision, device: device, creationDate: optional(&random, date),
        startDate: date(&random), endDate: date(&random), metadata: metadata(&random),
        filePath: optional(&random, text))
    }
    return WorkoutDetails(
      activityType: WorkoutActivityType.allCases.randomElement(using: &random)!,
      duration: number(&random).magnitude, totalEnergyBurned: optional(&random, number),
      totalDistance: optional(&random, number), events: events, statistics: statistics,
      routes: routes)
  }

  @Test func aWorkoutIsWrittenAsJSONEncoderWritesItAndReadsBackAsJSONDecoderReadsIt() throws {
    var random = SeededGenerator(seed: 15)
    for _ in 0..<2_000 {
      let workout = Self.workout(&random)
      var writer = JSONWriter()
      HealthRecordCodec.writeWorkout(workout, into: &writer)
      let expected = try Self.foundationBytes(workout)
      #expect(
        writer.bytes == expected,
        "\(String(decoding: writer.bytes, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))"
      )
      #expect(!writer.wroteNonFiniteNumber)
      let byHand = HealthRecordCodec.readWorkout(try Self.parsed(expected))
      #expect(byHand == (try JSONDecoder().decode(WorkoutDetails.self, from: Data(expected))))
      #expect(byHand == workout)
    }
  }

  @Test func metadataIsWrittenAsJSONEncoderWritesItAndReadsBackAsJSONDecoderReadsIt() throws {
    var random = SeededGenerator(seed: 1_515)
    for _ in 0..<2_000 {
      let metadata = Self.metadata(&random)
      var writer = JSONWriter()
      HealthRecordCodec.writeMetadata(metadata, into: &writer)
      let expected = try Self.foundationBytes(metadata)
      #expect(writer.bytes == expected)
      let byHand = HealthRecordCodec.readMetadata(try Self.parsed(expected))
      #expect(byHand == (try JSONDecoder().decode(Metadata.self, from: Data(expected))))
      #expect(byHand == metadata)
    }
  }

  /// Values the writer never gives are left to `JSONDecoder` (nil by hand), so they are read,
  /// or refused with its message, as before.
  @Test func aValueInAnotherFormIsLeftToJSONDecoder() throws {
    let others = [
      #"{"activityType":"running","duration":60,"totalDistance":null}"#,
      #"{"activityType":"running","duration":60,"extra":1}"#,
      #"{"activityType":"dancing","duration":60}"#,
      #"{"activityType":"running"}"#,
      #"{"activityType":"running","duration":"60"}"#,
      #"{"activityType":"running","duration":60,"events":[{"type":1.0,"date":0,"duration":0,"metadata":{}}]}"#,
      #"{"activityType":"running","duration":60,"events":[{"type":99,"date":0,"duration":0,"metadata":{}}]}"#,
      #"{"activityType":"running","duration":60,"events":[{"type":1,"date":0,"duration":0}]}"#,
      #"{"activityType":"running","duration":60,"routes":[{"startDate":0,"endDate":1,"metadata":{},"device":null}]}"#,
      #"{"activityType":"running","duration":60,"routes":[{"startDate":0,"endDate":1,"metadata":{},"sourceRevision":{"source":{"name":"a"}}}]}"#,
    ]
    for text in others {
      #expect(HealthRecordCodec.readWorkout(try Self.parsed(Array(text.utf8))) == nil, "\(text)")
    }
    let otherMetadata = [
      #"{"k":{"number":{"_0":1},"string":{"_0":"a"}}}"#, #"{"k":{"number":{"_0":"1"}}}"#,
      #"{"k":{"number":{"_0":1,"_1":2}}}"#, #"{"k":{"colour":{"_0":1}}}"#, #"{"k":1}"#,
      #"{"k":{"bool":{"_0":1}}}"#,
    ]
    for text in otherMetadata {
      #expect(HealthRecordCodec.readMetadata(try Self.parsed(Array(text.utf8))) == nil, "\(text)")
    }
    // Through the row's decoder: the same answers as JSONDecoder's.
    func row(_ workout: String) -> String {
      #"{"pos":1,"kind":"sample","uuid":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","type":"workout","start":0,"end":60,"value":60,"source":"s","bundle":"b","workout":"#
        + workout + "}"
    }
    let read = try JSONReader.withReader(over: Array(row(others[0]).utf8)) {
      reader throws(JSONSyntaxError) in try HealthRecordCodec.decode(from: &reader)
    }
    guard case .sample(let sample, _) = read else {
      Issue.record("not a sample")
      return
    }
    #expect(sample.workout == WorkoutDetails(activityType: .running, duration: 60))
    #expect(throws: JSONSyntaxError.self) {
      try JSONReader.withReader(over: Array(row(others[2]).utf8)) {
        reader throws(JSONSyntaxError) in try HealthRecordCodec.decode(from: &reader)
      }
    }
  }

  /// A number that is not finite fails the row instead of leaving the member out.
  @Test func aNumberThatIsNotFiniteFailsTheRow() throws {
    let workout = WorkoutDetails(activityType: .running, duration: .infinity)
    let sample = HealthSample(
      uuid: UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"), type: .workout,
      startDate: Date(timeIntervalSince1970: 0), endDate: Date(timeIntervalSince1970: 60),
      value: 60, sourceRevision: nil, device: nil, metadata: [:], creationDate: nil,
      workout: workout)
    var writer = JSONWriter()
    HealthRecordCodec.encode(.sample(sample, position: 1), into: &writer)
    #expect(writer.wroteNonFiniteNumber)
    let parts = HealthSQLiteRowParts(sample, position: 1)
    #expect(parts.extra != nil)
    #expect(!parts.numbersAreFinite)
    let fine = HealthSQLiteRowParts(
      HealthSample(
        uuid: sample.uuid, type: .workout, startDate: sample.startDate, endDate: sample.endDate,
        value: 60, sourceRevision: nil, device: nil, metadata: ["n": .number(1.5)],
        creationDate: nil, workout: WorkoutDetails(activityType: .running, duration: 60)),
      position: 1)
    #expect(fine.numbersAreFinite)
  }
}
