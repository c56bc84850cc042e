import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// The savepoint statements a command's transaction owes (`openSavepoint()` and
/// `releaseSavepoint()` run theirs with the next write) and the new database built aside
/// (`HealthSQLiteStorage.create(at:directory:)`): what is kept and what is undone is what it
/// was when each statement ran at once.
@Suite struct HealthSQLiteOwedSavepointTests {
  static func saved(_ number: Int, at position: Int64) -> HealthChange {
    .sampleSaved(
      HealthSQLiteStorageTests.sample(number, uuid: HealthSQLiteStorageTests.uuid(number)),
      position: position)
  }

  static func positions(_ storage: some HealthSampleStorage) throws -> [Int64] {
    try storage.records(after: 0, limit: 0).map(\.position)
  }

  /// Savepoints opened and ended with and without writes between, in every order a session
  /// uses: only the writes of a rolled-back savepoint are gone, in the transaction and after
  /// its commit.
  @Test func savepointsWithAndWithoutWritesKeepWhatTheyKept() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    var sqlite = try HealthSQLiteStorage(path: path)
    try sqlite.beginCommand()
    // Opened and released with nothing written.
    try sqlite.openSavepoint()
    try sqlite.releaseSavepoint()
    // A write kept.
    try sqlite.openSavepoint()
    try sqlite.apply([Self.saved(1, at: 1)])
    try sqlite.releaseSavepoint()
    // Opened and rolled back with nothing written: the write before stays.
    try sqlite.openSavepoint()
    sqlite.rollBackSavepoint()
    #expect(try Self.positions(sqlite) == [1])
    // A write rolled back, right after a release that the write ran.
    try sqlite.openSavepoint()
    try sqlite.apply([Self.saved(2, at: 2)])
    #expect(try Self.positions(sqlite) == [1, 2])
    sqlite.rollBackSavepoint()
    #expect(try Self.positions(sqlite) == [1])
    #expect(try sqlite.lastPosition() == 1)
    // Two writes in one savepoint, kept; then one rolled back.
    try sqlite.openSavepoint()
    try sqlite.apply([Self.saved(3, at: 2)])
    try sqlite.apply([Self.saved(4, at: 3)])
    try sqlite.releaseSavepoint()
    try sqlite.openSavepoint()
    try sqlite.apply([Self.saved(5, at: 4)])
    sqlite.rollBackSavepoint()
    // A savepoint left open at the commit: its write is committed with the rest.
    try sqlite.openSavepoint()
    try sqlite.apply([Self.saved(6, at: 4)])
    try sqlite.commitCommand(pending: nil, appSequence: 0)
    #expect(try Self.positions(sqlite) == [1, 2, 3, 4])
    try sqlite.close()
    sqlite = try HealthSQLiteStorage(path: path, creating: false)
    defer { try? sqlite.close() }
    #expect(try Self.positions(sqlite) == [1, 2, 3, 4])
    #expect(try sqlite.counts(of: nil).samples == 4)
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
  }

  /// A command rolled back with a release owed keeps nothing; the next command's savepoints
  /// start clean.
  @Test func aRolledBackCommandOwesNothingToTheNext() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    let sqlite = try HealthSQLiteStorage(path: path)
    defer { try? sqlite.close() }
    try sqlite.beginCommand()
    try sqlite.openSavepoint()
    try sqlite.apply([Self.saved(1, at: 1)])
    try sqlite.releaseSavepoint()
    try sqlite.openSavepoint()
    sqlite.rollbackCommand()
    #expect(try Self.positions(sqlite) == [])
    try sqlite.beginCommand()
    try sqlite.openSavepoint()
    try sqlite.apply([Self.saved(2, at: 1)])
    sqlite.rollBackSavepoint()
    try sqlite.openSavepoint()
    try sqlite.apply([Self.saved(3, at: 1)])
    try sqlite.releaseSavepoint()
    try sqlite.commitCommand(pending: nil, appSequence: 0)
    #expect(try Self.positions(sqlite) == [1])
    #expect(
      try sqlite.record(at: 1)
        == .sample(
          HealthSQLiteStorageTests.sample(3, uuid: HealthSQLiteStorageTests.uuid(3)), position: 1))
  }

  /// The database built aside is in place, in WAL mode, empty and clean; what an interrupted
  /// creation left (its temporary file) and a stale log are not applied to it.
  @Test func aNewDatabaseIsBuiltAsideAndMovedIntoPlace() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    // A log with a commit of an earlier database of that name (as a killed process leaves
    // it), and an interrupted creation's file.
    let earlier = try HealthSQLiteStorage(path: path)
    try earlier.apply([Self.saved(1, at: 1)])
    let log = directory.bytes(HealthSQLiteStorage.fileName + "-wal")
    try earlier.close()
    try FileManager.default.removeItem(atPath: path)
    if let log { directory.write(HealthSQLiteStorage.fileName + "-wal", log) }
    #expect(log?.isEmpty == false)
    directory.write(HealthSQLiteStorage.fileName + ".tmp", Array("not a database".utf8))

    let sqlite = try HealthSQLiteStorage.create(at: path, directory: directory.path)
    #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    #expect(try Self.positions(sqlite) == [])
    #expect(try sqlite.lastPosition() == 0)
    try sqlite.beginCommand()
    try sqlite.openSavepoint()
    try sqlite.apply([Self.saved(2, at: 1)])
    try sqlite.releaseSavepoint()
    try sqlite.commitCommand(pending: nil, appSequence: 0)
    try sqlite.close()
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
    let reopened = try HealthSQLiteStorage(path: path, creating: false)
    defer { try? reopened.close() }
    #expect(try Self.positions(reopened) == [1])
    // The file's header says WAL (bytes 18 and 19 are 2).
    let header = directory.bytes(HealthSQLiteStorage.fileName) ?? []
    #expect(header.count > 19 && header[18] == 2 && header[19] == 2)
  }
}
