import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// Format 3 (docs/store.md, "Format 3: a pair of type indexes per type present"): a type's
/// index pair made with its first row and undone with it; every statement by type answered
/// through its type's index; a type without a pair answered without SQLite; a format-2 file
/// migrated with the same answers; `check` finding a pair or an index that is not weigh's.
@Suite struct HealthSQLiteFormat3Tests {
  typealias Samples = HealthSQLiteStorageTests

  static let formatTwoStore = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fixtures/health-sqlite-format2-store").path

  /// The names of `sqlite`'s indexes on `record`.
  static func indexes(_ sqlite: HealthSQLiteStorage) throws -> Set<String> {
    try sqlite.queue.inDatabase { db in
      Set(
        try String.fetchAll(
          db, sql: "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'record'"))
    }
  }

  /// Samples numbered `range` (of `Samples.types`, by number) at positions from `first`.
  static func save(_ range: ClosedRange<Int>, from first: Int64) -> [HealthChange] {
    range.enumerated().map { offset, number in
      .sampleSaved(
        Samples.sample(number, uuid: Samples.uuid(number)), position: first + Int64(offset))
    }
  }

  @Test func aTypesPairIsMadeWithItsFirstRowAndUndoneWithIt() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    let sqlite = try HealthSQLiteStorage(path: path)
    defer { try? sqlite.close() }
    let fixed: Set = ["record_uuid", "record_sync", "record_deleted"]
    #expect(try Self.indexes(sqlite) == fixed)
    // Nothing to read, and nothing made by a read.
    #expect(try sqlite.samples(of: .stepCount, startingIn: nil, bundle: nil).isEmpty)
    #expect(try sqlite.newestSample(of: .stepCount) == nil)
    #expect(try sqlite.changes(of: .stepCount, after: 0, limit: 0).isEmpty)
    #expect(try Self.indexes(sqlite) == fixed)
    // Samples 4 and 8 are steps (`Samples.types[0]`).
    try sqlite.apply(Self.save(4...4, from: 1))
    #expect(try Self.indexes(sqlite) == fixed.union(["record_start_3", "record_pos_3"]))
    // A command's step rolled back takes its pair with its rows; the reads see it gone.
    try sqlite.beginCommand()
    let failed = Samples.outcome {
      try sqlite.step {
        try sqlite.apply(Self.save(5...5, from: 2))
        #expect(try sqlite.samples(of: .heartRate, startingIn: nil, bundle: nil).count == 1)
        throw HealthStorageError("the step fails")
      }
    }
    #expect(failed != nil)
    #expect(try !Self.indexes(sqlite).contains("record_pos_13"))
    #expect(try sqlite.samples(of: .heartRate, startingIn: nil, bundle: nil).isEmpty)
    try sqlite.apply(Self.save(6...6, from: 2))
    sqlite.rollbackCommand()
    #expect(try Self.indexes(sqlite) == fixed.union(["record_start_3", "record_pos_3"]))
    #expect(try sqlite.samples(of: .bodyMass, startingIn: nil, bundle: nil).isEmpty)
    // Another connection's pair is seen by the next read.
    let other = try HealthSQLiteStorage(path: path)
    try other.apply(Self.save(7...7, from: 2))
    try other.close()
    #expect(try sqlite.samples(of: .activeEnergyBurned, startingIn: nil, bundle: nil).count == 1)
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
  }

  /// An import's types (`expectTypes`) get their pairs with the command's first pair; the
  /// hint ends with the command, whose commit drops the pairs no row took.
  @Test func expectedTypesGetTheirPairsWithTheFirst() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    let sqlite = try HealthSQLiteStorage(path: path)
    defer { try? sqlite.close() }
    try sqlite.beginCommand()
    sqlite.expectTypes([.heartRate, .activeEnergyBurned])
    // Sample 4 is steps, 7 energy (`Samples.types`).
    try sqlite.apply(Self.save(4...4, from: 1))
    let fixed: Set = ["record_uuid", "record_sync", "record_deleted"]
    let steps: Set = ["record_start_3", "record_pos_3"]
    let energy: Set = ["record_start_4", "record_pos_4"]
    let heartRate: Set = ["record_start_13", "record_pos_13"]
    #expect(try Self.indexes(sqlite) == fixed.union(steps).union(energy).union(heartRate))
    try sqlite.apply(Self.save(7...7, from: 2))
    try sqlite.commitCommand(pending: nil, appSequence: 0)
    #expect(try Self.indexes(sqlite) == fixed.union(steps).union(energy))
    #expect(try sqlite.samples(of: .heartRate, startingIn: nil, bundle: nil).isEmpty)
    sqlite.expectTypes([.bloodGlucose])
    try sqlite.beginCommand()
    try sqlite.commitCommand(pending: nil, appSequence: 0)
    // Samples 6 are weights: their pair alone (glucose's hint ended with its command).
    try sqlite.apply(Self.save(6...6, from: 3))
    #expect(
      try Self.indexes(sqlite)
        == fixed.union(steps).union(energy).union(["record_start_1", "record_pos_1"]))
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
  }

  /// Every statement by type, for each type with rows, goes through that type's index
  /// (`EXPLAIN QUERY PLAN`), never a scan of the table.
  @Test func everyStatementByTypeUsesItsTypesIndex() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let sqlite = try HealthSQLiteStorage(path: directory.file(HealthSQLiteStorage.fileName))
    defer { try? sqlite.close() }
    try sqlite.apply(Self.save(1...400, from: 1))
    let kinds = HealthSQLiteStatement.allCases.filter(\.isByType)
    #expect(kinds.count == 6)
    try sqlite.queue.inDatabase { db in
      for type in Samples.types {
        let code = HealthSQLiteTypeCode.code(type)
        let names = HealthSQLiteFormat3.indexNames(code)
        for kind in kinds {
          let sql = kind.sql(format3TypeCode: code)
          let plan: [String] = try Row.fetchAll(
            db, sql: "EXPLAIN QUERY PLAN " + sql,
            arguments: kind == .changesOfType
              ? [nil, 0, 10] : sql.contains("?3") ? [nil, 0.0, 1.0] : []
          ).map { $0[3] }
          let details = plan.joined(separator: "; ")
          #expect(
            details.contains("INDEX \(names.start)") || details.contains("INDEX \(names.position)"),
            "\(kind) of \(type): \(details)")
          #expect(!plan.contains("SCAN record"), "\(kind) of \(type): \(details)")
        }
      }
    }
    // And they answer as the in-memory storage does (`HealthSQLiteStorageTests` compares the
    // rest): the steps in position order.
    let steps = try sqlite.samples(of: .stepCount, startingIn: nil, bundle: nil).map(\.position)
    #expect(steps == Array(stride(from: 4, through: 400, by: 4)).map(Int64.init))
    #expect(try sqlite.changes(of: .stepCount, after: 8, limit: 2).map(\.position) == [12, 16])
  }

  /// The answers of a storage to every read by type, and the rest.
  static func answers(_ sqlite: HealthSQLiteStorage) throws -> [String] {
    var said: [String] = []
    let boundaries = (0...6).map {
      Date(timeIntervalSince1970: 1_767_000_000 + Double($0) * 86_400 * 30)
    }
    for type in SampleType.allCases {
      said.append("\(type): \(try sqlite.samples(of: type, startingIn: nil, bundle: nil))")
      said.append("\(type) changes: \(try sqlite.changes(of: type, after: 0, limit: 0))")
      said.append("\(type) newest: \(String(describing: try sqlite.newestSample(of: type)))")
      said.append(
        "\(type) stats: \(try sqlite.statistics(of: type, boundaries: boundaries, bundle: nil))")
      said.append("\(type) counts: \(try sqlite.counts(of: type))")
    }
    said.append("all: \(try sqlite.records(after: 0, limit: 0))")
    said.append("state: \(String(describing: try sqlite.smallState()))")
    return said
  }

  /// A format-2 file (the format-2 weigh's store, `scripts/make-health-format2-fixture.sh`)
  /// migrated: the same records, origins, meta rows and state, the pairs of its types and no
  /// `record_type_*`, the same answers, the old file kept byte for byte as `.v2`, clean.
  @Test func aFormatTwoFileMigratesWithTheSameAnswers() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let old = try #require(
      FileManager.default.contents(atPath: Self.formatTwoStore + "/health.sqlite"))
    directory.write(HealthSQLiteStorage.fileName, Array(old))
    let path = directory.file(HealthSQLiteStorage.fileName)
    #expect(try FormatOneFixture.version(path) == 2)
    let before = try FormatOneFixture.contents(of: path)
    let reader = try HealthSQLiteStorage(path: path, creating: false, readOnly: true)
    let answered = try Self.answers(reader)
    try reader.close()
    let rows =
      "SELECT pos, kind, type, hex(uuid), start, end, value, origin, created, sync_id, "
      + "deleted, hex(extra), crc FROM record ORDER BY pos"
    func digest(_ path: String) throws -> [String] {
      let queue = try DatabaseQueue(path: path)
      defer { try? queue.close() }
      return try queue.read { db in
        try Row.fetchAll(db, sql: rows).map(\.description)
          + Row.fetchAll(db, sql: "SELECT * FROM origin ORDER BY id").map(\.description)
      }
    }
    let rowsBefore = try digest(path)

    let migration = try HealthSQLiteStorage.migrateIfNeeded(path: path, directory: directory.path)
    #expect(migration?.backup == "health.sqlite.v2")
    #expect(migration?.records == before.records.count)
    #expect(
      migration?.note
        == "health.sqlite moved to format 3 (\(before.records.count) records); the old file is "
        + "kept as health.sqlite.v2")
    #expect(try FormatOneFixture.version(path) == 3)
    #expect(directory.bytes("health.sqlite.v2") == Array(old))
    #expect(try FormatOneFixture.contents(of: path) == before)
    #expect(try digest(path) == rowsBefore)
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
    #expect(try HealthSQLiteStorage.migrateIfNeeded(path: path, directory: directory.path) == nil)
    let migrated = try HealthSQLiteStorage(path: path)
    defer { try? migrated.close() }
    #expect(try Self.answers(migrated) == answered)
    // Weights, glucose, steps; exercise has only a deleted-object record: its pair too.
    #expect(
      try Self.indexes(migrated)
        == [
          "record_uuid", "record_sync", "record_deleted", "record_start_1", "record_pos_1",
          "record_start_2", "record_pos_2", "record_start_3", "record_pos_3", "record_start_5",
          "record_pos_5",
        ])
  }

  /// `check` says which index is missing, not weigh's, or left from format 2.
  @Test func checkFindsAnIndexMissingChangedOrLeftOver() throws {
    let base = TemporaryStoreDirectory()
    defer { base.remove() }
    let path = base.file(HealthSQLiteStorage.fileName)
    let sqlite = try HealthSQLiteStorage(path: path)
    try sqlite.apply(Self.save(1...40, from: 1))
    var state = HealthSmallState(clock: Samples.epoch, app: HealthStore.defaultApp, seed: 5)
    state.counter = 40
    try sqlite.apply([.stateChanged(state)])
    try sqlite.close()
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
    let cases: [(String, [String])] = [
      (
        "DROP INDEX record_start_3",
        ["the index record_start_3 is missing (dropped outside weigh, or damaged)"]
      ),
      (
        "DROP INDEX record_start_3; DROP INDEX record_pos_3",
        [
          "the records of stepCount have no indexes record_start_3 and record_pos_3 (dropped "
            + "outside weigh, or damaged): their reads find nothing"
        ]
      ),
      (
        "DROP INDEX record_pos_13; CREATE INDEX record_pos_13 ON record(pos) WHERE type = 1",
        [
          "the index record_pos_13 is not the one weigh makes: "
            + "CREATE INDEX record_pos_13 ON record(pos) WHERE type = 1"
        ]
      ),
      (
        "CREATE INDEX record_type_pos ON record(type, pos)",
        ["the index record_type_pos is not one of format 3's (made outside weigh?)"]
      ),
      (
        "DROP INDEX record_sync",
        ["the index record_sync is missing (dropped outside weigh, or damaged)"]
      ),
      (
        "CREATE INDEX record_start_7 ON record(start) WHERE type = 7",
        ["the index record_pos_7 is missing (dropped outside weigh, or damaged)"]
      ),
      // A full pair of a type without rows is allowed (its rows may all have been removed).
      (
        "CREATE INDEX record_start_7 ON record(start) WHERE type = 7; "
          + "CREATE INDEX record_pos_7 ON record(pos) WHERE type = 7", []
      ),
    ]
    for (sql, expected) in cases {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      base.copy(to: directory)
      let copy = directory.file(HealthSQLiteStorage.fileName)
      try HealthSQLiteCheckFormat2Tests.change(copy, sql)
      #expect(HealthSQLiteStorage.check(path: copy).map(\.message) == expected, "\(sql)")
      guard !expected.isEmpty else { continue }
      // The repair rebuilds the file with format 3's indexes.
      let report = try HealthSQLiteStorage.repair(path: copy, directory: directory.path)
      #expect(report?.lost == 0, "\(sql)")
      #expect(HealthSQLiteStorage.check(path: copy).isEmpty, "\(sql)")
    }
  }
}
