import Testing

@testable import WeighKit

/// A run of rows streamed a block at a time (`Store.beginStreamedRun`, `streamRun`,
/// `finishStreamedRun`: an import into a new store that holds neither its weights nor its
/// entries) writes the files the same run held whole writes, leaves the table's rows to its
/// file, and a kill at any write leaves the store before or after the import.
@Suite struct StoreStreamedRunTests {
  /// Streams `entries` in blocks of `block` as one command's first commit, then
  /// `documents`, into the store in `directory`; returns the store, still open.
  static func streamed(
    _ entries: [Entry], block: Int = 5000, documents: [StoreChange] = [],
    in directory: TemporaryStoreDirectory, pieceBytes: Int = 1 << 20
  ) throws -> Store {
    let store = try Store.open(.directory(directory.path))
    store.journalPieceBytes = pieceBytes
    return try stream(entries, block: block, documents: documents, into: store)
  }

  /// Streams `entries` in blocks of `block` into `store` as one command's first commit
  /// (after the table's rows with `afterItsRows`), then `documents`; returns `store`.
  static func stream(
    _ entries: [Entry], block: Int, documents: [StoreChange], into store: Store,
    afterItsRows: Bool = false
  ) throws -> Store {
    store.beginBatch()
    // Under a write fault the temporary file may not be made: nothing streams then.
    guard store.beginStreamedRun(into: EntryCodec.tableName, afterItsRows: afterItsRows) else {
      store.close()
      throw StoreError(.io, message: "the run could not start")
    }
    for start in stride(from: 0, to: entries.count, by: block) {
      try store.streamRun(
        Array(entries[start..<min(start + block, entries.count)]), of: EntryCodec.self)
    }
    let change = try #require(store.finishStreamedRun())
    try store.commit([change] + documents)
    try store.endBatch()
    return store
  }

  @Test func theFilesAreThoseOfTheRunHeldWhole() throws {
    let streamedDirectory = TemporaryStoreDirectory()
    let heldDirectory = TemporaryStoreDirectory()
    defer { [streamedDirectory, heldDirectory].forEach { $0.remove() } }
    let entries = StoreLargeImportTests.imported(1...20_000)
    let app: [StoreChange] = [.setDocument(name: "app", value: ["anchor": 0])]
    let store = try Self.streamed(entries, documents: app, in: streamedDirectory)
    #expect(store.streamedRunsCommitted == 1)
    #expect(store.streamedTableFilesWritten == 1)
    #expect(!store.needsReopening)
    #expect(store.documents["app"] == ["anchor": 0])
    // Not held: read from the file when asked.
    #expect(try store.entries() == entries)
    store.close()
    let held = try StoreLargeImportTests.commitAsACommand(
      StoreChange.putEntries(entries) + app, in: heldDirectory, policy: .standard)
    held.close()
    for name in ["entries.json", "journal.jsonl", "journal.ack"] {
      #expect(streamedDirectory.bytes(name) == heldDirectory.bytes(name), "\(name)")
    }
    #expect(streamedDirectory.bytes("entries.json.tmp") == nil)
    try StoreImportCompactionTests.expectFile(
      in: streamedDirectory, of: try Store.open(.directory(streamedDirectory.path)),
      holds: entries)
  }

  @Test func aRunAbandonedLeavesTheStoreAsItWas() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    let before = directory.snapshot()
    store.beginBatch()
    #expect(store.beginStreamedRun(into: EntryCodec.tableName))
    try store.streamRun(StoreLargeImportTests.imported(1...20_000), of: EntryCodec.self)
    #expect(directory.bytes("entries.json.tmp") != nil)
    // Ids after a gap are taken (an export after deletions); ids that go back below the
    // run's last are refused, and the run abandoned.
    try store.streamRun(StoreLargeImportTests.imported(20_005...20_010), of: EntryCodec.self)
    #expect(throws: StoreError.self) {
      try store.streamRun(StoreLargeImportTests.imported(20_010...20_012), of: EntryCodec.self)
    }
    if store.finishStreamedRun() != nil { Issue.record("a run abandoned was finished") }
    try store.endBatch()
    store.close()
    #expect(
      directory.snapshot().filter { $0.key != "weigh.lock" }
        == before.filter { $0.key != "weigh.lock" })
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == [])
    reopened.close()
  }

  /// The ids a torn record still shows, read from its bytes (a streamed import's torn
  /// record is one put per row): each put's table and id, not a removal's, not an id that
  /// does not fit in an Int, and not one cut off before its first digit.
  @Test func theIdsOfATornRecordAreFoundInItsBytes() {
    let text =
      #"{"seq":2,"changes":[{"put":"entries","row":{"id":7,"at":"x"}},{"remove":"entries","id":9},"#
      + #"{"put":"health","row":{"id":12}},{"put":"entries","row":{"id":99999999999999999999}},"#
      + #"{"put":"entries","nope":1},{"put":"entries","row":{"id":8,"#
      + #"{"put":"entries","row":{"id":"#
    let found = MentionedIDs.scanning(Array(text.utf8)[...])
    #expect(found.largest == ["entries": 8, "health": 12] && found.count == 3)
    #expect(MentionedIDs.scanning([]).largest.isEmpty)
  }

  @Test func aStoreThatWouldNotCompactDoesNotStream() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    defer { store.close() }
    store.beginBatch()
    #expect(!store.canStreamRun(into: EntryCodec.tableName))
    #expect(!store.beginStreamedRun(into: EntryCodec.tableName))
  }

  /// A kill at every writing call of a streamed import of 20,000 entries into a new store
  /// (the record and the table file in 64 KiB pieces): the reopened store holds none or all
  /// of them, checks without errors, and takes new commits.
  @Test func aCrashAtAnyWriteLeavesTheStoreBeforeOrAfterTheImport() throws {
    let entries = StoreLargeImportTests.imported(1...20_000)
    func run(in directory: TemporaryStoreDirectory) {
      _ = try? Self.streamed(entries, in: directory, pieceBytes: 64 << 10).close()
    }
    let counter = WriteFaultInjector()
    let full = TemporaryStoreDirectory()
    defer { full.remove() }
    WriteFaultInjector.$current.withValue(counter) { run(in: full) }
    #expect(full.bytes("entries.json") == TableFile<EntryCodec>.encode(entries, sequence: 1))
    #expect(counter.count > 40)
    var sawBefore = false
    var sawAfter = false
    try forEachKill(ofCalls: counter.count, { run(in: $0) }) { directory, crashAt in
      let store = try Store.open(.directory(directory.path))
      let found = try store.entries()
      #expect(found == [] || found == entries, "crash at call \(crashAt): \(found.count)")
      if found.isEmpty { sawBefore = true } else { sawAfter = true }
      try expectTakesANewEntry(
        store, holding: found, in: directory, crashAt: crashAt, compacting: true)
    }
    #expect(sawBefore && sawAfter)
  }
}
