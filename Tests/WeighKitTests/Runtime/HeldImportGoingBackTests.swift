import Foundation
import Testing

@testable import WeighKit

/// Weigh's own file whose numbers go back (numbered backwards, or two exports one after the
/// other) is imported held, and its commit's compaction merges the new entries among the
/// log's by number (`TableStorage.merge(count:id:row:into:)`, held25; each put inserted in
/// turn before, quadratic): the table's file holds the rows of the log and the file in
/// number order, as an import of them all in order into an empty log leaves it, and the
/// undo leaves the log's file as it was.
@Suite struct HeldImportGoingBackTests {
  typealias Numbered = StreamedNumberedReimportTests
  typealias Reimport = StreamedReimportTests

  /// The rows of `entries.json` after its first line (which holds the store's sequence).
  static func rowLines(_ bytes: [UInt8]?) -> [Substring] {
    String(decoding: bytes ?? [], as: UTF8.self).split(separator: "\n").dropFirst().map { $0 }
  }

  /// The log holds the odd numbers to 5,999 (a minute each from 2015); the file the even
  /// ones and 6,001 to 8,000 (a minute each from 2018), numbered backwards, or the two
  /// halves each in order but the second numbered before the first, in CSV or JSON.
  @Test(arguments: [(false, false), (false, true), (true, false), (true, true)])
  func aFileNumberedBackwardsIsMergedAmongTheLog(backwards: Bool, json: Bool) throws {
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    let logged: [Numbered.Row] = stride(from: 1, through: 5_999, by: 2).map { id in
      (id, id, 50 + Double(id % 400) / 10)
    }
    let numbers: [Int] = Array(stride(from: 2, through: 6_000, by: 2)) + Array(6_001...8_000)
    let added: [Numbered.Row] = numbers.map { id in
      (id, 3 * 366 * 1440 + id, 60 + Double(id % 300) / 10)
    }
    let file: [Numbered.Row] =
      backwards ? added.reversed() : Array(added[2_000...]) + Array(added[..<2_000])
    let name = json ? "file.json" : "file.csv"
    Reimport.Files.write(Numbered.weigh(logged, json: false), named: "log.csv", in: files)
    Reimport.Files.write(Numbered.weigh(file, json: json), named: name, in: files)
    let all = (logged + added).sorted { $0.id < $1.id }
    Reimport.Files.write(Numbered.weigh(all, json: false), named: "all.csv", in: files)

    let store = TemporaryStoreDirectory()
    let inOrder = TemporaryStoreDirectory()
    defer { [store, inOrder].forEach { $0.remove() } }
    let setUp = try Reimport.run(
      ["import \(files.file("log.csv"))"], in: store, streaming: true)
    let imported = try Reimport.run(
      ["import \(files.file(name))", "undo"], in: store, streaming: true)
    #expect(imported.runs == 0, "numbers going back: read again, held")
    #expect(
      imported.printed.contains("imported 5000, already present 0"), "\(imported.printed)")
    let expected = try Reimport.run(
      ["import \(files.file("all.csv"))"], in: inOrder, streaming: true)
    let merged = Self.rowLines(imported.files[0]["entries.json"])
    #expect(merged.count == 8_000 + 1, "the rows and the last line")
    // Not printed whole when they differ: 8,000 lines.
    let same = merged == Self.rowLines(expected.files[0]["entries.json"])
    #expect(same, "entries.json: the rows of an import of them all in order")
    #expect(imported.entries == setUp.entries, "the undo leaves the log")
    #expect(Store.check(.directory(store.path), tables: Session.storeTables).isEmpty)
  }
}
