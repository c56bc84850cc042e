import Foundation
import Testing

@testable import WeighKit

/// A compaction of a table that only grew since its file was written appends the new rows to
/// the file's bytes instead of encoding every row again. The file it writes must be the very
/// bytes a full rewrite writes, whatever the table held before; and whenever the changes
/// touch a row of the file (an edit, a removal) or the file is not as weigh writes it, the
/// table is rewritten from its rows.
@Suite struct StoreAppendCompactionTests {
  /// Opens `directory` with manual compaction, runs `body`, compacts, and returns the table
  /// file next to what a full rewrite of the same rows writes.
  private func compacted(
    _ directory: TemporaryStoreDirectory, _ body: (Store) throws -> Void
  ) throws -> (written: [UInt8], rewritten: [UInt8]) {
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try body(store)
    try store.compact()
    let rows = try store.entries()
    let sequence = try #require(
      TableFile<EntryCodec>.readHeader(path: directory.path + "/entries.json")?.sequence)
    store.close()
    let written = try #require(directory.bytes("entries.json"))
    return (written, TableFile<EntryCodec>.encode(rows, sequence: sequence))
  }

  @Test func rowsAddedAfterTheFileAreAppendedToItsBytes() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    _ = try compacted(directory) { store in
      for id in 1...5 { try store.commit([.putEntry(sampleEntry(id))]) }
    }
    // A new process: the table is not loaded, the new rows are only the journal's.
    let second = try compacted(directory) { store in
      for id in 6...9 { try store.commit([.putEntry(sampleEntry(id, kilograms: 70 + Double(id)))]) }
      try store.commit([.removeEntry(id: 8)])
    }
    #expect(second.written == second.rewritten)
    // The same process after reading every row: the new rows come from the loaded table.
    let third = try compacted(directory) { store in
      _ = try store.entries()
      try store.commit([.putEntry(sampleEntry(10))])
    }
    #expect(third.written == third.rewritten)
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries().map(\.id) == [1, 2, 3, 4, 5, 6, 7, 9, 10])
  }

  @Test func anEmptyFileGetsItsFirstRows() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    _ = try compacted(directory) { store in
      try store.commit([.putEntry(sampleEntry(1))])
      try store.commit([.removeEntry(id: 1)])
    }
    #expect(directory.text("entries.json")?.contains("\"count\":0,") == true)
    let next = try compacted(directory) { store in
      try store.commit([.putEntry(sampleEntry(2)), .putEntry(sampleEntry(3))])
    }
    #expect(next.written == next.rewritten)
  }

  @Test func anEditOrRemovalOfAFileRowRewritesTheTable() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    _ = try compacted(directory) { store in
      for id in 1...3 { try store.commit([.putEntry(sampleEntry(id))]) }
    }
    let edited = try compacted(directory) { store in
      try store.commit([.putEntry(sampleEntry(4))])
      try store.commit([.putEntry(sampleEntry(2, kilograms: 99))])
    }
    #expect(edited.written == edited.rewritten)
    let removed = try compacted(directory) { store in
      try store.commit([.putEntry(sampleEntry(5)), .removeEntry(id: 3)])
    }
    #expect(removed.written == removed.rewritten)
    let reopened = try Store.open(.directory(directory.path))
    #expect(
      try reopened.entries().map(\.kilograms) == [
        sampleEntry(1).kilograms, 99,
        sampleEntry(4).kilograms, sampleEntry(5).kilograms,
      ])
  }

  /// Replaces `entries.json` with `bytes` of the same size and gives it back its
  /// modification time: damage that the store's stamp of the file does not see (bit rot), so
  /// nothing reads the table before the compaction.
  private func damageUnseen(_ directory: TemporaryStoreDirectory, _ bytes: [UInt8]) {
    let path = directory.path + "/entries.json"
    var before = stat()
    #expect(stat(path, &before) == 0)
    directory.write("entries.json", bytes)
    var times = [before.st_atim, before.st_mtim]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
  }

  /// Row `id`'s first digit of its weight, changed.
  private func changingAWeightDigit(of id: Int, in bytes: [UInt8]) throws -> [UInt8] {
    var bytes = bytes
    let text = String(decoding: bytes, as: UTF8.self)
    let row = try #require(text.range(of: "\"id\":\(id),"))
    let kg = try #require(text.range(of: "\"kg\":", range: row.upperBound..<text.endIndex))
    let digit = text.utf8.distance(from: text.startIndex, to: kg.upperBound)
    bytes[digit] = bytes[digit] == UInt8(ascii: "9") ? UInt8(ascii: "8") : UInt8(ascii: "9")
    return bytes
  }

  @Test func damageAmongTheCopiedRowsIsStillFoundWhenTheyAreRead() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    _ = try compacted(directory) { store in
      for id in 1...4 { try store.commit([.putEntry(sampleEntry(id))]) }
    }
    damageUnseen(
      directory, try changingAWeightDigit(of: 2, in: try #require(directory.bytes("entries.json"))))

    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit([.putEntry(sampleEntry(5))])
    try store.compact()
    store.close()
    #expect(directory.text("entries.json")?.contains("\"id\":5,") == true)
    let reopened = try Store.open(.directory(directory.path))
    #expect(throws: StoreError.self) { try reopened.entries() }
  }

  @Test func aWrongCountIsCarriedOnAndFoundWhenTheTableIsRead() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    _ = try compacted(directory) { store in
      for id in 1...3 { try store.commit([.putEntry(sampleEntry(id))]) }
    }
    let text = try #require(directory.text("entries.json"))
    damageUnseen(
      directory, Array(text.replacingOccurrences(of: "\"count\":3,", with: "\"count\":4,").utf8))
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit([.putEntry(sampleEntry(4))])
    try store.compact()
    store.close()
    #expect(directory.text("entries.json")?.contains("\"count\":5,") == true)
    let reopened = try Store.open(.directory(directory.path))
    #expect(throws: StoreError.self) { try reopened.entries() }
  }

  @Test func aDamagedLastRowIsNotAppendedToButRefused() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    _ = try compacted(directory) { store in
      for id in 1...3 { try store.commit([.putEntry(sampleEntry(id))]) }
    }
    damageUnseen(
      directory, try changingAWeightDigit(of: 3, in: try #require(directory.bytes("entries.json"))))
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit([.putEntry(sampleEntry(4))])
    // Appending needs the last row's id, which its checksum no longer vouches for: the
    // table is read whole instead, and that read reports the damage.
    #expect(throws: StoreError.self) { try store.compact() }
  }
}
