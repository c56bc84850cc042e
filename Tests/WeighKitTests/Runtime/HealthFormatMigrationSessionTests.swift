import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// A store whose `health.sqlite` an earlier weigh wrote in format 1, opened by a session:
/// the first command that needs Health migrates it to format 2 once (saying so), keeps the
/// old file as `health.sqlite.v1`, and answers as before; a store under a folder reached
/// through a symbolic link gets its Health database like any other.
@Suite struct HealthFormatMigrationSessionTests {
  static let setup = """
    health add 70.4kg source Withings
    health add 71.3kg source Scale
    health add 5000 steps
    """

  /// Makes a store of `setup` in `directory`, then rewrites its `health.sqlite` as format 1
  /// wrote the same contents.
  static func formatOneStore(_ directory: TemporaryStoreDirectory) throws {
    CommandTransactionTests.run(setup, in: directory.path)
    let path = directory.file(HealthSQLiteStorage.fileName)
    let older = path + ".format1"
    try HealthSQLiteFormat1Fixture.write(from: path, to: older)
    for leftover in [path, path + "-wal", path + "-shm"] {
      try? FileManager.default.removeItem(atPath: leftover)
    }
    try FileManager.default.moveItem(atPath: older, toPath: path)
    #expect(try FormatOneFixture.version(path) == 1)
  }

  @Test func theFirstHealthCommandMigratesOnceAndAnswersAsBefore() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    CommandTransactionTests.run(Self.setup, in: directory.path)
    let expected = CommandTransactionTests.run("health list", in: directory.path)
    #expect(expected.contains("70.4"))
    directory.remove()
    try FileManager.default.createDirectory(
      atPath: directory.path, withIntermediateDirectories: true)

    try Self.formatOneStore(directory)
    let old = directory.bytes(HealthSQLiteStorage.fileName)
    let first = CommandTransactionTests.run("health list", in: directory.path)
    #expect(first.contains("health.sqlite moved to format 3"), "\(first)")
    #expect(first.hasSuffix(expected), "\(first)")
    let path = directory.file(HealthSQLiteStorage.fileName)
    #expect(try FormatOneFixture.version(path) == 3)
    #expect(directory.bytes(HealthSQLiteStorage.fileName + ".v1") == old)
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)

    // Once: the next command says nothing of it, and writes format 2.
    let second = CommandTransactionTests.run(
      "health add 72kg source Withings\nhealth list", in: directory.path)
    #expect(!second.contains("format 2"), "\(second)")
    #expect(second.contains("72"))
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
  }

  @Test func aStoreReachedThroughASymbolicLinkGetsItsHealthDatabase() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let real = directory.file("real")
    let link = directory.file("link")
    try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
    let printed = CommandTransactionTests.run(
      Self.setup + "\nhealth list", in: link + "/store")
    #expect(!printed.contains("error"), "\(printed)")
    #expect(printed.contains("71.3"), "\(printed)")
    #expect(FileManager.default.fileExists(atPath: real + "/store/health.sqlite"))
  }
}
