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
}
