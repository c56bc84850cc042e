import Testing

@testable import WeighKit

/// An import into a table with no rows writes the table's file as its rows stream into the
/// journal record (`StreamedTableFile`), and the compaction that follows only finishes and
/// renames it. The file is byte for byte the one encoding every row gives; any other change
/// of the table in the transaction, or no compaction, leaves it aside; and a kill at any
/// write leaves the store as before the import or after it.
@Suite struct StoreStreamedTableFileTests {
  /// Commits `changes` as one command to the store in `directory` (opened with `policy`),
  /// after `before`, with a streamed table file for runs of at least 100 rows.
  static func command(
    _ changes: [[StoreChange]], before: [StoreChange] = [], in directory: TemporaryStoreDirectory,
    policy: CompactionPolicy = .standard, pieceBytes: Int = 1 << 20
  ) throws -> Store {
    let store = try Store.open(.directory(directory.path), compaction: policy)
    store.journalPieceBytes = pieceBytes
    store.streamedTableMinimumRows = 100
    if !before.isEmpty { try store.commit(before) }
    store.beginBatch()
    for commit in changes { try store.commit(commit) }
    try store.endBatch()
    return store
  }

  @Test(arguments: [1 << 20, 4096, 1])
  func anImportIntoANewStoreWritesTheFileEncodingWouldWrite(pieceBytes: Int) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let entries = StoreLargeImportTests.imported(1...3000)
    let store = try Self.command(
      [StoreChange.putEntries(entries)], in: directory, pieceBytes: pieceBytes)
    #expect(store.lastCompactionError == nil)
    #expect(store.streamedTableFilesWritten == 1)
    #expect(directory.bytes("entries.json.tmp") == nil)
    // The compaction took the journal back to its header.
    #expect(directory.text("journal.jsonl")?.split(separator: "\n").count == 1)
    try StoreImportCompactionTests.expectFile(in: directory, of: store, holds: entries)
  }

  @Test func anImportWithDocumentsAfterItWritesTheFileToo() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let entries = StoreLargeImportTests.imported(1...1200)
    let store = try Self.command(
      [StoreChange.putEntries(entries), [.setDocument(name: "app", value: ["anchor": 0])]],
      in: directory)
    #expect(store.streamedTableFilesWritten == 1)
    #expect(store.documents["app"] == ["anchor": 0])
    try StoreImportCompactionTests.expectFile(in: directory, of: store, holds: entries)
  }

  /// Changes of the table after the run, in the same command: the streamed file is left
  /// aside and the compaction writes the table from its rows.
  @Test(arguments: [0, 1, 2])
  func aTableChangedAgainInTheCommandIsWrittenFromItsRows(later: Int) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let entries = StoreLargeImportTests.imported(1...1200)
    var expected = entries
    let after: [StoreChange]
    switch later {
    case 0:
      after = [.putEntry(sampleEntry(1201))]
      expected.append(sampleEntry(1201))
    case 1:
      after = [.remove(table: "entries", id: 7)]
      expected.remove(at: 6)
    default:
      var edited = entries[9]
      edited.note = "edited"
      after = [.putEntry(edited)]
      expected[9] = edited
    }
    let store = try Self.command([StoreChange.putEntries(entries), after], in: directory)
    #expect(store.streamedTableFilesWritten == 0)
    #expect(directory.bytes("entries.json.tmp") == nil)
    try StoreImportCompactionTests.expectFile(in: directory, of: store, holds: expected)
  }

  @Test func noCompactionLeavesNoTemporaryFile() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let entries = StoreLargeImportTests.imported(1...1200)
    let store = try Self.command([StoreChange.putEntries(entries)], in: directory, policy: .manual)
    #expect(store.streamedTableFilesWritten == 0)
    #expect(directory.bytes("entries.json.tmp") == nil)
    #expect(directory.bytes("entries.json") == nil)
    store.close()
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == entries)
    reopened.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  @Test func aTableWithRowsIsAppendedToAsBefore() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let before = StoreLargeImportTests.imported(1...10)
    let entries = StoreLargeImportTests.imported(11...600)
    let store = try Self.command(
      [StoreChange.putEntries(entries)], before: before.map(StoreChange.putEntry), in: directory,
      policy: StoreImportCompactionTests.always)
    #expect(store.streamedTableFilesWritten == 0)
    try StoreImportCompactionTests.expectFile(in: directory, of: store, holds: before + entries)
  }

  @Test func aCommitRefusedAfterItsRowsLeavesNothingBehind() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    store.streamedTableMinimumRows = 100
    store.journalPieceBytes = 4096
    let journal = directory.bytes("journal.jsonl")
    #expect(throws: StoreError.self) {
      try store.commit(
        StoreChange.putEntries(StoreLargeImportTests.imported(1...1200)) + [
          .setDocument(name: "settings", value: ["goal": .number(.infinity)])
        ])
    }
    #expect(directory.bytes("entries.json.tmp") == nil)
    #expect(directory.bytes("journal.jsonl") == journal)
    #expect(try store.entries() == [])
    store.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  /// A kill at every writing call of a command that imports 1,500 entries into a new store
  /// (record and table file in 1 KiB pieces): the reopened store holds none or all of them,
  /// checks without errors (a temporary file or a torn record at most, as notes), and takes
  /// new commits.
  @Test func aCrashAtAnyWriteLeavesTheStoreBeforeOrAfterTheImport() throws {
    let entries = StoreLargeImportTests.imported(1...1500)
    func run(in directory: TemporaryStoreDirectory) {
      _ = try? Self.command([StoreChange.putEntries(entries)], in: directory, pieceBytes: 1024)
        .close()
    }
    let counter = WriteFaultInjector()
    let full = TemporaryStoreDirectory()
    defer { full.remove() }
    WriteFaultInjector.$current.withValue(counter) { run(in: full) }
    let reopenedFull = try Store.open(.directory(full.path))
    #expect(try reopenedFull.entries() == entries)
    reopenedFull.close()
    #expect(full.bytes("entries.json") == TableFile<EntryCodec>.encode(entries, sequence: 1))
    #expect(counter.count > 200)

    var sawBefore = false
    var sawAfter = false
    try forEachKill(ofCalls: counter.count, { run(in: $0) }) { directory, crashAt in
      let store = try Store.open(.directory(directory.path))
      store.streamedTableMinimumRows = 100
      let found = try store.entries()
      #expect(found == [] || found == entries, "crash at call \(crashAt): \(found.count)")
      if found.isEmpty { sawBefore = true } else { sawAfter = true }
      try expectTakesANewEntry(
        store, holding: found, in: directory, crashAt: crashAt, compacting: true)
    }
    #expect(sawBefore && sawAfter)
  }
}
