import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// A JSON row is read back once per row shape in a transaction (`HealthRowShape`): a wrong
/// encoding is still caught on the first row of each shape, and on every row with nested
/// parts.
@Suite struct HealthSQLiteReadBackTests {
  static let start = Date(timeIntervalSince1970: 1_700_000_000)

  static func sample(
    _ number: Int, type: SampleType = .stepCount, device: HealthDevice? = nil,
    metadata: Metadata = [:]
  ) -> HealthSample {
    HealthSample(
      uuid: HealthSQLiteStorageTests.uuid(number), type: type,
      startDate: start.addingTimeInterval(Double(number) * 60),
      endDate: start.addingTimeInterval(Double(number) * 60 + 30), value: Double(number),
      sourceRevision: SourceRevision(
        source: HealthSource(name: "Phone \(number)", bundleIdentifier: "sim.phone"),
        version: "17.2"),
      device: device, metadata: metadata, creationDate: start, workout: nil)
  }

  /// The row `HealthRecordCodec` writes for `record`, or that row with its last byte cut.
  static func row(_ record: HealthRecord, broken: Bool = false) -> [UInt8] {
    var writer = JSONWriter()
    HealthRecordCodec.encode(record, into: &writer)
    return broken ? Array(writer.bytes.dropLast()) : writer.bytes
  }

  /// Whether `checkReadBack` refuses the row, saying it would not load again.
  static func refuses(_ writer: inout HealthSQLiteStorage.Writer, _ record: HealthRecord) -> Bool {
    do {
      try writer.checkReadBack(record, row(record, broken: true))
      return false
    } catch let error as HealthStorageError {
      return error.message.contains("would not load again")
    } catch {
      return false
    }
  }

  @Test func aWrongRowOfANewShapeIsCaught() throws {
    var writer = HealthSQLiteStorage.Writer(statements: HealthSQLiteStatements(), last: 0)
    #expect(Self.refuses(&writer, .sample(Self.sample(1), position: 1)))
    // A refused row's shape is not taken as checked.
    #expect(Self.refuses(&writer, .sample(Self.sample(2), position: 2)))
  }

  @Test func aShapeIsReadOnceThenEachNewShapeAgain() throws {
    var writer = HealthSQLiteStorage.Writer(statements: HealthSQLiteStatements(), last: 0)
    let first = HealthRecord.sample(Self.sample(1), position: 1)
    try writer.checkReadBack(first, Self.row(first))
    // Another row of the same shape (other values) is not read again.
    let same = HealthRecord.sample(Self.sample(2), position: 2)
    try writer.checkReadBack(same, Self.row(same, broken: true))
    // Another type, a device, other device fields, a deletion: each a new shape, read back.
    let watch = HealthDevice(name: "Watch", manufacturer: "Apple", model: "Watch6,7")
    #expect(Self.refuses(&writer, .sample(Self.sample(3, type: .heartRate), position: 3)))
    #expect(Self.refuses(&writer, .sample(Self.sample(4, device: watch), position: 4)))
    let withDevice = HealthRecord.sample(Self.sample(5, device: watch), position: 5)
    try writer.checkReadBack(withDevice, Self.row(withDevice))
    let otherFields = HealthDevice(name: "Watch", manufacturer: "Apple", softwareVersion: "10.2")
    #expect(Self.refuses(&writer, .sample(Self.sample(6, device: otherFields), position: 6)))
    let deleted = DeletedObjectRecord(deleting: Self.sample(1), at: Self.start)
    #expect(Self.refuses(&writer, .deletion(deleted, position: 7)))
    // A new transaction's writer reads every shape again.
    var next = HealthSQLiteStorage.Writer(statements: HealthSQLiteStatements(), last: 7)
    #expect(Self.refuses(&next, .sample(Self.sample(8), position: 8)))
  }

  /// A number the decoder refuses (a value out of its type's range, a time outside
  /// 1900–9999, an end before the start) is refused in a shape already read, with the
  /// decoder's own words.
  @Test func aNumberOutOfItsRangeIsRefusedInAShapeAlreadyRead() throws {
    var writer = HealthSQLiteStorage.Writer(statements: HealthSQLiteStatements(), last: 0)
    func weight(_ number: Int, _ kilograms: Double, start: Date = Self.start, end: Date? = nil)
      -> HealthRecord
    {
      let sample = Self.sample(number, type: .bodyMass)
      return .sample(
        HealthSample(
          uuid: sample.uuid, type: .bodyMass, startDate: start, endDate: end ?? start,
          value: kilograms, sourceRevision: sample.sourceRevision, device: nil, metadata: [:],
          creationDate: Self.start, workout: nil),
        position: Int64(number))
    }
    let good = weight(1, 70)
    try writer.checkReadBack(good, Self.row(good))
    let tooHeavy = weight(2, 5e6)
    do {
      try writer.checkReadBack(tooHeavy, Self.row(tooHeavy))
      Issue.record("accepted a weight of 5e6 kg")
    } catch let error as HealthStorageError {
      #expect(
        error.message.hasPrefix(
          #"the record at position 2 would not load again: "value" is 5000000.0, out of range: a weight is more than 0 and at most 1000 kg"#
        ), "\(error.message)")
    }
    for bad in [
      weight(3, 70, start: Date(timeIntervalSince1970: -3e9)),
      weight(4, 70, start: Self.start, end: Self.start.addingTimeInterval(-60)),
      weight(5, 0),
    ] {
      #expect(throws: HealthStorageError.self) { try writer.checkReadBack(bad, Self.row(bad)) }
    }
  }

  @Test func aRowWithNestedPartsIsAlwaysRead() throws {
    var writer = HealthSQLiteStorage.Writer(statements: HealthSQLiteStatements(), last: 0)
    let metadata: Metadata = ["HKMetadataKeyHeartRateMotionContext": .string("1")]
    let first = HealthRecord.sample(Self.sample(1, metadata: metadata), position: 1)
    try writer.checkReadBack(first, Self.row(first))
    #expect(Self.refuses(&writer, .sample(Self.sample(2, metadata: metadata), position: 2)))
  }

  /// A save through the storage still refuses what would not load again: a non-finite
  /// number is refused before the read-back (the same message as before), and rows of one
  /// shape saved in one command all read back when the database is opened again.
  @Test func rowsOfOneShapeSavedInACommandReadBack() throws {
    let folder = FileManager.default.temporaryDirectory.appending(
      path: "weigh-readback-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appending(path: HealthSQLiteStorage.fileName).path
    let storage = try HealthSQLiteStorage(path: path)
    try storage.beginCommand()
    let samples = (1...50).map { Self.sample($0) }
    try storage.apply(
      samples.enumerated().map { .sampleSaved($1, position: Int64($0 + 1)) })
    try storage.commitCommand(pending: nil, appSequence: 0)
    try storage.close()
    let reopened = try HealthSQLiteStorage(path: path)
    defer { try? reopened.close() }
    let read = try reopened.records(after: 0, limit: 0)
    #expect(read == samples.enumerated().map { .sample($1, position: Int64($0 + 1)) })
  }
}
