import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// A command that fills an empty table drops the UUID index past its exact set of UUIDs and
/// makes it again before its commit (`HealthSQLiteUUIDIndex`); a UUID question the command's
/// own UUIDs cannot answer makes it first; a rollback brings it back; a table with rows
/// keeps it. The index made again is the schema's, byte for byte.
@Suite struct HealthSQLiteUUIDIndexTests {
  typealias Samples = HealthSQLiteStorageTests
  typealias Own = HealthSQLiteCommandUUIDsTests

  /// The schema's statements, by name, as a database holds them.
  static func schema(_ sqlite: HealthSQLiteStorage) throws -> [String: String] {
    try sqlite.queue.inDatabase { db in
      var found: [String: String] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_schema WHERE sql NOT NULL")
      {
        found[row[0]] = row[1]
      }
      return found
    }
  }

  static func hasUUIDIndex(_ sqlite: HealthSQLiteStorage) throws -> Bool {
    try schema(sqlite)["record_uuid"] != nil
  }

  /// The schema of a new database, which never dropped its index.
  static func newSchema() throws -> [String: String] {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let sqlite = try HealthSQLiteStorage(path: directory.file(HealthSQLiteStorage.fileName))
    defer { try? sqlite.close() }
    return try schema(sqlite)
  }

  /// The schema `sqlite` should have: a new database's, with the index pair of each type
  /// code its `record` table holds (format 3), and no other.
  static func expectedSchema(_ sqlite: HealthSQLiteStorage) throws -> [String: String] {
    var expected = try newSchema()
    let codes = try sqlite.queue.inDatabase { db in
      try Int64.fetchAll(db, sql: "SELECT DISTINCT type FROM record")
    }
    for code in codes {
      let names = HealthSQLiteFormat3.indexNames(code)
      let creation = HealthSQLiteFormat3.pairCreation(code)
      expected[names.start] = creation.start
      expected[names.position] = creation.position
    }
    return expected
  }

  /// A new health.sqlite in `directory` with a command begun, and the file's path.
  static func newCommand(in directory: TemporaryStoreDirectory) throws -> (
    path: String, sqlite: HealthSQLiteStorage
  ) {
    let path = directory.file(HealthSQLiteStorage.fileName)
    let sqlite = try HealthSQLiteStorage(path: path)
    try sqlite.beginCommand()
    return (path, sqlite)
  }

  /// Commits the command, then expects a new database's schema, `samples` samples when given,
  /// and a clean `check` once the file is closed.
  static func commitAndExpectSound(
    _ sqlite: HealthSQLiteStorage, path: String, samples: Int? = nil
  ) throws {
    try sqlite.commitCommand(pending: nil, appSequence: 0)
    #expect(try schema(sqlite) == expectedSchema(sqlite))
    if let samples { #expect(try sqlite.counts(of: nil).samples == samples) }
    try sqlite.close()
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
  }

  @Test func aCommandOnAnEmptyTableMakesTheIndexOnceBeforeItsCommit() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (path, sqlite) = try Self.newCommand(in: directory)
    let saved = try Own().saveMany(in: sqlite)
    #expect(try !Self.hasUUIDIndex(sqlite))
    // Fresh UUIDs are answered by the filter, without the index.
    #expect(try sqlite.sample(uuid: Samples.uuid(3_000_000)) == nil)
    #expect(try sqlite.liveUUIDs(among: [Samples.uuid(3_000_001)]).isEmpty)
    #expect(try !Self.hasUUIDIndex(sqlite))
    try sqlite.commitCommand(pending: nil, appSequence: 0)
    #expect(try Self.schema(sqlite) == Self.expectedSchema(sqlite))
    #expect(try sqlite.sample(uuid: saved[17])?.sample.uuid == saved[17])
    try sqlite.close()
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
  }

  /// Format 3: only the UUID index is dropped; each type's index pair is made with its
  /// first row and kept up, so the anchored read and the other reads by type use it within
  /// the command, and answer as after the commit.
  @Test func theTypeIndexesAreKeptUpAndAnswerWithinTheCommand() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (path, sqlite) = try Self.newCommand(in: directory)
    _ = try Own().saveMany(in: sqlite)
    #expect(try !Self.hasUUIDIndex(sqlite))
    #expect(try Self.schema(sqlite)["record_type_pos"] == nil)
    #expect(
      try Self.schema(sqlite) == Self.expectedSchema(sqlite).filter { $0.key != "record_uuid" })
    let type = Samples.types[0]
    let all = try sqlite.samples(of: type, startingIn: nil, bundle: nil).map(\.position)
    #expect(all.count > 100)
    let anchored = try sqlite.changes(of: type, after: all[40], limit: 7).map(\.position)
    #expect(anchored == Array(all[41...47]))
    #expect(try !Self.hasUUIDIndex(sqlite))
    try Self.commitAndExpectSound(sqlite, path: path, samples: Own.many)
    let reopened = try HealthSQLiteStorage(path: path)
    defer { try? reopened.close() }
    #expect(try reopened.changes(of: type, after: all[40], limit: 7).map(\.position) == anchored)
    #expect(try reopened.samples(of: type, startingIn: nil, bundle: nil).map(\.position) == all)
  }

  /// A duplicate UUID is a "maybe": the index is made at once, the save refused, and the
  /// command carries on with the index kept up.
  @Test func aDuplicateUUIDMakesTheIndexEarly() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (path, sqlite) = try Self.newCommand(in: directory)
    let saved = try Own().saveMany(in: sqlite)
    #expect(try !Self.hasUUIDIndex(sqlite))
    var position = try sqlite.lastPosition() + 1
    let said = Samples.outcome {
      try sqlite.apply([.sampleSaved(Samples.sample(1, uuid: saved[4500]), position: position)])
    }
    #expect(said?.contains("a live sample already has uuid \(saved[4500].uuidString)") == true)
    #expect(try Self.hasUUIDIndex(sqlite))
    try sqlite.apply([
      .sampleSaved(Samples.sample(1, uuid: Samples.uuid(4_000_000)), position: position)
    ])
    position += 1
    try sqlite.apply([.sampleDeleted(uuid: saved[2], position: position, date: Samples.epoch)])
    #expect(try sqlite.samples(uuidPrefix: saved[9].compactHex, limit: 0).map(\.position) == [10])
    try Self.commitAndExpectSound(sqlite, path: path, samples: Own.many)
  }

  /// A command rolled back after the drop leaves the database as before, index and all.
  @Test func aRollbackBringsTheIndexBack() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (path, sqlite) = try Self.newCommand(in: directory)
    _ = try Own().saveMany(in: sqlite)
    #expect(try !Self.hasUUIDIndex(sqlite))
    sqlite.rollbackCommand()
    #expect(try Self.schema(sqlite) == Self.expectedSchema(sqlite))
    #expect(try sqlite.counts(of: nil).samples == 0)
    // The next command does it again, and commits.
    try sqlite.beginCommand()
    _ = try Own().saveMany(in: sqlite)
    #expect(try !Self.hasUUIDIndex(sqlite))
    try Self.commitAndExpectSound(sqlite, path: path)
  }

  /// The index made inside a step that is rolled back is missing again after it, and made
  /// at the commit; a step that dropped it and failed brings it back.
  @Test func stepsRolledBackLeaveTheIndexAsItWas() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (path, sqlite) = try Self.newCommand(in: directory)
    var inStep: [Bool] = []
    let firstFailed = Samples.outcome {
      try sqlite.step {
        _ = try Own().saveMany(in: sqlite)
        inStep.append(try Self.hasUUIDIndex(sqlite))
        throw HealthStorageError("the step fails")
      }
    }
    #expect(firstFailed != nil)
    #expect(inStep == [false])
    #expect(try Self.hasUUIDIndex(sqlite))
    let saved = try Own().saveMany(in: sqlite)
    #expect(try !Self.hasUUIDIndex(sqlite))
    let secondFailed = Samples.outcome {
      try sqlite.step {
        inStep.append(try sqlite.sample(uuid: saved[0]) != nil)
        inStep.append(try Self.hasUUIDIndex(sqlite))
        throw HealthStorageError("the step fails")
      }
    }
    #expect(secondFailed != nil)
    #expect(inStep == [false, true, true])
    #expect(try !Self.hasUUIDIndex(sqlite))
    try Self.commitAndExpectSound(sqlite, path: path, samples: Own.many)
  }

  /// A command on a table with rows never drops the index; nor does a command of fewer rows
  /// than the exact set.
  @Test func aTableWithRowsOrAFewRowsKeepTheIndex() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (path, sqlite) = try Self.newCommand(in: directory)
    defer { try? sqlite.close() }
    try sqlite.apply(
      (1...100).map {
        .sampleSaved(Samples.sample($0, uuid: Samples.uuid(5_000_000 + $0)), position: Int64($0))
      })
    #expect(try Self.hasUUIDIndex(sqlite))
    try sqlite.commitCommand(pending: nil, appSequence: 0)
    try sqlite.beginCommand()
    _ = try Own().saveMany(in: sqlite)
    #expect(try Self.hasUUIDIndex(sqlite))
    try sqlite.commitCommand(pending: nil, appSequence: 0)
    #expect(try Self.schema(sqlite) == Self.expectedSchema(sqlite))
  }

  /// A process killed at a random moment of commands of 5,000 samples each (the first on an
  /// empty table: the index dropped, made again, committed) leaves whole commands, the
  /// index in place and `check` clean.
  @Test func aKillDuringTheCommandLeavesTheIndex() throws {
    let built = builtProduct(named: "weigh-bench")
    try #require(FileManager.default.isExecutableFile(atPath: built), "build weigh-bench first")
    let batch = 5000
    var generator = SeededGenerator(seed: 15)
    for round in 0..<6 {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      let path = directory.file(HealthSQLiteStorage.fileName)
      // checked: a small delay in microseconds
      let delay = UInt32(generator.next() % 400_000)
      let acknowledged = try HealthSQLiteCrashTests.appendAndKill(
        path, commits: round % 2, delay: delay, batch: batch, asCommands: true)
      let context = "round \(round), \(delay) µs after \(round % 2) acknowledgements"
      let storage = try HealthSQLiteStorage(path: path)
      let last = try storage.lastPosition()
      #expect(last % Int64(batch) == 0, "\(context): a part of a command is kept")
      #expect(last >= acknowledged, "\(context): an acknowledged command was lost")
      #expect(try Self.schema(storage) == Self.expectedSchema(storage), "\(context): the schema")
      #expect(try Self.schema(storage)["record_type_pos"] == nil, "\(context): format 2's index")
      #expect(try storage.counts(of: nil).samples == Int(last), "\(context): counts")
      try storage.close()
      #expect(HealthSQLiteStorage.check(path: path).isEmpty, "\(context): check")
    }
  }
}
