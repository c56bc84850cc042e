import Foundation
import Testing

@testable import WeighKit

/// A transaction that starts with row changes (an import's) writes its journal record while
/// its commit encodes and reads back each row, a piece at a time, and finishes it when the
/// transaction ends: the rows are never held as bytes, and nothing else changes: the same
/// bytes on disk, nothing durable before the one `fdatasync`, nothing left of a transaction
/// that is dropped.
@Suite struct StoreStreamedRecordTests {
  static let entries = StoreLargeImportTests.imported(1...3000)

  @Test func aLargeTransactionHoldsAboutAPieceOfItsRecordNotItsRows() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    store.journalPieceBytes = 4096
    let journal = try #require(directory.bytes("journal.jsonl"))
    let ack = directory.bytes("journal.ack")
    store.beginBatch()
    try store.commit(StoreChange.putEntries(Self.entries))
    // About 300 KB of rows went to the journal already, as a record without its end: not
    // acknowledged, and what memory holds is less than a piece and a row.
    #expect(store.bytesHeldForTransaction < 4096 + 512)
    let written = try #require(directory.bytes("journal.jsonl"))
    #expect(written.count > journal.count + 250_000)
    #expect(Array(written.prefix(journal.count)) == journal)
    #expect(written.last != 0x0A)
    #expect(directory.bytes("journal.ack") == ack)
    try store.endBatch()
    // The record's buffer keeps its last piece for the next commit, nothing more.
    #expect(store.bytesHeldForTransaction < 4096 + 512)
    store.close()
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == Self.entries)
    #expect(reopened.recoveryWarnings.isEmpty)
    reopened.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  /// The record written a piece at a time, with later commits of the batch after it, has
  /// the bytes of the record written whole; so has the table file its compaction writes
  /// from the rows read back from the journal.
  @Test(arguments: [1, 700, 1 << 20])
  func aStreamedRecordHasTheBytesOfOneWrittenWhole(pieceBytes: Int) throws {
    let whole = TemporaryStoreDirectory()
    let pieces = TemporaryStoreDirectory()
    defer {
      whole.remove()
      pieces.remove()
    }
    var edited = Self.entries[7]
    edited.kilograms = 81.5
    func run(in directory: TemporaryStoreDirectory, pieceBytes: Int) throws {
      let store = try Store.open(.directory(directory.path), compaction: .standard)
      store.journalPieceBytes = pieceBytes
      store.beginBatch()
      try store.commit(
        StoreChange.putEntries(Array(Self.entries.prefix(400))) + [
          .setDocument(name: "settings", value: ["unit": .string("lb")])
        ])
      try store.commit([.putEntry(edited), .removeEntry(id: 3)])
      try store.commit([.setDocument(name: "settings", value: ["unit": .string("kg")])])
      try store.endBatch()
      // A larger one, outside a batch: compacted at once (its record passes 64 KiB).
      try store.commit(StoreChange.putEntries(Array(Self.entries.dropFirst(400))))
      store.close()
    }
    try run(in: whole, pieceBytes: .max)
    try run(in: pieces, pieceBytes: pieceBytes)
    #expect(pieces.bytes("journal.jsonl") == whole.bytes("journal.jsonl"))
    #expect(pieces.bytes("entries.json") == whole.bytes("entries.json"))
    #expect(pieces.bytes("entries.json") != nil)
    // The table file is the one encoding every row writes.
    var expected = Self.entries.filter { $0.id != 3 }
    expected[6] = edited
    let sequence = try Store.open(.directory(pieces.path)).committedSequence
    #expect(
      pieces.bytes("entries.json") == TableFile<EntryCodec>.encode(expected, sequence: sequence))
    let reopened = try Store.open(.directory(pieces.path))
    #expect(try reopened.entries() == expected)
    #expect(reopened.documents["settings"] == ["unit": .string("kg")])
  }

  @Test func theCommitPointOfACommandGetsTheWholeRecord() throws {
    // A command that changed Health hands the record to health.sqlite before the journal
    // has it: the streamed part is read back and comes first.
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    store.journalPieceBytes = 1024
    store.beginBatch()
    try store.commit(StoreChange.putEntries(Array(Self.entries.prefix(500))))
    try store.commit([.setDocument(name: "app", value: ["n": .integer(2)])])
    var handed: [UInt8]?
    var head: StoreRecordHead?
    try store.endBatch { (_, record, streamed) throws(StoreError) in
      handed = record
      head = streamed
    }
    store.close()
    let journal = try #require(directory.bytes("journal.jsonl"))
    let header = StoreJournal.header(base: 0)
    // The streamed head is named by its place in the journal, not read back.
    let streamed = try #require(head)
    #expect(streamed.range.lowerBound == header.count)
    #expect(streamed.byteCount > 0)
    let headBytes = try streamed.bytes()
    #expect(handed.map { header + headBytes + $0 } == journal)
  }

  @Test func aTransactionDroppedBeforeItsEndLeavesTheJournalAsItWas() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    store.journalPieceBytes = 1024
    try store.commit([.putEntry(sampleEntry(1))])
    let journal = directory.bytes("journal.jsonl")
    store.beginBatch()
    try store.commit(StoreChange.putEntries(StoreLargeImportTests.imported(2...600)))
    #expect(directory.bytes("journal.jsonl") != journal)
    store.close()
    #expect(directory.bytes("journal.jsonl") == journal)
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == [sampleEntry(1)])
    #expect(reopened.recoveryWarnings.isEmpty)
  }

  @Test func aRowThatWouldNotLoadLateInAStreamedRecordLeavesTheJournalAsItWas() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    store.journalPieceBytes = 512
    try store.commit([.putEntry(sampleEntry(1))])
    let journal = directory.bytes("journal.jsonl")
    var rows = StoreLargeImportTests.imported(2...400)
    rows[350].kilograms = 1e19
    store.beginBatch()
    #expect(throws: StoreError.self) { try store.commit(StoreChange.putEntries(rows)) }
    #expect(directory.bytes("journal.jsonl") == journal)
    #expect(store.bytesHeldForTransaction < 512 + 512)
    // The batch goes on: a later commit of the command streams and is written.
    try store.commit(StoreChange.putEntries(Array(rows.prefix(300))))
    try store.endBatch()
    store.close()
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == [sampleEntry(1)] + rows.prefix(300))
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }
}
