import Testing

@testable import WeighKit

/// A run of rows streamed a block at a time after a table's rows
/// (`Store.beginStreamedRun(into:afterItsRows:)`: an import into a log with entries that
/// holds neither its weights nor its entries) writes the files the same run held whole writes,
/// whether the rows were in the table's file, read or not, or in the journal alone; leaves the
/// table's rows to its file; and a kill at any write leaves the store before or after it.
@Suite struct StoreStreamedRunAfterRowsTests {
  /// Where the table's rows are before the run.
  enum Before: CaseIterable {
    /// In its file, not read.
    case file
    /// In its file, read.
    case fileRead
    /// In the journal alone (a few `log` commands: no file yet).
    case journal
  }

  /// A new store in `directory` holding `rows` as `before` says, closed.
  static func make(_ rows: [Entry], _ before: Before, in directory: TemporaryStoreDirectory)
    throws
  {
    let store = try Store.open(.directory(directory.path))
    try store.commit(rows.map(StoreChange.putEntry))
    if before != .journal { try store.compact() }
    store.close()
    #expect((directory.bytes("entries.json") != nil) == (before != .journal))
  }

  /// Streams `entries` in blocks of `block` after the table's rows as one command's first
  /// commit, then `documents`, into the store in `directory`; returns the store, still open.
  static func streamed(
    _ entries: [Entry], after before: Before, block: Int = 5000, documents: [StoreChange] = [],
    in directory: TemporaryStoreDirectory, pieceBytes: Int = 1 << 20
  ) throws -> Store {
    let store = try Store.open(.directory(directory.path))
    store.journalPieceBytes = pieceBytes
    if before == .fileRead { _ = try store.entries() }
    return try StoreStreamedRunTests.stream(
      entries, block: block, documents: documents, into: store, afterItsRows: true)
  }

  @Test(arguments: Before.allCases)
  func theFilesAreThoseOfTheRunHeldWhole(before: Before) throws {
    let streamedDirectory = TemporaryStoreDirectory()
    let heldDirectory = TemporaryStoreDirectory()
    defer { [streamedDirectory, heldDirectory].forEach { $0.remove() } }
    // Ids with a gap after the old rows, as after deletions.
    let old =
      before == .journal ? [sampleEntry(3), sampleEntry(8)] : (1...3_000).map { sampleEntry($0) }
    let entries = StoreLargeImportTests.imported(3_010...23_009)
    try Self.make(old, before, in: streamedDirectory)
    try Self.make(old, before, in: heldDirectory)
    let app: [StoreChange] = [.setDocument(name: "app", value: ["anchor": 0])]
    let store = try Self.streamed(entries, after: before, documents: app, in: streamedDirectory)
    #expect(store.streamedRunsCommitted == 1)
    #expect(store.streamedTableFilesWritten == 1)
    #expect(!store.needsReopening)
    #expect(store.nextID() == 23_010)
    // Not held: read from the file when asked.
    #expect(try store.entries() == old + entries)
    store.close()
    try Self.expectSameAsHeld(
      entries, app, before: before, streamed: streamedDirectory, held: heldDirectory)
  }

  /// A run whose ids fall among the table's (new rows numbered below its last: an export
  /// merged into a log that went on) is merged into the table's file by id, a table row
  /// before each run's row with a greater id (merge24): the files are those of the run held
  /// whole, whose compaction writes every row again. The run's first row comes before the
  /// table's first in the journal case (the comma its line then needs), and the rows merge
  /// across the file's pieces of a few KiB.
  @Test(arguments: Before.allCases)
  func aRunAmongTheRowsIsMergedByID(before: Before) throws {
    let streamedDirectory = TemporaryStoreDirectory()
    let heldDirectory = TemporaryStoreDirectory()
    defer { [streamedDirectory, heldDirectory].forEach { $0.remove() } }
    // The table: odd ids to 5,999 and a few after gaps; the run: the others to 23,000.
    let oldIDs: Set<Int> =
      before == .journal
      ? [3, 8, 9, 4_000]
      : Set(stride(from: 1, through: 5_999, by: 2)).union([7_000, 7_002, 12_345])
    let old = StoreLargeImportTests.imported((1...23_000).filter { oldIDs.contains($0) }).map {
      var entry = $0
      entry.kilograms += 1
      return entry
    }
    let entries = StoreLargeImportTests.imported((1...23_000).filter { !oldIDs.contains($0) })
    try Self.make(old, before, in: streamedDirectory)
    try Self.make(old, before, in: heldDirectory)
    let app: [StoreChange] = [.setDocument(name: "app", value: ["anchor": 0])]
    let store = try Self.streamed(
      entries, after: before, block: 4_321, documents: app, in: streamedDirectory,
      pieceBytes: 3 << 10)
    #expect(store.streamedRunsCommitted == 1)
    #expect(store.streamedTableFilesWritten == 1)
    #expect(store.nextID() == 23_001)
    #expect(try store.entries() == (old + entries).sorted { $0.id < $1.id })
    store.close()
    try Self.expectSameAsHeld(
      entries, app, before: before, streamed: streamedDirectory, held: heldDirectory)
  }

  /// The files of `streamed` are those of `held` after the same rows and documents are
  /// committed there held whole (whose compaction writes every row again), and the streamed
  /// store leaves no temporary file and checks clean.
  static func expectSameAsHeld(
    _ entries: [Entry], _ app: [StoreChange], before: Before,
    streamed streamedDirectory: TemporaryStoreDirectory, held heldDirectory: TemporaryStoreDirectory
  ) throws {
    let held = try Store.open(.directory(heldDirectory.path))
    if before == .fileRead { _ = try held.entries() }
    held.beginBatch()
    try held.commit(StoreChange.putEntries(entries) + app)
    try held.endBatch()
    held.close()
    for name in ["entries.json", "journal.jsonl", "journal.ack"] {
      #expect(streamedDirectory.bytes(name) == heldDirectory.bytes(name), "\(name)")
    }
    #expect(streamedDirectory.bytes("entries.json.tmp") == nil)
    #expect(Store.check(.directory(streamedDirectory.path)).isEmpty)
  }

  /// Ids a table row has are refused, and the run abandoned: the store is as it was.
  @Test func idsNotAfterTheRowsAreRefused() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    try Self.make((1...3_000).map { sampleEntry($0) }, .file, in: directory)
    let before = directory.snapshot()
    let store = try Store.open(.directory(directory.path))
    store.beginBatch()
    #expect(store.beginStreamedRun(into: EntryCodec.tableName, afterItsRows: true))
    #expect(directory.bytes("entries.json.tmp") != nil)
    #expect(throws: StoreError.self) {
      try store.streamRun(StoreLargeImportTests.imported(3_000...3_100), of: EntryCodec.self)
    }
    if store.finishStreamedRun() != nil { Issue.record("a run abandoned was finished") }
    try store.endBatch()
    store.close()
    #expect(
      directory.snapshot().filter { $0.key != "weigh.lock" }
        == before.filter { $0.key != "weigh.lock" })
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == (1...3_000).map { sampleEntry($0) })
    reopened.close()
  }

  /// A table with changes in the journal past its file does not stream after its rows (the
  /// held import appends to it as before); nor does a store with the knob off, nor a table
  /// without rows (a new store streams the other way).
  @Test func onlyATableWhollyInItsFileOrHeldWithoutOneStreams() throws {
    let directory = TemporaryStoreDirectory()
    let empty = TemporaryStoreDirectory()
    defer { [directory, empty].forEach { $0.remove() } }
    try Self.make((1...3_000).map { sampleEntry($0) }, .file, in: directory)
    let store = try Store.open(.directory(directory.path))
    defer { store.close() }
    store.beginBatch()
    #expect(store.canStreamRun(into: EntryCodec.tableName, afterItsRows: true))
    store.streamsRunsAfterRows = false
    #expect(!store.canStreamRun(into: EntryCodec.tableName, afterItsRows: true))
    store.streamsRunsAfterRows = true
    try store.endBatch()
    try store.commit([.putEntry(sampleEntry(3_001))])
    store.beginBatch()
    #expect(!store.canStreamRun(into: EntryCodec.tableName, afterItsRows: true))
    #expect(!store.beginStreamedRun(into: EntryCodec.tableName, afterItsRows: true))
    try store.endBatch()
    let new = try Store.open(.directory(empty.path))
    defer { new.close() }
    new.beginBatch()
    #expect(new.canStreamRun(into: EntryCodec.tableName))
    try new.endBatch()
  }

  /// While the streamed rows are in the journal and the temporary file only (between the
  /// run's commit and its compaction), the table refuses to be read, rather than give its
  /// old rows without them.
  @Test func theTableIsNotReadWithoutTheStreamedRows() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    try Self.make((1...3_000).map { sampleEntry($0) }, .file, in: directory)
    let store = try Store.open(.directory(directory.path))
    store.beginBatch()
    #expect(store.beginStreamedRun(into: EntryCodec.tableName, afterItsRows: true))
    try store.streamRun(StoreLargeImportTests.imported(3_001...23_000), of: EntryCodec.self)
    try store.commit([try #require(store.finishStreamedRun())])
    #expect(throws: StoreError.self) { _ = try store.entries() }
    try store.endBatch()
    #expect(try store.entries().count == 23_000)
    store.close()
  }

  /// A kill at every writing call of a run of 20,000 entries streamed among 3,000 rows in the
  /// table's file (the record, the copy of the old rows and the new ones in 64 KiB pieces):
  /// the reopened store holds the old rows and none or all of the new, checks without errors,
  /// and takes new commits.
  @Test(arguments: [Before.file, Before.journal])
  func aCrashAtAnyWriteLeavesTheStoreBeforeOrAfterTheRun(before: Before) throws {
    // In the file's case, the run's first 3,000 rows among the table's (merged by id,
    // merge24): the table holds the odd ids to 5,999, the run the even ones, then the rest.
    let old =
      before == .journal
      ? (1...3).map { sampleEntry($0) }
      : stride(from: 1, through: 5_999, by: 2).map { sampleEntry($0) }
    let entries =
      before == .journal
      ? StoreLargeImportTests.imported(3_001...23_000)
      : StoreLargeImportTests.imported(
        Array(stride(from: 2, through: 6_000, by: 2)) + Array(6_001...23_000))
    let all = (old + entries).sorted { $0.id < $1.id }
    func run(in directory: TemporaryStoreDirectory) {
      // The old rows are written before the kills are counted.
      WriteFaultInjector.$current.withValue(nil) { try? Self.make(old, before, in: directory) }
      _ = try? Self.streamed(entries, after: before, in: directory, pieceBytes: 64 << 10).close()
    }
    let counter = WriteFaultInjector()
    let full = TemporaryStoreDirectory()
    defer { full.remove() }
    WriteFaultInjector.$current.withValue(counter) { run(in: full) }
    let whole = try Store.open(.directory(full.path))
    #expect(try whole.entries() == all)
    whole.close()
    #expect(counter.count > 40)
    var sawBefore = false
    var sawAfter = false
    try forEachKill(ofCalls: counter.count, { run(in: $0) }) { directory, crashAt in
      let store = try Store.open(.directory(directory.path))
      let found = try store.entries()
      #expect(found == old || found == all, "crash at call \(crashAt): \(found.count)")
      if found == old { sawBefore = true } else { sawAfter = true }
      try expectTakesANewEntry(
        store, holding: found, in: directory, crashAt: crashAt, compacting: true)
    }
    #expect(sawBefore && sawAfter)
  }
}
