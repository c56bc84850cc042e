import Foundation
import Testing

@testable import WeighKit

/// `weigh check --repair` of a store whose journal ends with a large record, an import's
/// rows that no compaction folded (a kill after the commit): the repair's inspection reads
/// it a piece at a time, as an open does (`StoreJournal.LargeRecord`), and its rows are read
/// back as the table's file is written (`StoreJournal.LargeRecordRows`), never held. The
/// report and the files are those of the repair that reads the journal whole (`loaded`, the
/// repair before hrep25).
@Suite struct StoreRepairLargeRecordTests {
  /// The size from which the tests' records are read a piece at a time (a 20,000-row record
  /// is about 3 MB: several 1 MiB pieces).
  static let largeRecords = 64 << 10

  /// The repair of a copy of `damaged`: its report (the copies' folder and the store's path
  /// left out) and the files it leaves, `weigh.json` without its stamps and checksum.
  static func repaired(
    _ damaged: TemporaryStoreDirectory, rows: StoreInspection.Rows
  ) -> (report: String, files: [String: [UInt8]]) {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    damaged.copy(to: directory)
    var report: String
    do {
      var repaired = try Store.repair(
        .directory(directory.path), tables: [], lockTimeout: .seconds(5), rows: rows,
        largeRecords: largeRecords)
      repaired.copies = repaired.copies.map { _ in "copies" }
      report = "\(repaired)"
    } catch {
      report = "\(error)"
    }
    report = report.replacingOccurrences(of: directory.path, with: "STORE")
    var files: [String: [UInt8]] = [:]
    for name in ["entries.json", "journal.jsonl", "journal.ack"] {
      files[name] = directory.bytes(name)
    }
    if let manifest = directory.text("weigh.json") {
      let masked = manifest.replacingOccurrences(
        of: "modified [0-9.]+|\"crc\": ?\"[0-9a-f]{8}\"", with: "", options: .regularExpression)
      files["weigh.json"] = Array(masked.utf8)
    }
    #expect(Store.check(.directory(directory.path)).isEmpty, "\(report)")
    return (report, files)
  }

  /// Flips one byte of `name` in `directory`, at `offset` from its end.
  static func flip(_ name: String, at offset: Int, in directory: TemporaryStoreDirectory) {
    var bytes = directory.bytes(name)!
    bytes[bytes.count - offset] ^= 0x04
    FileManager.default.createFile(atPath: directory.file(name), contents: Data(bytes))
  }

  /// Expects the streamed and the loaded repair of `damaged` to say and write the same, the
  /// streamed one with the journal's last record read a piece at a time.
  static func expectSameRepair(_ damaged: TemporaryStoreDirectory, _ comment: Comment) {
    let inspection = StoreInspection.inspect(
      directory: damaged.path,
      tables: [EntryCodec.tableName: TableStorage<EntryCodec>(empty: true)], rows: .ends,
      largeRecords: largeRecords)
    #expect(inspection.journal.largeRecord?.count ?? 0 > 10_000, comment)
    let streamed = repaired(damaged, rows: .verified)
    let loaded = repaired(damaged, rows: .loaded)
    #expect(streamed.report == loaded.report, comment)
    #expect(streamed.report.contains("transactions"), comment)
    for name in loaded.files.keys.sorted() {
      #expect(streamed.files[name] == loaded.files[name], "\(name): \(comment)")
    }
    #expect(streamed.files.keys.sorted() == loaded.files.keys.sorted(), comment)
  }

  /// A new store's import, uncompacted: `journal.ack` damaged, the table's file written from
  /// the record alone.
  @Test func aNewStoresImportIsRepairedFromTheRecord() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    try StoreLargeRecordTests.uncompacted(in: directory)
    #expect(!FileManager.default.fileExists(atPath: directory.file("entries.json")))
    Self.flip("journal.ack", at: 20, in: directory)
    Self.expectSameRepair(directory, "journal.ack")
  }

  /// A table with a file of its own, then changes (a put and a removal of ids the record puts
  /// again, a removal of one it does not, a put after its last), then the record, whose rows replace some of the file's
  /// with other values: a row of the file damaged, each row of the record in its id's place,
  /// winning over the file's and the journal's of the same id.
  @Test func aRecordOverATableIsMergedWithItsRows() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let first = try Store.open(.directory(directory.path), compaction: .standard)
    try first.commit(StoreChange.putEntries(StoreLargeImportTests.imported(1...200)))
    try first.compact()
    first.close()
    #expect(FileManager.default.fileExists(atPath: directory.file("entries.json")))
    var changed = StoreLargeImportTests.imported(150...20_000)
    for index in changed.indices { changed[index].kilograms += 1 }
    var later = StoreLargeImportTests.imported([30_000])[0]
    later.kilograms += 2
    var replaced = StoreLargeImportTests.imported([160])[0]
    replaced.kilograms += 3
    try StoreLargeImportTests.commitAsACommand(
      StoreChange.putEntries(changed),
      before: [
        .putEntry(later), .putEntry(replaced), .removeEntry(id: 170), .removeEntry(id: 20),
      ], in: directory
    ).close()
    for damage in ["entries.json", "journal.ack"] {
      let copy = TemporaryStoreDirectory()
      defer { copy.remove() }
      directory.copy(to: copy)
      Self.flip(damage, at: damage == "entries.json" ? 2_000 : 20, in: copy)
      Self.expectSameRepair(copy, "\(damage)")
    }
  }
}
