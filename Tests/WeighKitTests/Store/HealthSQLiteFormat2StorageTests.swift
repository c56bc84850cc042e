import Foundation
import GRDB
import HealthSim
import PropertyBased
import Testing

@testable import WeighKit

/// The storage writes format 2 (docs/store.md, "Format 2: a leaner row"): its origins stay
/// right across rollbacks (an id freed by a rollback and taken again never reads back as
/// the origin that had it), and a format-1 file, which a read-only store keeps, answers
/// every query as before.
@Suite struct HealthSQLiteFormat2StorageTests {
  static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

  /// A heart rate from `bundle`, written by version `version` of its app.
  static func sample(_ number: Int, bundle: String, version: String = "1") -> HealthSample {
    let start = epoch.addingTimeInterval(Double(number) * 60)
    return HealthSample(
      uuid: HealthSQLiteStorageTests.uuid(number), type: .heartRate, startDate: start,
      endDate: start, value: Double(60 + number),
      sourceRevision: SourceRevision(
        source: HealthSource(name: "App \(bundle)", bundleIdentifier: bundle), version: version),
      device: nil, metadata: [:], creationDate: start, workout: nil)
  }

  /// The bundles of the stored samples, in position order.
  static func bundles(_ storage: HealthSQLiteStorage) throws -> [String] {
    try storage.records(after: 0, limit: 0).compactMap { record in
      guard case .sample(let sample, _) = record else { return nil }
      return sample.source?.bundleIdentifier
    }
  }

  /// The origin table's rows: id and bundle.
  static func originRows(_ path: String) throws -> [Int64: String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      try HealthSQLiteFormat2.origins(db).mapValues(\.bundle)
    }
  }

  struct Refused: Error {}

  /// A savepoint and a step each add an origin and are rolled back after a read has seen
  /// it; the next writes add other origins, which take the freed ids: every read, in the
  /// command, after its commit and reopened, gives each sample its own origin.
  @Test func originsFreedByARollbackAreNeverReadAsTheirSuccessors() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    var storage = try HealthSQLiteStorage(path: path)
    try storage.beginCommand()
    try storage.apply([.sampleSaved(Self.sample(1, bundle: "a"), position: 1)])
    // A savepoint's origin, read, then rolled back.
    try storage.openSavepoint()
    try storage.apply([.sampleSaved(Self.sample(2, bundle: "gone.savepoint"), position: 2)])
    #expect(try Self.bundles(storage) == ["a", "gone.savepoint"])
    storage.rollBackSavepoint()
    #expect(try Self.bundles(storage) == ["a"])
    try storage.apply([.sampleSaved(Self.sample(3, bundle: "b"), position: 2)])
    #expect(try Self.bundles(storage) == ["a", "b"])
    // A step's origin, read, then rolled back by the step's failure.
    #expect(throws: Refused.self) {
      try storage.step {
        try storage.apply([.sampleSaved(Self.sample(4, bundle: "gone.step"), position: 3)])
        #expect(try Self.bundles(storage) == ["a", "b", "gone.step"])
        throw Refused()
      }
    }
    try storage.apply([
      .sampleSaved(Self.sample(5, bundle: "c"), position: 3),
      .sampleSaved(Self.sample(6, bundle: "a", version: "2"), position: 4),
    ])
    #expect(try Self.bundles(storage) == ["a", "b", "c", "a"])
    #expect(try storage.samples(of: .heartRate, startingIn: nil, bundle: "c").count == 1)
    try storage.commitCommand(pending: nil, appSequence: 0)
    // A transaction of its own, refused after its origin went in: rolled back.
    #expect(throws: StoreError.self) {
      try storage.apply([
        .sampleSaved(Self.sample(7, bundle: "gone.transaction"), position: 5),
        .sampleSaved(Self.sample(1, bundle: "a"), position: 6),
      ])
    }
    try storage.apply([.sampleSaved(Self.sample(8, bundle: "d"), position: 5)])
    #expect(try Self.bundles(storage) == ["a", "b", "c", "a", "d"])
    let statistics = try storage.statistics(
      of: .heartRate, boundaries: [Self.epoch, Self.epoch.addingTimeInterval(86_400)],
      bundle: "d")
    #expect(statistics.first?.count == 1)
    try storage.close()
    // Each origin once, the freed ids taken by the next ones.
    #expect(try Self.originRows(path) == [1: "a", 2: "b", 3: "c", 4: "a", 5: "d"])
    storage = try HealthSQLiteStorage(path: path)
    defer { try? storage.close() }
    #expect(try Self.bundles(storage) == ["a", "b", "c", "a", "d"])
    let versions = try storage.records(after: 0, limit: 0).compactMap { record in
      guard case .sample(let sample, _) = record else { return nil as String? }
      return sample.sourceRevision?.version
    }
    #expect(versions == ["1", "1", "1", "2", "1"])
  }

  /// A new store's file is format 2; a format-1 file opened to write is refused (a
  /// writable store's file is migrated before it is opened), and opened read-only it is
  /// read.
  @Test func aNewFileIsFormat2AndAFormat1FileIsOnlyRead() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    let storage = try HealthSQLiteStorage(path: path)
    try storage.apply([.sampleSaved(Self.sample(1, bundle: "a"), position: 1)])
    try storage.close()
    let queue = try DatabaseQueue(path: path)
    #expect(try queue.read { try Int64.fetchOne($0, sql: "PRAGMA user_version") } == 3)
    try queue.close()
    let old = directory.file("old.sqlite")
    try HealthSQLiteFormat1Fixture.write(from: path, to: old)
    do {
      _ = try HealthSQLiteStorage(path: old)
      Issue.record("a format-1 file was opened to write")
    } catch {
      #expect(error.kind == .corrupt)
      #expect(error.message.contains("health.sqlite is format 1"), "\(error.message)")
    }
    let reader = try HealthSQLiteStorage(path: old, readOnly: true)
    defer { try? reader.close() }
    #expect(try Self.bundles(reader) == ["a"])
    #expect(throws: StoreError.self) {
      try reader.apply([.sampleSaved(Self.sample(2, bundle: "a"), position: 2)])
    }
  }

  /// Random sequences of changes written in format 2, then the same file as format 1
  /// holds it, opened read-only: both answer every query as the in-memory storage does.
  @Test func aFormat1FileReadOnlyAnswersEveryQueryAsBefore() async {
    await propertyCheck(count: 12, input: Gen.int(in: 0...100_000).array(of: 1...25)) { codes in
      failingOnThrow {
        let directory = TemporaryStoreDirectory()
        defer { directory.remove() }
        let path = directory.file(HealthSQLiteStorage.fileName)
        let model = InMemorySampleStorage()
        var sqlite = try HealthSQLiteStorage(path: path)
        try HealthSQLiteStorageTests.replay(codes, on: model, and: &sqlite, path: path) {
          _, _, outcomes, _ in
          if let (inMemory, inSQLite) = outcomes { #expect((inSQLite == nil) == (inMemory == nil)) }
        }
        var state = HealthSmallState(
          clock: Self.epoch, app: HealthStore.defaultApp, seed: UInt64(codes.count))
        state.counter = try model.lastPosition()
        try model.apply([.stateChanged(state)])
        try sqlite.apply([.stateChanged(state)])
        try sqlite.close()
        let old = directory.file("old.sqlite")
        try HealthSQLiteFormat1Fixture.write(from: path, to: old)
        for (file, name) in [(path, "format 2"), (old, "format 1")] {
          let reader = try HealthSQLiteStorage(path: file, readOnly: true)
          defer { try? reader.close() }
          try HealthSQLiteStorageTests.expectSameAnswers(model, reader, probe: codes.count, name)
        }
      }
    }
  }
}

/// A format-1 `health.sqlite`, as weighs before format 2 wrote it, for the tests of what
/// reads one: the records of a format-2 file in format 1's rows (their columns and JSON
/// row), with its meta rows, state and pending journal record.
enum HealthSQLiteFormat1Fixture {
  /// Writes at `target` (which must not exist) the format-1 file of what the closed
  /// format-2 file `source` holds.
  static func write(from source: String, to target: String) throws {
    let storage = try HealthSQLiteStorage(path: source, readOnly: true)
    let records = try storage.records(after: 0, limit: 0)
    try storage.close()
    let queue = try DatabaseQueue(path: target)
    defer { try? queue.close() }
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: HealthSQLiteStorage.creation(version: 1))
      try db.execute(sql: "ATTACH DATABASE ? AS old", arguments: [source])
      try db.inTransaction {
        try db.execute(
          sql: "INSERT OR REPLACE INTO main.meta SELECT * FROM old.meta WHERE key <> 'format'")
        try db.execute(sql: "INSERT INTO main.state SELECT * FROM old.state")
        try db.execute(sql: "INSERT INTO main.pending_journal SELECT * FROM old.pending_journal")
        for record in records { try insert(record, db) }
        return .commit
      }
      try db.execute(sql: "DETACH DATABASE old")
    }
  }

  /// Writes at `target` (which must not exist) a format-1 file of `records` (in position
  /// order, each checked as the storage's writer checked them), its last position and
  /// counts in the meta rows, and no state.
  static func write(_ records: [HealthRecord], to target: String) throws {
    let queue = try DatabaseQueue(path: target)
    defer { try? queue.close() }
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: HealthSQLiteStorage.creation(version: 1))
      try db.inTransaction {
        var counts: [String: Int64] = [:]
        for record in records {
          try insert(record, db)
          switch record {
          case .sample(let sample, _):
            counts[HealthSQLiteStorage.countKeys(sample.type).samples, default: 0] += 1
          case .deletion(let deleted, _):
            counts[HealthSQLiteStorage.countKeys(deleted.type).deletions, default: 0] += 1
          }
        }
        for (key, count) in counts { try HealthSQLiteStorage.setMeta(key, count, db) }
        try HealthSQLiteStorage.setMeta("last_position", records.last?.position ?? 0, db)
        return .commit
      }
    }
  }

  /// Inserts `record`'s format-1 row: its columns, its JSON row and their checksums.
  static func insert(_ record: HealthRecord, _ db: Database) throws {
    var writer = JSONWriter()
    HealthRecordCodec.encode(record, into: &writer)
    let checksum = writer.bytes.withUnsafeBufferPointer { StoreChecksum.of($0) }
    let columns = HealthSQLiteColumns(record, rowChecksum: checksum)
    var insert = HealthSQLiteBinding(
      try db.cachedStatement(sql: HealthSQLiteStatement.insertRecord.sql(.format1)))
    columns.bind(to: &insert)
    writer.bytes.withUnsafeBytes { insert.bind(12, blob: $0) }
    try insert.run()
  }
}
