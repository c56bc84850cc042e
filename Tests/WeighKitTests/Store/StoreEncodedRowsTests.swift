import Foundation
import Testing

@testable import WeighKit

/// A row is encoded once, when it is committed: the bytes read back by the commit's check are
/// the bytes its journal record holds. A refused commit inside a command's batch must take
/// its rows out of that buffer and leave the batch's other rows as they were.
@Suite struct StoreEncodedRowsTests {
  @Test func aRefusedCommitInsideABatchLeavesTheBatchsOtherRows() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    store.beginBatch()
    try store.commit([.putEntry(sampleEntry(1))])
    var heavy = sampleEntry(2)
    heavy.kilograms = 1e19
    var unstorable = sampleEntry(3)
    unstorable.kilograms = .nan
    #expect(throws: StoreError.self) {
      try store.commit([.putEntry(sampleEntry(4)), .putEntry(heavy)])
    }
    #expect(throws: StoreError.self) { try store.commit([.putEntry(unstorable)]) }
    try store.commit([.putEntry(sampleEntry(5))])
    try store.endBatch()
    store.close()

    // One record after the header, holding rows 1 and 5 as the codec writes them.
    let lines = try #require(directory.text("journal.jsonl")).split(separator: "\n")
    #expect(lines.count == 2)
    var expected = JSONWriter()
    expected.raw("{\"seq\":1,\"changes\":[{\"put\":\"entries\",\"row\":")
    EntryCodec.encode(sampleEntry(1), into: &expected)
    expected.raw("},{\"put\":\"entries\",\"row\":")
    EntryCodec.encode(sampleEntry(5), into: &expected)
    expected.raw("}]")
    let record = String(decoding: expected.bytes, as: UTF8.self)
    #expect(lines.last?.hasPrefix(record + ",\"crc\":\"") == true)

    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == [sampleEntry(1), sampleEntry(5)])
  }

  @Test func aCommitOutsideABatchStartsFromAnEmptyBuffer() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    var heavy = sampleEntry(2)
    heavy.kilograms = 1e19
    #expect(throws: StoreError.self) {
      try store.commit([.putEntry(sampleEntry(1)), .putEntry(heavy)])
    }
    try store.commit([.putEntry(sampleEntry(3))])
    try store.commit([.putEntry(sampleEntry(4)), .removeEntry(id: 3)])
    store.close()

    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == [sampleEntry(4)])
    let lines = try #require(directory.text("journal.jsonl")).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1].contains("\"id\":3,") && !lines[1].contains("\"id\":1,"))
    #expect(
      lines[2].contains("\"id\":4,") && lines[2].contains("{\"remove\":\"entries\",\"id\":3}"))
  }

  @Test func aRowIsReadBackFromItsOwnBytes() {
    var rows = EncodedRows()
    let first = rows.append(StoreChange.putEntryRow(sampleEntry(7)))
    let second = rows.append(StoreChange.putEntryRow(sampleEntry(8)))
    #expect(first.upperBound == second.lowerBound)
    let decoded = rows.withBytes(second) { bytes in
      var reader = JSONReader(bytes: bytes)
      return try? EntryCodec.decode(from: &reader)
    }
    #expect(decoded == sampleEntry(8))
    rows.truncate(to: 1)
    #expect(rows.count == 1)
    var copy = JSONWriter()
    rows.append(0, to: &copy)
    var direct = JSONWriter()
    EntryCodec.encode(sampleEntry(7), into: &direct)
    #expect(copy.bytes == direct.bytes)
  }
}

extension StoreChange {
  /// The row of `putEntry(entry)`.
  fileprivate static func putEntryRow(_ entry: Entry) -> StoreRow {
    StoreRow(EntryCodec.self, entry)
  }
}
