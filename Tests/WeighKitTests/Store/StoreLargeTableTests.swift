import Foundation
import Testing

@testable import WeighKit

/// Tables of 4 MB and more are decoded in two halves on two threads; these check that the
/// result and the error positions are those of a sequential read.
@Suite struct StoreLargeTableTests {
  private func makeLargeStore() throws -> (TemporaryStoreDirectory, [Entry]) {
    let directory = TemporaryStoreDirectory()
    let entries = (1...45_000).map { sampleEntry($0 * 2, kilograms: 50 + Double($0 % 997) / 16) }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit(entries.map { .putEntry($0) })
    try store.compact()
    store.close()
    #expect(directory.bytes("entries.json")!.count > 4 << 20)
    return (directory, entries)
  }

  @Test func readsTheSameRowsAsWereWritten() throws {
    let (directory, entries) = try makeLargeStore()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    #expect(try store.entries() == entries)
    #expect(try store.row(EntryCodec.self, id: 60_000) == entries[29_999])
    #expect(try store.row(EntryCodec.self, id: 60_001) == nil)
  }

  @Test func readsOnlyTheRowsAfterAnIdWithTheJournalApplied() throws {
    let (directory, entries) = try makeLargeStore()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([
      .putEntry(sampleEntry(90_002)), .removeEntry(id: 89_996), .putEntry(sampleEntry(51)),
      .putEntry(sampleEntry(89_994, kilograms: 99)),
    ])
    let expected = [
      sampleEntry(89_992, kilograms: entries[44_995].kilograms), sampleEntry(89_994, kilograms: 99),
      entries[44_998], entries[44_999], sampleEntry(90_002),
    ]
    #expect(try store.rows(EntryCodec.self, after: 89_990) == expected)
    #expect(try store.rows(EntryCodec.self, after: 90_002).isEmpty)
    #expect(try store.rows(EntryCodec.self, after: 0).count == 45_001)
    #expect(try store.rows(EntryCodec.self, after: 44_999).first?.id == 45_000)
    #expect(try store.rows(EntryCodec.self, after: 50).first?.id == 51)
    // Once the table is read whole, the same question is answered from memory.
    #expect(try store.entries().count == 45_001)
    #expect(try store.rows(EntryCodec.self, after: 89_990) == expected)
  }

  @Test(arguments: [10, 22_500, 22_501, 22_502, 44_000])
  func reportsTheExactLineOfABadRowInEitherHalf(badLine: Int) throws {
    let (directory, _) = try makeLargeStore()
    defer { directory.remove() }
    var lines = directory.text("entries.json")!.components(separatedBy: "\n")
    lines[badLine - 1] = lines[badLine - 1].replacingOccurrences(
      of: "\"rev\":1", with: "\"rev\":1.5")
    directory.write("entries.json", Array(lines.joined(separator: "\n").utf8))
    // Not the file weigh wrote, so opening reads it whole.
    let error = #expect(throws: StoreError.self) { try Store.open(.directory(directory.path)) }
    #expect(error?.location?.line == badLine)
    #expect(error?.location?.column == 1)
    #expect(error?.message.hasPrefix("the row does not match its checksum") == true)
  }

  @Test func findsIdsOutOfOrderAcrossTheMiddle() throws {
    let (directory, _) = try makeLargeStore()
    defer { directory.remove() }
    var lines = directory.text("entries.json")!.components(separatedBy: "\n")
    let middle = lines.count / 2
    lines.swapAt(middle, middle + 1)
    lines.swapAt(middle - 2, middle + 3)
    directory.write("entries.json", Array(lines.joined(separator: "\n").utf8))
    // Not the file weigh wrote, so opening reads it whole.
    let error = #expect(throws: StoreError.self) { try Store.open(.directory(directory.path)) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message.contains("is not greater than the id") == true)
  }
}
