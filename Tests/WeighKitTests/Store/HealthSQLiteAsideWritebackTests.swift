import Foundation
import GRDB
import Testing

@testable import WeighKit

/// A database built aside starts the disk's writing of its file before the UUID index's
/// sort at its first commit (`HealthSQLiteAsideWriteback`), through a descriptor of its
/// own: the command commits whole, and that descriptor is closed with the connection,
/// whether the command commits or not.
@Suite struct HealthSQLiteAsideWritebackTests {
  typealias UUIDIndex = HealthSQLiteUUIDIndexTests
  typealias Own = HealthSQLiteCommandUUIDsTests

  /// How many of the process's descriptors name a file in `directory` (Linux's
  /// `/proc/self/fd`; nil elsewhere).
  static func descriptors(in directory: TemporaryStoreDirectory) -> Int? {
    let folder = "/proc/self/fd"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return nil
    }
    let name = URL(fileURLWithPath: directory.path).lastPathComponent
    return names.filter {
      let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)
      return target?.contains("/" + name + "/") == true
    }.count
  }

  @Test func aCommandPastTheExactSetCommitsWholeAndClosesTheDescriptor() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    let sqlite = try HealthSQLiteStorage.createAside(at: path, directory: directory.path)
    #expect(sqlite.asideWriteback != nil)
    let open = Self.descriptors(in: directory)
    try sqlite.beginCommand()
    let saved = try Own().saveMany(in: sqlite)
    #expect(try !UUIDIndex.hasUUIDIndex(sqlite))
    // The commit puts the file in place and closes the storage.
    try sqlite.commitCommand(pending: nil, appSequence: 0)
    #expect(sqlite.isClosed)
    #expect(sqlite.asideWriteback == nil)
    if let open {
      // SQLite's descriptor and the writeback's, then none.
      #expect(open == 2)
      #expect(Self.descriptors(in: directory) == 0)
    }
    #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
    let reopened = try HealthSQLiteStorage(path: path)
    defer { try? reopened.close() }
    #expect(try UUIDIndex.schema(reopened) == UUIDIndex.expectedSchema(reopened))
    #expect(try reopened.counts(of: nil).samples == Own.many)
    #expect(try reopened.sample(uuid: saved[17])?.sample.uuid == saved[17])
    #expect(try reopened.sample(uuid: saved[Own.many - 1])?.sample.uuid == saved[Own.many - 1])
  }

  @Test func aCommandRolledBackLeavesNoFileAndNoDescriptor() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    let sqlite = try HealthSQLiteStorage.createAside(at: path, directory: directory.path)
    try sqlite.beginCommand()
    _ = try Own().saveMany(in: sqlite)
    sqlite.rollbackCommand()
    try sqlite.close()
    #expect(sqlite.asideWriteback == nil)
    if let left = Self.descriptors(in: directory) { #expect(left == 0) }
    #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
