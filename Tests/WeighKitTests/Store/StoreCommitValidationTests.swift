import Testing

@testable import WeighKit

/// A commit never writes what loading would refuse: rows are read back through their codec
/// and documents checked as loading checks them, before anything reaches the disk.
@Suite struct StoreCommitValidationTests {
  @Test func aRowOrDocumentOutOfRangeIsRefusedAndNothingIsWritten() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([.putEntry(sampleEntry(1))])
    let before = directory.snapshot()

    var heavy = sampleEntry(2)
    heavy.kilograms = 1e19
    let row = #expect(throws: StoreError.self) { try store.commit([.putEntry(heavy)]) }
    #expect(row?.kind == .invalidChange)
    #expect(
      row?.message
        == #"row 2 of entries would not load again: "kg" is 1e+19, out of range: a weight is more than 0 and at most 1000 kg"#
    )
    // A revision past 2^31 − 1 cannot be held by an `Entry` (32 bits); 0 is below the range.
    var revised = sampleEntry(1)
    revised.revision = 0
    #expect(throws: StoreError.self) { try store.commit([.putEntry(revised)]) }

    let document = #expect(throws: StoreError.self) {
      try store.commit([
        .putEntry(sampleEntry(3)), .setDocument(name: "app", value: ["anchor": -1]),
      ])
    }
    #expect(
      document?.message
        == #"the document "app" would not load again: "anchor" is -1, out of range: an anchor is a whole number from 0 to 9007199254740991"#
    )
    #expect(directory.snapshot() == before)
    #expect(try store.entries().map(\.id) == [1])
    store.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  /// In a command's transaction the documents are checked once, at its end, as the record
  /// writes them (their last values): a refused one fails the whole command, nothing is
  /// written and the store closes; one set out of range and then back in range is written.
  @Test func aBatchChecksTheDocumentsItWritesAtItsEnd() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([.putEntry(sampleEntry(1))])
    let before = directory.snapshot()

    #expect(store.beginBatch())
    try store.commit([.putEntry(sampleEntry(2)), .setDocument(name: "app", value: ["anchor": -1])])
    try store.commit([.setDocument(name: "app", value: ["anchor": 5])])
    try store.endBatch()
    #expect(store.document(.app) == ["anchor": 5])

    let afterGood = directory.snapshot()
    #expect(afterGood != before)
    #expect(store.beginBatch())
    try store.commit([.putEntry(sampleEntry(3))])
    try store.commit([.setDocument(name: "app", value: ["anchor": -1])])
    let error = #expect(throws: StoreError.self) { try store.endBatch() }
    #expect(error?.kind == .invalidChange)
    #expect(
      error?.message
        == #"the document "app" would not load again: "anchor" is -1, out of range: an anchor is a whole number from 0 to 9007199254740991"#
    )
    #expect(!store.isWritable)
    #expect(directory.snapshot() == afterGood)
    #expect(Store.check(.directory(directory.path)).isEmpty)
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries().map(\.id) == [1, 2])
    #expect(reopened.document(.app) == ["anchor": 5])
    reopened.close()
  }
}
