import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// `health.sqlite` keeps one savepoint over many of a command's commits (`HealthRedo`):
/// undoing the writes after the last commit rolls back to it and writes the kept ones
/// again. What is left must be what a memory store, which undoes from a copy, leaves.
@Suite struct HealthRedoTests {
  static let scale = SourceRevision(
    source: HealthSource(name: "Scale", bundleIdentifier: "com.example.scale"), version: "1")

  /// One command: `kept` saves each committed (or, `together`, saved in one call and
  /// committed once), two saves undone, one more save committed; then the command's
  /// transaction is written. Returns Health's records afterwards.
  static func records(kept: Int, together: Bool = false, in directory: String?) throws
    -> [HealthRecord]
  {
    var options = SessionOptions.golden
    if let directory { options.store = .directory(directory) }
    let session = try Session(options: options, output: CapturedOutput())
    defer { session.close() }
    func sample(_ index: Int) -> HealthSample {
      HealthSample(
        type: .bodyMass, value: 70 + Double(index) / 10,
        start: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60))
    }
    try session.beginCommandTransaction()
    if together {
      try session.health().save((0..<kept).map(sample), as: scale)
      try session.commit([], undo: nil)
    } else {
      for index in 0..<kept {
        try session.health().save([sample(index)], as: scale)
        try session.commit([], undo: nil)
      }
    }
    try session.health().save([sample(kept)], as: scale)
    try session.health().save([sample(kept + 1)], as: scale)
    session.dropHealth()
    // Health read again in the same command writes on after what was kept.
    try session.health().save([sample(kept + 2)], as: scale)
    try session.commit([], undo: nil)
    try session.endCommandTransaction()
    if let directory {
      let storage = try HealthSQLiteStorage(
        path: directory + "/" + HealthSQLiteStorage.fileName, creating: false)
      defer { try? storage.close() }
      return try storage.records(after: 0, limit: 0)
    }
    return try #require(session.persistence.memoryStorage).records(after: 0, limit: 0)
  }

  @Test(
    "a failed step's writes are undone and the kept ones stay, as in memory",
    arguments: [0, 1, 5, HealthRedo.limit - 1, HealthRedo.limit, HealthRedo.limit + 3])
  func undoKeepsWhatWasCommitted(kept: Int) throws {
    try check(kept: kept, together: false)
  }

  // A commit of more changes than a savepoint is kept over keeps none of them to write
  // again (an import's million samples are not held in memory): the undo still leaves
  // what a memory store leaves.
  @Test(
    "a commit of many saves at once, then a failed step",
    arguments: [HealthRedo.limit, HealthRedo.limit + 1, 3 * HealthRedo.limit])
  func undoAfterALargeCommit(kept: Int) throws {
    try check(kept: kept, together: true)
  }

  func check(kept: Int, together: Bool) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let onDisk = try Self.records(kept: kept, together: together, in: directory.path)
    let inMemory = try Self.records(kept: kept, together: together, in: nil)
    #expect(onDisk.count == kept + 1)
    #expect(onDisk == inMemory)
    let values = onDisk.compactMap { record -> Double? in
      if case .sample(let sample, _) = record { return sample.value } else { return nil }
    }
    // The two undone saves are gone; the save after the undo is there.
    #expect(values.last == 70 + Double(kept + 2) / 10)
    #expect(!values.contains(70 + Double(kept) / 10))
    #expect(Store.check(.directory(directory.path), tables: CommandTransactionTests.tables).isEmpty)
  }

  @Test func writesPastTheLimitAreNotKept() throws {
    let storage = CommandHealthStorage(
      base: InMemorySampleStorage(), committedState: nil, openWrites: { InMemorySampleStorage() })
    storage.keepsWrites = true
    storage.keptChangesLimit = 3
    var position: Int64 = 0
    func records() -> [HealthRecord] {
      (1...2).map { _ in
        let sample = HealthSample(
          type: .bodyMass, value: 70, start: Date(timeIntervalSince1970: 0), uuid: UUID())
        position += 1
        return .sample(sample, position: position)
      }
    }
    try storage.append(records())
    let first = storage.accept()
    #expect(first.wrote && first.writes?.count == 1)
    try storage.append(records())
    try storage.append(records())
    let second = storage.accept()
    #expect(second.wrote && second.writes == nil)
    // Counted afresh after each commit.
    try storage.append(records())
    #expect(storage.accept().writes?.count == 1)
  }

  @Test func keptWritesCountTheirChanges() {
    var redo = HealthRedo()
    redo.keep([.apply([]), .append([])])
    #expect(redo.changes == 0)
    let sample = HealthSample(type: .bodyMass, value: 70, start: Date(timeIntervalSince1970: 0))
    redo.keep([
      .apply([.sampleSaved(sample, position: 1), .deletedObjectsTrimmed(keeping: 0)]),
      .append([.sample(sample, position: 2)]),
    ])
    #expect(redo.changes == 3)
    #expect(redo.writes.count == 4)
  }
}
