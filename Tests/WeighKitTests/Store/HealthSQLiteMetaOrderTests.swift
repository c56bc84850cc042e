import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// The meta rows a write adds (a count per type, the longest duration per type) are
/// inserted in their keys' order, so that the same changes write the same file: their
/// order came from a dictionary, which a process hashes with its own seed.
@Suite struct HealthSQLiteMetaOrderTests {
  @Test(arguments: [false, true])
  func countRowsAreInsertedInTheirKeysOrder(inCommand: Bool) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let path = directory.file(HealthSQLiteStorage.fileName)
    var storage = try HealthSQLiteStorage(path: path)
    // Four types (steps, heart rate, body mass, energy), each new in this one write, each
    // with a duration: four count rows and four longest rows added at once.
    let changes = (1...4).map { code in
      HealthChange.sampleSaved(
        HealthSQLiteStorageTests.sample(code, uuid: HealthSQLiteStorageTests.uuid(code)),
        position: Int64(code))
    }
    if inCommand {
      try storage.beginCommand()
      try storage.apply(changes)
      try storage.commitCommand(pending: nil, appSequence: 0)
    } else {
      try storage.apply(changes)
    }
    try storage.close()
    let keys = try DatabaseQueue(path: path).read { db in
      try String.fetchAll(db, sql: "SELECT key FROM meta ORDER BY rowid")
    }
    for prefix in ["samples ", "longest "] {
      let added = keys.filter { $0.hasPrefix(prefix) }
      #expect(added.count == 4, "\(prefix): \(keys)")
      #expect(added == added.sorted(), "\(prefix): \(keys)")
    }
  }
}
