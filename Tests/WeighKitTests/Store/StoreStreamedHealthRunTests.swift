import HealthSim
import Testing

@testable import WeighKit

/// A run of Health records streamed after and among the `health` table's rows (what
/// `weigh-bench health-json-store` does to make an old-layout store at scale) is merged into
/// the table's file by its records' positions, whose key is `pos`, not `id`: the files are
/// those of the run held whole. Before round 25 the merge read a row's id from `{"id":`
/// alone, so every Health row abandoned the table file and the run failed.
@Suite struct StoreStreamedHealthRunTests {
  static let tables: [any StoreTableCodec.Type] = [HealthRecordCodec.self]

  /// A store in `directory` with `old` in the `health` table's file, closed.
  static func make(_ old: [HealthRecord], in directory: TemporaryStoreDirectory) throws {
    let store = try Store.open(.directory(directory.path), tables: tables)
    try store.commit(old.map { StoreChange.put(StoreRow(HealthRecordCodec.self, $0)) })
    try store.compact()
    store.close()
  }

  @Test(arguments: [false, true])
  func aRunOfHealthRecordsIsMergedByPosition(among: Bool) throws {
    let streamedDirectory = TemporaryStoreDirectory()
    let heldDirectory = TemporaryStoreDirectory()
    defer { [streamedDirectory, heldDirectory].forEach { $0.remove() } }
    var random = SeededGenerator(seed: among ? 25 : 52)
    // The table: every third position to 3,000 (among) or 1 to 1,000 (after); the run: the
    // other positions to 3,000, or 1,001 to 3,000.
    let oldIDs = among ? Set(stride(from: 3, through: 3_000, by: 3)) : Set(1...1_000)
    let old = (1...3_000).filter { oldIDs.contains($0) }.map {
      TableStorageMergeTests.record($0, &random)
    }
    let run = (1...3_000).filter { !oldIDs.contains($0) }.map {
      TableStorageMergeTests.record($0, &random)
    }
    try Self.make(old, in: streamedDirectory)
    try Self.make(old, in: heldDirectory)

    let store = try Store.open(.directory(streamedDirectory.path), tables: Self.tables)
    store.journalPieceBytes = 2 << 10
    store.beginBatch()
    #expect(store.beginStreamedRun(into: HealthRecordCodec.tableName, afterItsRows: true))
    for start in stride(from: 0, to: run.count, by: 333) {
      try store.streamRun(
        Array(run[start..<min(start + 333, run.count)]), of: HealthRecordCodec.self)
    }
    let change = try #require(store.finishStreamedRun())
    try store.commit([change])
    try store.endBatch()
    #expect(store.streamedTableFilesWritten == 1)
    store.close()

    let held = try Store.open(.directory(heldDirectory.path), tables: Self.tables)
    held.beginBatch()
    try held.commit(run.map { StoreChange.put(StoreRow(HealthRecordCodec.self, $0)) })
    try held.endBatch()
    held.close()
    for name in ["health.json", "journal.jsonl", "journal.ack"] {
      #expect(streamedDirectory.bytes(name) == heldDirectory.bytes(name), "\(name)")
    }
    #expect(Store.check(.directory(streamedDirectory.path), tables: Self.tables).isEmpty)
  }
}
