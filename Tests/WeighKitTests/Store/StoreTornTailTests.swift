import Foundation
import Testing

@testable import WeighKit

/// A torn last record is never held whole: opening reads the journal through its last
/// newline (`StoreFileSystem.readLines`), then reads what follows a piece at a time to write
/// it aside and find the ids it mentions (`MentionedIDs`). What it finds must be what a
/// reading of the whole journal finds, wherever the pieces are cut.
@Suite struct StoreTornTailTests {
  /// The ids `text` mentions, scanned `size` bytes at a time: the largest per table, and
  /// how many.
  private func ids(in text: [UInt8], pieces size: Int) -> Found {
    var scan = MentionedIDs()
    var start = 0
    while start < text.count {
      let end = min(start + size, text.count)
      text[start..<end].withUnsafeBufferPointer { scan.scan($0) }
      start = end
    }
    scan.finish()
    return Found(scan)
  }

  private struct Found: Equatable {
    var largest: [String: Int]
    var count: Int
    init(largest: [String: Int], count: Int) {
      self.largest = largest
      self.count = count
    }
    init(_ scan: MentionedIDs) { self.init(largest: scan.largest, count: scan.count) }
  }

  /// Puts cut at every place: before their digits, inside them, after them, inside the
  /// table's name and the text before the id; a name longer than any table's; an id too
  /// large for an Int, with and without leading zeros; `Int.max`, whose next is not one.
  private static let tornText = Array(
    (#"{"seq":2,"changes":[{"put":"entries","row":{"id":7,"at":"x"}},{"remove":"entries","id":9},"#
      + #"{"put":"health","row":{"id":12}},{"put":"entries","row":{"id":99999999999999999999}},"#
      + #"{"put":"entries","row":{"id":0000000000000000000000031}},{"put":"{"put":"entries","#
      + #""row":{"id":9223372036854775807}},{"put":"health","row":{"id":9223372036854775806}},"#
      + #"{"put":"entries","#
      + #""row":{"id":44}},{"put":""# + String(repeating: "n", count: MentionedIDs.longestName + 1)
      + #"","row":{"id":5}},{"put":"entries","nope":1},{"put":"entries","row":{"id":8,"#
      + #"{"put":"entries","row":{"id":123456"#).utf8)

  /// Entries 7, 31, 44, 8 and 123,456; health 12 and `Int.max - 1`.
  private static let tornIDs = Found(
    largest: ["entries": 123_456, "health": .max - 1], count: 7)

  @Test func theIdsFoundInPiecesOfEverySizeAreThoseOfTheWholeText() {
    let text = Self.tornText
    #expect(Found(MentionedIDs.scanning(text[...])) == Self.tornIDs)
    for size in [1, 2, 3, 5, 7, 8, 13, 64, 100, 1000, text.count] {
      #expect(ids(in: text, pieces: size) == Self.tornIDs, "pieces of \(size) bytes")
    }
  }

  @Test func theIdsFoundInTwoPiecesCutAnywhereAreThoseOfTheWholeText() {
    let text = Self.tornText
    for cut in 0...text.count {
      var scan = MentionedIDs()
      text[..<cut].withUnsafeBufferPointer { scan.scan($0) }
      text[cut...].withUnsafeBufferPointer { scan.scan($0) }
      scan.finish()
      #expect(Found(scan) == Self.tornIDs, "cut at \(cut)")
    }
  }

  @Test func anIdEndedByTheTextIsTakenButNotOneCutBeforeItsDigits() {
    let cut = Array(#"{"put":"entries","row":{"id":"#.utf8)
    for size in 1...cut.count {
      #expect(ids(in: cut, pieces: size) == Found(largest: [:], count: 0))
      #expect(
        ids(in: cut + Array("42".utf8), pieces: size) == Found(largest: ["entries": 42], count: 1))
    }
  }

  /// A store folder whose journal holds one committed entry (number 1), closed.
  private func storeOfOneEntry() throws -> TemporaryStoreDirectory {
    let directory = TemporaryStoreDirectory()
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit([.putEntry(sampleEntry(1))])
    store.close()
    return directory
  }

  /// A journal of two transactions, as a store writes it.
  private func journal() throws -> [UInt8] {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit([.putEntry(sampleEntry(1))])
    try store.commit([.putEntry(sampleEntry(2)), .putEntry(sampleEntry(3))])
    store.close()
    return directory.bytes("journal.jsonl")!
  }

  /// What follows a journal's last whole record: torn records, blanks, zeros, damage.
  private static let tails: [[UInt8]] = [
    [],
    Array(#"{"seq":3,"changes":[{"put":"entries","row":{"id":4"#.utf8),
    Array(" \t\r".utf8),
    Array("\n".utf8),
    Array(" \n".utf8),
    Array("\r\n  ".utf8),
    Array("  {\"seq\":3".utf8),
    [0, 0, 0, 0],
    Array("garbage\n".utf8),
    Array("garbage\n{\"seq\":4,\"changes\":[".utf8),
    Array("\n\n{\"seq\":3,\"cha".utf8) + [0xC3],
  ]

  @Test func aJournalReadThroughItsLastNewlineParsesAsWhenReadWhole() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let records = try journal()
    let header = Array(records[...records.firstIndex(of: 0x0A)!])
    let path = directory.file("journal.jsonl")
    let entries = TableStorage<EntryCodec>(empty: true)
    let heads = [[], Array(header.dropLast()), header, records]
    for head in heads {
      for tail in Self.tails {
        let bytes = head + tail
        directory.write("journal.jsonl", bytes)
        let whole = try StoreJournal.parse(bytes, path: path) { _ in entries }
        for piece in [1, 2, 3, 7, 64, 1 << 20] {
          let read = try #require(try StoreFileSystem.readLines(path, pieceBytes: piece))
          #expect(read.size == bytes.count)
          #expect(bytes.starts(with: read.lines))
          let lines = try StoreJournal.parse(read.lines, size: read.size, path: path) { _ in
            entries
          }
          let label = "\(String(decoding: bytes, as: UTF8.self).debugDescription) in \(piece)"
          #expect(lines.version == whole.version, "\(label)")
          #expect(lines.transactions.count == whole.transactions.count, "\(label)")
          #expect(lines.completeLength == whole.completeLength, "\(label)")
          #expect(lines.completeLines == whole.completeLines, "\(label)")
          #expect(lines.problem?.offset == whole.problem?.offset, "\(label)")
          #expect(lines.problem?.line == whole.problem?.line, "\(label)")
          #expect(lines.problem?.column == whole.problem?.column, "\(label)")
          #expect(lines.problem?.message == whole.problem?.message, "\(label)")
          #expect(lines.problem?.unterminated == whole.problem?.unterminated, "\(label)")
        }
      }
    }
    #expect(try StoreFileSystem.readLines(directory.file("missing")) == nil)
  }

  @Test func piecesOfAFileRangeAreItsBytesInOrder() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    directory.write("file", bytes)
    for piece in [1, 3, 64, 999, 1000, 5000] {
      var read: [UInt8] = []
      try StoreFileSystem.readPieces(directory.file("file"), 17..<990, pieceBytes: piece) {
        read += $0
      }
      #expect(read == Array(bytes[17..<990]))
    }
    #expect(throws: StoreError.self) {
      try StoreFileSystem.readPieces(directory.file("file"), 900..<1001) { _ in }
    }
    var copied: [UInt8] = []
    try StoreFileSystem.create(
      directory.file("copy"), copying: 5..<995, of: directory.file("file"), pieceBytes: 100
    ) { copied += $0 }
    #expect(directory.bytes("copy") == Array(bytes[5..<995]))
    #expect(copied == Array(bytes[5..<995]))
    #expect(throws: StoreError.self) {
      try StoreFileSystem.create(
        directory.file("copy"), copying: 0..<10, of: directory.file("file")
      ) { _ in }
    }
    #expect(directory.bytes("copy") == Array(bytes[5..<995]))
  }

  /// A torn record of several pieces whose largest id is cut by the end of a piece, another
  /// put cut inside its table's name: the bytes set aside are the torn record's, and the
  /// numbers it mentions are not given again.
  @Test func aTornRecordOfSeveralPiecesIsMovedAsideWhole() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit([.putEntry(sampleEntry(1)), .putEntry(sampleEntry(2))])
    store.close()
    let journal = directory.bytes("journal.jsonl")!

    let piece = StoreFileSystem.tailPiece
    var torn = Array(#"{"seq":2,"changes":["#.utf8)
    func fill(to length: Int) {
      torn += Array(#"{"put":"entries","row":{"id":3,"note":""#.utf8)
      torn += [UInt8](repeating: 0x61, count: length - torn.count - 4) + Array(#""}},"#.utf8)
    }
    let largest = Array(#"{"put":"entries","row":{"id":9876543,"#.utf8)
    fill(to: piece - largest.count + 3)  // the first piece ends after "98765"
    torn += largest
    let named = Array(#"{"put":"entries","row":{"id":4321,"#.utf8)
    fill(to: 2 * piece - 12)  // the second ends inside "entries"
    torn += named
    fill(to: 2 * piece + piece / 2)
    torn += Array(#"{"put":"entries","row":{"id":12"#.utf8)
    directory.write("journal.jsonl", journal + torn)

    let findings = Store.check(.directory(directory.path))
    #expect(findings.map(\.severity) == [.note])
    #expect(findings.first?.message.contains("(\(torn.count) bytes)") == true)

    let reopened = try Store.open(.directory(directory.path))
    #expect(reopened.recoveryWarnings.count == 1)
    #expect(
      reopened.recoveryWarnings.first?.contains(
        "journal.jsonl:3:1: the last record was incomplete") == true)
    #expect(reopened.recoveryWarnings.first?.contains("its \(torn.count) bytes") == true)
    #expect(try reopened.entries().map(\.id) == [1, 2])
    #expect(reopened.nextID() == 9_876_544)
    reopened.close()
    #expect(directory.bytes("journal.jsonl") == journal)
    let aside = try FileManager.default.contentsOfDirectory(atPath: directory.file("damaged"))
    #expect(aside.count == 1)
    #expect(directory.bytes("damaged/" + aside[0]) == torn)
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  /// Repair counts the lost lines and skips the ids they mention, a torn record of several
  /// pieces after them included, reading them from the file; its copies of the files, made
  /// a piece at a time, are the files as they were.
  @Test func repairReadsTheLostLinesAndTheTornRecordAfterThem() throws {
    let directory = try storeOfOneEntry()
    defer { directory.remove() }
    let damaged = Array(#"{"seq":2,"changes":[{"put":"entries","row":{"id":2}}],"crc":"0"}"#.utf8)
    let filler = [UInt8](repeating: 0x61, count: StoreFileSystem.tailPiece * 2)
    let torn =
      Array(#"{"seq":3,"changes":[{"put":"entries","row":{"id":3,"note":""#.utf8) + filler
      + Array(#""}},{"put":"entries","row":{"id":40"#.utf8)
    directory.write(
      "journal.jsonl", directory.bytes("journal.jsonl")! + damaged + [0x0A] + torn)
    var original = directory.snapshot()
    original["weigh.lock"] = nil
    let report = try Store.repair(.directory(directory.path))
    #expect(report.lost.contains { $0.hasPrefix("journal.jsonl: 2 lines from line 3 on") })
    let copies = try #require(report.copies)
    for (name, bytes) in original {
      #expect(FileManager.default.contents(atPath: copies + "/" + name) == Data(bytes), "\(name)")
    }
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries().map(\.id) == [1])
    #expect(reopened.nextID() == 41)
    reopened.close()
  }

  /// An id of `Int.max` has no next id: it is not taken (opening trapped on it).
  @Test func aTornIdOfIntMaxIsNotTaken() throws {
    let directory = try storeOfOneEntry()
    defer { directory.remove() }
    let torn = Array(#"{"seq":2,"changes":[{"put":"entries","row":{"id":9223372036854775807"#.utf8)
    directory.write("journal.jsonl", directory.bytes("journal.jsonl")! + torn)
    let reopened = try Store.open(.directory(directory.path))
    #expect(reopened.recoveryWarnings.count == 1)
    #expect(reopened.nextID() == 2)
    reopened.close()
  }

  @Test func aTornRecordInAReadOnlyStoreIsWarnedOfAndItsIdsSkipped() throws {
    // Root may write any file, so the read-only journal is what the store was told.
    guard getuid() != 0 else { return }
    let directory = try storeOfOneEntry()
    defer { directory.remove() }
    let torn = Array(#"{"seq":2,"changes":[{"put":"entries","row":{"id":70"#.utf8)
    let bytes = directory.bytes("journal.jsonl")! + torn
    directory.write("journal.jsonl", bytes)
    chmod(directory.file("journal.jsonl"), 0o444)
    let reopened = try Store.open(.directory(directory.path))
    #expect(reopened.recoveryWarnings.first?.contains("will be moved aside") == true)
    #expect(reopened.nextID() == 71)
    reopened.close()
    #expect(directory.bytes("journal.jsonl") == bytes)
    #expect(!FileManager.default.fileExists(atPath: directory.file("damaged")))
  }
}
