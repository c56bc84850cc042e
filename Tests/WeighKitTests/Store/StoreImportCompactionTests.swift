import Testing

@testable import WeighKit

/// The compaction at the end of an import's command writes the run's rows (consecutive ids,
/// every one put by the run alone) as lines copied from the bytes the journal holds, a block
/// at a time (`TableFile.appendLines`), without looking at each row; any other change falls
/// back to the row-by-row copy or to encoding. Each way, the file is byte for byte the one
/// encoding every row gives, and each row is the text the entry encoder always wrote.
@Suite struct StoreImportCompactionTests {
  /// Compacts after every commit (here: at the end of the batch, reusing its bytes).
  static let always = CompactionPolicy(minimumJournalBytes: 0, maximumJournalBytes: 0)

  /// Checks that `directory`'s entries.json is the file encoding `expected` gives, each row
  /// line the reference text of its entry, and that the store opens again with them.
  static func expectFile(
    in directory: TemporaryStoreDirectory, of store: Store, holds expected: [Entry]
  ) throws {
    #expect(try store.entries() == expected)
    let file = try #require(directory.bytes("entries.json"))
    #expect(file == TableFile<EntryCodec>.encode(expected, sequence: store.committedSequence))
    let lines = String(decoding: file, as: UTF8.self).split(separator: "\n").dropFirst()
      .dropLast()
    #expect(lines.count == expected.count)
    for (line, entry) in zip(lines, expected) {
      let row = line.dropFirst("{\"crc\":\"00000000\",\"row\":".count)
      #expect(row.hasPrefix(ByteCursorTests.Reference.entry(entry)))
    }
    store.close()
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == expected)
    reopened.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  @Test(arguments: [false, true], [1 << 20, 4096])
  func anImportsRunIsCopiedIntoTheFileAsEncodingWouldWriteIt(
    tableHasRows: Bool, pieceBytes: Int
  ) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let before = tableHasRows ? StoreLargeImportTests.imported(1...100) : []
    let entries = StoreLargeImportTests.imported(101...3000)
    let store = try StoreLargeImportTests.commitAsACommand(
      StoreChange.putEntries(entries), before: before.map(StoreChange.putEntry), in: directory,
      policy: Self.always, pieceBytes: pieceBytes)
    #expect(store.lastCompactionError == nil)
    try Self.expectFile(in: directory, of: store, holds: before + entries)
  }

  @Test func anImportsRecordIsTheWriterAsItWasRowByRow() throws {
    // The journal record of an import, streamed in pieces: its line is the record the
    // writer as it was gives (`ByteCursorTests.Reference`), one put per row, with the
    // checksum of its bytes.
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let entries = StoreLargeImportTests.imported(1...3000)
    let store = try StoreLargeImportTests.commitAsACommand(
      StoreChange.putEntries(entries), in: directory, pieceBytes: 4096)
    store.close()
    let journal = try #require(directory.text("journal.jsonl"))
    let lines = journal.split(separator: "\n")
    #expect(lines.count == 2)
    let puts = entries.map {
      "{\"put\":\"entries\",\"row\":" + ByteCursorTests.Reference.entry($0) + "}"
    }
    let body = "{\"seq\":1,\"changes\":[" + puts.joined(separator: ",") + "]"
    let crc = StoreChecksum.of(Array(body.utf8)[...])
    let hex = String(crc, radix: 16)
    let expected = body + ",\"crc\":\"" + String(repeating: "0", count: 8 - hex.count) + hex + "\"}"
    #expect(lines.last.map(String.init) == expected)
  }

  @Test func aRunWithGapsBetweenItsIDsIsCopiedRowByRow() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let entries = StoreLargeImportTests.imported(stride(from: 1, through: 3001, by: 3))
    let store = try StoreLargeImportTests.commitAsACommand(
      StoreChange.putEntries(entries), in: directory, policy: Self.always)
    try Self.expectFile(in: directory, of: store, holds: entries)
  }

  @Test func aRunChangedLaterInItsCommandIsWrittenAsItEnds() throws {
    // A put of one of the run's rows and a removal after it, in the same command: the
    // table is no longer the run's alone, and the file holds the rows as they end.
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let entries = StoreLargeImportTests.imported(1...2000)
    var edited = entries[999]
    edited.kilograms = 99.25
    let store = try Store.open(.directory(directory.path), compaction: Self.always)
    store.beginBatch()
    try store.commit(StoreChange.putEntries(entries))
    try store.commit([.putEntry(edited), .removeEntry(id: 7)])
    try store.endBatch()
    var expected = entries.filter { $0.id != 7 }
    expected[998] = edited
    try Self.expectFile(in: directory, of: store, holds: expected)
  }

  @Test func twoRunsInOneCommandAreWrittenAsEncodingWould() throws {
    // Two runs of one table: not one run alone, so row by row.
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let first = StoreLargeImportTests.imported(1...1000)
    let second = StoreLargeImportTests.imported(1001...1500)
    let store = try StoreLargeImportTests.commitAsACommand(
      StoreChange.putEntries(first) + StoreChange.putEntries(second), in: directory,
      policy: Self.always)
    try Self.expectFile(in: directory, of: store, holds: first + second)
  }
}
