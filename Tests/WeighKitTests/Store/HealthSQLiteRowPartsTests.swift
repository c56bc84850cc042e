import Foundation
import GRDB
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

  /// The bits of a record's numbers, a zero's sign aside: format 2 keeps −0.0 as +0.0, as
  /// SQLite's REAL columns do (`HealthSQLiteRowParts.init`).
  static func bits(_ record: HealthRecord) -> [UInt64?] {
    switch record {
    case .sample(let sample, _):
      [
        Loaded.bits(sample.startDate), Loaded.bits(sample.endDate),
        sample.creationDate.map(Loaded.bits), (sample.value + 0.0).bitPattern,
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
      // Equal origins made apart (from the record read back) hash alike.
      #expect(HealthSQLiteRowParts(read).origin.hashValue == parts.origin.hashValue)
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

/// Format 2's tables in SQLite: random records' parts inserted with their origins read
/// back as format 1 reads them, and a changed column, extra member or origin is refused.
@Suite struct HealthSQLiteFormat2Tests {
  /// A database with format 2's record and origin tables holding `records`.
  static func database(_ records: [HealthRecord]) throws -> DatabaseQueue {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(sql: HealthSQLiteFormat2.recordTables)
      var originIDs: [HealthSQLiteOrigin: Int64] = [:]
      for record in records {
        try HealthSQLiteFormat2.insert(record, originIDs: &originIDs, into: db)
      }
    }
    return queue
  }

  /// Every row's record, checked, in position order.
  static func records(_ queue: DatabaseQueue) throws -> [HealthRecord] {
    try queue.read { db in
      let origins = try HealthSQLiteFormat2.origins(db)
      var records: [HealthRecord] = []
      let sql = "SELECT \(HealthSQLiteFormat2.selection) FROM record ORDER BY pos"
      try HealthSQLiteBinding(db.cachedStatement(sql: sql)).rows { row in
        records.append(try HealthSQLiteRowParts.read(row, origins: origins).record())
      }
      return records
    }
  }

  @Test func randomRecordsReadBackFromTheTables() throws {
    var random = SeededGenerator(seed: 27)
    let records = (1...600).map {
      HealthSQLiteRowPartsTests.record(&random, position: Int64($0))
    }
    let queue = try Self.database(records)
    let read = try Self.records(queue)
    let expected = try records.map(HealthSQLiteRowPartsTests.throughFormatOne)
    #expect(read == expected)
    #expect(
      read.map(HealthSQLiteRowPartsTests.bits) == expected.map(HealthSQLiteRowPartsTests.bits))
  }

  @Test func aChangedColumnExtraOrOriginIsFound() throws {
    var random = SeededGenerator(seed: 28)
    let records = (1...50).map {
      HealthSQLiteRowPartsTests.record(&random, position: Int64($0))
    }
    let changes = [
      "UPDATE record SET value = value + 1 WHERE pos = 7",
      "UPDATE record SET end = end + 1 WHERE pos = 8",
      "UPDATE record SET created = 0 WHERE pos = 9",
      "UPDATE record SET type = 3 - type % 2 WHERE pos = 10",
      "UPDATE record SET extra = CAST(' ' || CAST(extra AS TEXT) AS BLOB) WHERE extra IS NOT NULL",
      "UPDATE record SET sync_id = 'x' || coalesce(sync_id, '')",
      "UPDATE record SET origin = origin + 1000 WHERE pos = 11",
      "UPDATE origin SET json = CAST(replace(CAST(json AS TEXT), '\"', ' \"') AS BLOB) WHERE id = 1",
    ]
    for change in changes {
      let queue = try Self.database(records)
      try queue.write { try $0.execute(sql: change) }
      #expect(throws: HealthSQLiteDamage.self, "\(change)") { try Self.records(queue) }
    }
  }
}

/// The migration's copy: a format-1 `health.sqlite` (as weighs before format 2 wrote it) copied into
/// format 2's tables reads back record for record, and a damaged format-1 row is refused.
@Suite struct HealthSQLiteFormat2CopyTests {
  /// A format-1 file holding `count` random records of every kind, and its records as the
  /// storage reads them.
  static func formatOne(_ folder: URL, count: Int) throws -> (path: String, [HealthRecord]) {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appending(path: HealthSQLiteStorage.fileName).path
    var random = SeededGenerator(seed: 41)
    var records: [HealthRecord] = []
    var uuids = Set<UUID>()
    var position: Int64 = 0
    while records.count < count {
      let record = HealthSQLiteRowPartsTests.record(&random, position: position + 1)
      // One record a UUID: the storage refuses a second live sample with one. Samples of
      // −0.0 among them (`HealthSQLiteNegativeZeroTests`).
      guard uuids.insert(HealthSQLiteRowParts(record).uuid).inserted else { continue }
      position += 1
      records.append(record)
    }
    try HealthSQLiteFormat1Fixture.write(records, to: path)
    let storage = try HealthSQLiteStorage(path: path, readOnly: true)
    let read = try storage.records(after: 0, limit: count + 1)
    try storage.close()
    return (path, read)
  }

  @Test func aFormatOneFileCopiedReadsTheSame() throws {
    let folder = FileManager.default.temporaryDirectory.appending(
      path: "weigh-format2-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (path, expected) = try Self.formatOne(folder, count: 400)
    #expect(expected.count == 400)
    let source = try DatabaseQueue(path: path)
    let target = try DatabaseQueue()
    let copied = try source.read { from in
      try target.write { to in
        try to.execute(sql: HealthSQLiteFormat2.recordTables)
        return try HealthSQLiteFormat2.copyRecords(from: from, to: to)
      }
    }
    #expect(copied == 400)
    // −0.0 and +0.0 are equal here; format 2 keeps +0.0.
    #expect(try HealthSQLiteFormat2Tests.records(target) == expected)
    #expect(
      expected.contains {
        if case .sample(let sample, _) = $0 { sample.value.sign == .minus } else { false }
      })
    // A handful of origins for 400 records would be an export; random ones have many,
    // each once.
    let origins = try target.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM origin") }
    let distinct = Set(expected.map { HealthSQLiteRowParts($0).origin }).count
    #expect(origins == distinct)
  }

  @Test func aDamagedFormatOneRowIsNotCarriedOver() throws {
    let folder = FileManager.default.temporaryDirectory.appending(
      path: "weigh-format2-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (path, _) = try Self.formatOne(folder, count: 20)
    let source = try DatabaseQueue(path: path)
    try source.write { try $0.execute(sql: "UPDATE record SET value = value + 1 WHERE pos = 5") }
    let target = try DatabaseQueue()
    #expect(throws: HealthSQLiteDamage.self) {
      try source.read { from in
        try target.write { to in
          try to.execute(sql: HealthSQLiteFormat2.recordTables)
          return try HealthSQLiteFormat2.copyRecords(from: from, to: to)
        }
      }
    }
  }
}
