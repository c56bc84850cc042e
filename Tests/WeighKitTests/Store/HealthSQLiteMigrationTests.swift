import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// A format-1 `health.sqlite` for the migration's, check's and repair's tests:
/// `Tests/fixtures/health-sqlite-format1/health.sqlite`, written by the storage of main at
/// 64764cd (the last weigh that writes format 1) through `write(to:)`: 400 records of every
/// kind (plain samples, metadata, sync identifiers, workouts, correlations, deletions), the
/// small state, and a pending journal record. Kept as a file because the storage now
/// writes format 2.
enum FormatOneFixture {
  /// What the fixture's file holds, as format 1 reads it.
  struct Contents: Equatable {
    var records: [HealthRecord]
    var state: [UInt8]
    var meta: [String: Int64]
    var pending: HealthSQLiteStorage.PendingRecord?
  }

  static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fixtures/health-sqlite-format1/health.sqlite").path

  static let pending = HealthSQLiteStorage.PendingRecord(
    sequence: 4, bytes: Array(#"{"seq":4,"changes":[]}"#.utf8) + [0x0A])

  /// Copies the fixture into `directory`'s `health.sqlite`; its contents.
  @discardableResult
  static func make(in directory: TemporaryStoreDirectory) throws -> Contents {
    let bytes = try #require(FileManager.default.contents(atPath: file))
    directory.write(HealthSQLiteStorage.fileName, Array(bytes))
    let contents = try contents(of: directory.file(HealthSQLiteStorage.fileName))
    #expect(contents.records.count == 400)
    return contents
  }

  /// Writes the fixture's file at `path` with the storage, when it writes format 1
  /// (`WEIGH_WRITE_FORMAT1_FIXTURE=1 swift test --filter FormatOneFixtureWriter`).
  static func write(to path: String) throws {
    try #require(HealthSQLiteStorage.formatVersion == 1)
    let storage = try HealthSQLiteStorage(path: path)
    var random = SeededGenerator(seed: 41)
    var records: [HealthRecord] = []
    var uuids = Set<UUID>()
    while records.count < 400 {
      let record = HealthSQLiteRowPartsTests.record(&random, position: Int64(records.count + 1))
      // One record a UUID: the storage refuses a second live sample with one.
      guard uuids.insert(HealthSQLiteRowParts(record).uuid).inserted else { continue }
      records.append(record)
    }
    var state = HealthSmallState(
      clock: Date(timeIntervalSince1970: 1_700_000_000), app: HealthStore.defaultApp, seed: 5)
    state.counter = 400
    try storage.beginCommand()
    try storage.append(records)
    try storage.apply([.stateChanged(state)])
    try storage.commitCommand(pending: pending, appSequence: pending.sequence)
    try storage.close()
  }

  /// What the database at `path` holds, of either format: the records read and checked as
  /// its format's queries read them, the state row's bytes, the meta rows but `format`.
  static func contents(of path: String) throws -> Contents {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      let version = try HealthSQLiteStorage.layoutVersion(db)
      var damage: [String] = []
      let origins =
        version >= HealthSQLiteFormat2.version
        ? try HealthSQLiteStorage.checkedOrigins(db) { damage.append($0) } : [:]
      #expect(damage.isEmpty)
      var records: [HealthRecord] = []
      try HealthSQLiteStorage.eachRecord(db, version: version, origins: origins) {
        records.append(try $0.get().record)
      }
      var meta: [String: Int64] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT key, value FROM meta WHERE key != 'format'") {
        meta[row[0]] = row[1]
      }
      let state = try Data.fetchOne(db, sql: "SELECT json FROM state") ?? Data()
      return Contents(
        records: records, state: Array(state), meta: meta,
        pending: try HealthSQLiteStorage.readPendingRecord(db))
    }
  }

  /// The layout version in the header of the database at `path`.
  static func version(_ path: String) throws -> Int64 {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { try Int64.fetchOne($0, sql: "PRAGMA user_version") ?? 0 }
  }
}

/// The migration of a format-1 `health.sqlite` to format 2 (docs/store.md, "Format 2: a
/// leaner row"): every record, the state, the meta rows and the pending record read back
/// the same; the old file is kept byte for byte; a damaged file is refused and left as it
/// was; a crash at any of its writing calls leaves the old file or the whole new one.
@Suite struct HealthSQLiteMigrationTests {
  typealias Fixture = FormatOneFixture

  @Test(.enabled(if: ProcessInfo.processInfo.environment["WEIGH_WRITE_FORMAT1_FIXTURE"] != nil))
  func formatOneFixtureWriter() throws {
    try FileManager.default.createDirectory(
      atPath: (Fixture.file as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    try? FileManager.default.removeItem(atPath: Fixture.file)
    try Fixture.write(to: Fixture.file)
  }

  @Test func aFormatOneFileMigratesWithEveryRowAndKeepsTheOldFile() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let before = try Fixture.make(in: directory)
    let kinds = Set(before.records.map { HealthSQLiteRowParts($0).extra != nil })
    #expect(kinds == [true, false])
    #expect(before.records.contains { if case .deletion = $0 { true } else { false } })
    let old = try #require(directory.bytes(HealthSQLiteStorage.fileName))
    let path = directory.file(HealthSQLiteStorage.fileName)

    let migration = try HealthSQLiteStorage.migrateIfNeeded(
      path: path, directory: directory.path)
    #expect(migration?.records == 400)
    #expect(migration?.backup == "health.sqlite.v1")
    #expect(
      migration?.note
        == "health.sqlite moved to format 3 (400 records); the old file is kept as health.sqlite.v1"
    )
    #expect(try Fixture.version(path) == 3)
    #expect(try Fixture.contents(of: path) == before)
    #expect(directory.bytes("health.sqlite.v1") == old)
    #expect(try Fixture.contents(of: directory.file("health.sqlite.v1")) == before)
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    // Once only.
    #expect(
      try HealthSQLiteStorage.migrateIfNeeded(path: path, directory: directory.path)
        == nil)
  }

  @Test func anotherFileNamedV1IsKeptAndTheCopyTakesTheNextName() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let before = try Fixture.make(in: directory)
    let old = try #require(directory.bytes(HealthSQLiteStorage.fileName))
    directory.write("health.sqlite.v1", Array("someone else's".utf8))
    let migration = try HealthSQLiteStorage.migrateIfNeeded(
      path: directory.file(HealthSQLiteStorage.fileName), directory: directory.path,
      linking: false)
    #expect(migration?.backup == "health.sqlite.v1-2")
    #expect(directory.text("health.sqlite.v1") == "someone else's")
    #expect(directory.bytes("health.sqlite.v1-2") == old)
    #expect(try Fixture.contents(of: directory.file(HealthSQLiteStorage.fileName)) == before)
  }

  /// A format-1 file damaged by `change` (SQL run on it) is refused with `weigh check`'s
  /// advice, and the folder is as it was.
  @Test(arguments: [
    "UPDATE record SET value = value + 1 WHERE pos = 5",
    "UPDATE record SET row = CAST(' ' || CAST(row AS TEXT) AS BLOB) WHERE pos = 9",
    "UPDATE state SET crc = crc + 1",
    "UPDATE meta SET value = value + 1 WHERE key = 'app_sequence'",
    "UPDATE pending_journal SET seq = seq + 1",
    "DELETE FROM record WHERE pos = 3",
  ])
  func aDamagedFormatOneFileIsRefusedAndLeftAsItWas(change: String) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    try Fixture.make(in: directory)
    let path = directory.file(HealthSQLiteStorage.fileName)
    let queue = try DatabaseQueue(path: path)
    try queue.write { try $0.execute(sql: change) }
    try queue.close()
    let files = directory.snapshot()
    let error = #expect(throws: StoreError.self, "\(change)") {
      try HealthSQLiteStorage.migrateIfNeeded(path: path, directory: directory.path)
    }
    #expect(error?.kind == .corrupt, "\(change)")
    #expect(
      error?.message.contains("`weigh check` lists the damage") == true,
      "\(String(describing: error))")
    #expect(directory.snapshot() == files, "\(change)")
  }

  /// Migrates a copy of `base` under a fault injector that stops it at call `crashAt`
  /// (counting only when nil); the injector.
  static func migrate(_ directory: TemporaryStoreDirectory, crashAt: Int?, linking: Bool)
    -> WriteFaultInjector
  {
    let injector = WriteFaultInjector(remaining: crashAt)
    WriteFaultInjector.$current.withValue(injector) {
      _ = try? HealthSQLiteStorage.migrateIfNeeded(
        path: directory.file(HealthSQLiteStorage.fileName), directory: directory.path,
        linking: linking)
    }
    return injector
  }

  @Test(arguments: [true, false])
  func aCrashAtEveryWriteLeavesTheOldFileOrTheWholeNewOne(linking: Bool) throws {
    let base = TemporaryStoreDirectory()
    defer { base.remove() }
    let before = try Fixture.make(in: base)
    let old = try #require(base.bytes(HealthSQLiteStorage.fileName))

    let whole = TemporaryStoreDirectory()
    defer { whole.remove() }
    base.copy(to: whole)
    let counter = Self.migrate(whole, crashAt: nil, linking: linking)
    #expect(try Fixture.version(whole.file(HealthSQLiteStorage.fileName)) == 3)
    #expect(counter.count >= 4)

    for crashAt in 0..<counter.count {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      base.copy(to: directory)
      let injector = Self.migrate(directory, crashAt: crashAt, linking: linking)
      #expect(injector.crashed, "call \(crashAt) of \(counter.count) was not reached")
      let path = directory.file(HealthSQLiteStorage.fileName)
      let context = "crash at call \(crashAt) of \(counter.count)"
      // The old file as it was, or the new one whole; either checks clean.
      let version = try Fixture.version(path)
      if version == 1 {
        #expect(directory.bytes(HealthSQLiteStorage.fileName) == old, "\(context)")
      }
      #expect(try Fixture.contents(of: path) == before, "\(context)")
      #expect(HealthSQLiteStorage.check(path: path).isEmpty, "\(context)")
      // The next call migrates again (or has nothing to do), and keeps one old file.
      let again = try HealthSQLiteStorage.migrateIfNeeded(
        path: path, directory: directory.path, linking: linking)
      #expect((again == nil) == (version == 3), "\(context)")
      #expect(try Fixture.version(path) == 3, "\(context)")
      #expect(try Fixture.contents(of: path) == before, "\(context)")
      let backups = directory.snapshot().keys.filter { $0.hasPrefix("health.sqlite.v1") }
      #expect(directory.bytes("health.sqlite.v1") == old, "\(context)")
      if linking { #expect(backups == ["health.sqlite.v1"], "\(context): \(backups)") }
    }
  }
}
