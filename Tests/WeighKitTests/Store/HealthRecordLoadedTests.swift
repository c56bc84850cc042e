import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// `HealthRecordCodec.loaded` makes, from a sample of a row shape, the record a query
/// decodes from the sample's JSON row: the command's writer keeps it for the anchored read
/// instead of reading each row back, so it must be the decoder's answer, field for field.
@Suite struct HealthRecordLoadedTests {
  /// Texts with what JSON escapes or spells in more than one byte.
  static let texts = [
    "", "Withings", "a \"quoted\" name", "back\\slash/slash", "tab\there\nnewline",
    "\u{1}\u{1F}", "Gewichtsmessung", "体重計", "👩🏽‍⚕️ scale", "e\u{301}", "\u{2028}",
  ]

  static func text(_ random: inout SeededGenerator) -> String {
    texts[Int.random(in: 0..<texts.count, using: &random)]
  }

  /// A text half the time, nil otherwise.
  static func maybeText(_ random: inout SeededGenerator) -> String? {
    Bool.random(using: &random) ? text(&random) : nil
  }

  /// A time from 1900 to 9999 with a fraction of a second (whole seconds half the time).
  static func time(_ random: inout SeededGenerator) -> Date {
    let seconds = Double.random(in: -2_208_988_800..<253_402_300_799, using: &random)
    return Date(timeIntervalSince1970: Bool.random(using: &random) ? seconds.rounded() : seconds)
  }

  /// A sample of a random row shape: every optional field present or not, any type whose
  /// value rule takes the value drawn.
  static func sample(_ random: inout SeededGenerator) -> HealthSample {
    let types = SampleType.allCases.filter { $0 != .workout && $0 != .bloodPressure }
    var type = types[Int.random(in: 0..<types.count, using: &random)]
    // Zero of either sign among them: the row keeps the sign, and so must `loaded`.
    let values = [0.3, 1, 70.25, 0.1 + 0.2, 1234.5678, 99_999, 0, -0.0]
    let value = values[Int.random(in: 0..<values.count, using: &random)]
    if !HealthRecordCodec.valueRule(for: type).contains(value) { type = .stepCount }
    let start = time(&random)
    let end = start.addingTimeInterval(
      Bool.random(using: &random) ? 0 : Double.random(in: 0..<86_400, using: &random))
    var revision: SourceRevision?
    if Bool.random(using: &random) {
      revision = SourceRevision(
        source: HealthSource(name: text(&random), bundleIdentifier: text(&random)),
        version: maybeText(&random), productType: maybeText(&random),
        operatingSystemVersion: maybeText(&random))
    }
    var device: HealthDevice?
    if Bool.random(using: &random) {
      device = HealthDevice(
        name: maybeText(&random), manufacturer: maybeText(&random),
        model: maybeText(&random),
        hardwareVersion: maybeText(&random),
        firmwareVersion: maybeText(&random),
        softwareVersion: maybeText(&random),
        localIdentifier: maybeText(&random))
    }
    let uuid = UUID(
      uuid: (
        UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random), 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8.random(in: 0...255, using: &random)
      ))
    return HealthSample(
      uuid: uuid, type: type, startDate: start, endDate: end, value: value,
      sourceRevision: revision, device: device, metadata: [:],
      creationDate: Bool.random(using: &random) ? time(&random) : nil, workout: nil)
  }

  static func bits(_ date: Date) -> UInt64 { date.timeIntervalSinceReferenceDate.bitPattern }

  @Test func loadedIsWhatTheRowDecodesTo() throws {
    let bits = Self.bits
    var random = SeededGenerator(seed: 2026)
    var shapes = Set<HealthRowShape>()
    for index in 1...2_000 {
      let sample = Self.sample(&random)
      let position = Int64(index)
      guard let shape = HealthRowShape(sample, position: position) else {
        Issue.record("a sample without nested parts has no shape: \(sample)")
        continue
      }
      shapes.insert(shape)
      var writer = JSONWriter()
      HealthRecordCodec.encode(sample, position: position, into: &writer)
      let decoded = try HealthSQLiteStorage.Writer.readBack(writer.bytes, position: position)
      let loaded = HealthRecordCodec.loaded(sample, position: position)
      #expect(loaded == decoded, "\(sample)")
      // What format 2's row reads back as (its value +0.0 for a zero of either sign).
      let parts = HealthSQLiteRowParts(sample, position: position)
      let fromParts = try HealthSQLiteStorage.Writer.readBack(parts)
      #expect(loaded == fromParts, "\(sample)")
      if case .sample(let made, _) = loaded, case .sample(let read, _) = fromParts {
        #expect(made.value.bitPattern == read.value.bitPattern)
      }
      // The same columns, as a query checks them against the row's.
      #expect(
        HealthSQLiteColumns(loaded, rowChecksum: 0) == HealthSQLiteColumns(decoded, rowChecksum: 0))
      guard case .sample(let made, _) = loaded, case .sample(let read, _) = decoded else {
        Issue.record("not a sample")
        continue
      }
      // Dates to the bit (`==` on a record compares them as Doubles).
      #expect(bits(made.startDate) == bits(read.startDate))
      #expect(bits(made.endDate) == bits(read.endDate))
      #expect(made.creationDate.map(bits) == read.creationDate.map(bits))
      #expect(made.value.bitPattern == (read.value + 0.0).bitPattern)
    }
    // The draws reach many shapes, not a few.
    #expect(shapes.count > 200)
  }

  /// Through the storage: what a command's writer keeps for the anchored read of the rows
  /// it just wrote (rows of one shape, most not read back) is what the rows read back as
  /// once the command is committed and the database opened again.
  @Test func anchoredReadInACommandMatchesTheRowsReadAgain() throws {
    let folder = FileManager.default.temporaryDirectory.appending(
      path: "weigh-loaded-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appending(path: HealthSQLiteStorage.fileName).path
    let storage = try HealthSQLiteStorage(path: path)
    try storage.beginCommand()
    try storage.openSavepoint()
    var random = SeededGenerator(seed: 9)
    let samples = (1...40).map { index in
      let sample = HealthSQLiteReadBackTests.sample(index, type: .bodyMass)
      // A fraction of a second that the trip through seconds since 1970 may move.
      let start = sample.startDate.addingTimeInterval(Double.random(in: 0..<1, using: &random))
      return HealthSample(
        uuid: sample.uuid, type: .bodyMass, startDate: start, endDate: start, value: 70.1,
        sourceRevision: sample.sourceRevision, device: nil, metadata: [:],
        creationDate: start, workout: nil)
    }
    try storage.apply(samples.enumerated().map { .sampleSaved($1, position: Int64($0 + 1)) })
    let inCommand = try storage.changes(of: .bodyMass, after: 0, limit: 0)
    try storage.releaseSavepoint()
    try storage.commitCommand(pending: nil, appSequence: 0)
    try storage.close()
    let reopened = try HealthSQLiteStorage(path: path)
    defer { try? reopened.close() }
    let read = try reopened.changes(of: .bodyMass, after: 0, limit: 0)
    #expect(read.count == 40)
    #expect(inCommand == read)
  }
}
