import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// A second table, so that a repair of several tables is compared too.
private struct Mark: Equatable, Sendable {
  var id: Int
  var label: String
}

private enum MarkCodec: StoreTableCodec {
  static let tableName = "marks"
  static let formatName = "weigh-marks"
  static let formatVersion = 1

  static func id(of row: Mark) -> Int { row.id }

  static func encode(_ row: Mark, into writer: inout JSONWriter) {
    writer.raw("{\"id\":")
    writer.write(row.id)
    writer.raw(",\"label\":")
    writer.write(row.label)
    writer.raw("}")
  }

  static func decode(from reader: inout JSONReader) throws(JSONSyntaxError) -> Mark {
    try reader.beginObject()
    var row = Mark(id: 0, label: "")
    while let key = try reader.nextKey() {
      if key.equals("id") {
        row.id = try reader.readInt()
      } else if key.equals("label") {
        row.label = try reader.readString()
      } else {
        try reader.skipValue()
      }
    }
    return row
  }
}

/// `weigh check --repair` reads and writes each table a piece at a time (rep23): on every
/// damaged store it must write the files, and print the report, that the repair holding
/// the rows writes (`StoreInspection.Rows.loaded`, the oracle, as it repaired before).
@Suite struct StoreRepairStreamedTests {
  private static let tables: [any StoreTableCodec.Type] = [MarkCodec.self]

  /// A store of `count` entries and `count / 4` marks in their files, then a journal that
  /// puts, replaces and removes rows the tables have and rows they lack, and sets a
  /// document.
  static func makeStore(entries count: Int) throws -> TemporaryStoreDirectory {
    let directory = TemporaryStoreDirectory()
    let store = try Store.open(.directory(directory.path), tables: tables, compaction: .manual)
    try store.commit(StoreChange.putEntries((1...count).map { sampleEntry($0) }))
    try store.commit(
      (1...(count / 4)).map { .put(StoreRow(MarkCodec.self, Mark(id: $0 * 3, label: "m\($0)"))) })
    try store.compact()
    try store.commit([.putEntry(sampleEntry(3, kilograms: 80)), .removeEntry(id: 2)])
    try store.commit([.setDocument(name: "settings", value: ["unit": "lb"])])
    try store.commit([.removeEntry(id: count + 100), .putEntry(sampleEntry(count + 5))])
    try store.commit([
      .put(StoreRow(MarkCodec.self, Mark(id: 4, label: "new"))),
      .put(StoreRow(MarkCodec.self, Mark(id: 6, label: "changed"))),
      .remove(table: MarkCodec.tableName, id: 9),
    ])
    try store.commit([.removeEntry(id: count + 5), .removeEntry(id: count + 6)])
    try store.commit([.putEntry(sampleEntry(count / 2, kilograms: 90)), .removeEntry(id: 7)])
    try store.commit([.removeEntry(id: 5), .putEntry(sampleEntry(5, kilograms: 75))])
    store.close()
    return directory
  }

  enum Damage: CaseIterable {
    case flippedByte, cutShort, duplicatedRow, removedRow, swappedRows, badChecksum
    case rowOfAnotherFile, headerFlipped, journalLineGarbled, journalCut, manifestFlipped
    case marksFlipped, marksDeleted
  }

  /// Damages the store in `directory` as `damage` says, at a place `generator` picks.
  static func damage(
    _ damage: Damage, _ directory: TemporaryStoreDirectory, using generator: inout SeededGenerator
  ) {
    func flip(_ name: String, in range: Range<Int>? = nil) {
      // A file another damage removed or emptied stays so.
      guard var bytes = directory.bytes(name), !bytes.isEmpty else { return }
      let offset = Int.random(in: range ?? 0..<bytes.count, using: &generator)
      bytes[offset] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
      directory.write(name, bytes)
    }
    switch damage {
    case .flippedByte, .cutShort, .duplicatedRow, .removedRow, .swappedRows, .badChecksum,
      .rowOfAnotherFile:
      let table: StoreCheckVerifiedRowsTests.Damage =
        switch damage {
        case .flippedByte: .flippedByte
        case .cutShort: .cutShort
        case .duplicatedRow: .duplicatedRow
        case .removedRow: .removedRow
        case .swappedRows: .swappedRows
        case .badChecksum: .badChecksum
        default: .rowOfAnotherFile
        }
      StoreCheckVerifiedRowsTests.damage(table, directory, using: &generator)
    case .headerFlipped:
      let header = directory.bytes("entries.json")!.firstIndex(of: 0x0A)!
      flip("entries.json", in: 0..<header)
    case .journalLineGarbled:
      let journal = directory.bytes("journal.jsonl")!
      let header = journal.firstIndex(of: 0x0A)!
      flip("journal.jsonl", in: (header + 1)..<(journal.count - 1))
    case .journalCut:
      let journal = directory.bytes("journal.jsonl")!
      let header = journal.firstIndex(of: 0x0A)!
      let length = Int.random(in: (header + 1)..<(journal.count - 1), using: &generator)
      directory.write("journal.jsonl", Array(journal[..<length]))
    case .manifestFlipped: flip("weigh.json")
    case .marksFlipped: flip("marks.json")
    case .marksDeleted: try? FileManager.default.removeItem(atPath: directory.file("marks.json"))
    }
  }

  /// The repair of a copy of `damaged` that salvages as `rows` says: its report (without
  /// the copies' folder), or its error, and the files it leaves, `weigh.json`'s file stamps
  /// (a time) and checksum left out.
  static func repaired(
    _ damaged: TemporaryStoreDirectory, rows: StoreInspection.Rows
  ) -> (report: String, files: [String: [UInt8]]) {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    damaged.copy(to: directory)
    var report: String
    do {
      var repaired = try Store.repair(
        .directory(directory.path), tables: tables, lockTimeout: .seconds(5), rows: rows)
      repaired.copies = repaired.copies.map { _ in "copies" }
      report = "\(repaired)"
    } catch {
      report = "\(error)"
    }
    report = report.replacingOccurrences(of: directory.path, with: "STORE")
    var files: [String: [UInt8]] = [:]
    for name in ["entries.json", "marks.json", "journal.jsonl", "journal.ack"] {
      files[name] = directory.bytes(name)
    }
    if let manifest = directory.text("weigh.json") {
      let masked = manifest.replacingOccurrences(
        of: "modified [0-9.]+|\"crc\": ?\"[0-9a-f]{8}\"", with: "", options: .regularExpression)
      files["weigh.json"] = Array(masked.utf8)
    }
    return (report, files)
  }

  static func expectSameRepair(_ damaged: TemporaryStoreDirectory, _ comment: Comment) {
    let streamed = repaired(damaged, rows: .verified)
    let loaded = repaired(damaged, rows: .loaded)
    #expect(streamed.report == loaded.report, comment)
    for name in loaded.files.keys.sorted() {
      #expect(streamed.files[name] == loaded.files[name], "\(name): \(comment)")
    }
    #expect(streamed.files.keys.sorted() == loaded.files.keys.sorted(), comment)
  }

  @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
  func randomDamageIsRepairedAsTheRepairThatLoadsTheRows(_ seed: UInt64) throws {
    let sound = try Self.makeStore(entries: 40)
    defer { sound.remove() }
    var generator = SeededGenerator(seed: seed)
    for damage in Damage.allCases {
      for _ in 0..<4 {
        let directory = TemporaryStoreDirectory()
        defer { directory.remove() }
        sound.copy(to: directory)
        Self.damage(damage, directory, using: &generator)
        Self.expectSameRepair(directory, "\(damage), seed \(seed)")
      }
    }
  }

  @Test(arguments: [UInt64(11), 12, 13])
  func severalDamagesAtOnceAreRepairedAsTheRepairThatLoadsTheRows(_ seed: UInt64) throws {
    let sound = try Self.makeStore(entries: 60)
    defer { sound.remove() }
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<24 {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      sound.copy(to: directory)
      // The others first, then at most one to the rows of `entries.json`, which needs
      // them as the store wrote them.
      let rowDamages: [Damage] = [
        .flippedByte, .cutShort, .duplicatedRow, .removedRow, .swappedRows, .badChecksum,
        .rowOfAnotherFile,
      ]
      let others = Damage.allCases.filter { !rowDamages.contains($0) }
      var done = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
        others.randomElement(using: &generator)!
      }
      done.append(rowDamages.randomElement(using: &generator)!)
      for damage in done { Self.damage(damage, directory, using: &generator) }
      Self.expectSameRepair(directory, "\(done), seed \(seed)")
    }
  }

  /// A table file of 4 MiB or more: its pages are given back as it is read, and the rows are
  /// written 1 MiB at a time.
  @Test func aLargeTableIsRepairedAsTheRepairThatLoadsTheRows() throws {
    let sound = try Self.makeStore(entries: 40_000)
    defer { sound.remove() }
    #expect(sound.bytes("entries.json")!.count >= 4 << 20)
    var generator = SeededGenerator(seed: 23)
    for damage in [Damage.flippedByte, .swappedRows, .headerFlipped, .journalLineGarbled] {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      sound.copy(to: directory)
      Self.damage(damage, directory, using: &generator)
      Self.expectSameRepair(directory, "\(damage)")
    }
  }

  /// The repair keeps what the journal changed: the rows it put and removed over the file's,
  /// in id order, whatever row of the file was lost.
  @Test func theJournalsChangesAreMergedByID() throws {
    let directory = try Self.makeStore(entries: 40)
    defer { directory.remove() }
    var bytes = directory.bytes("entries.json")!
    // Row 30's line (the file's 31st) loses its checksum's match.
    let lines = bytes.indices.filter { bytes[$0] == 0x0A }
    bytes[lines[29] + 30] ^= 0x01
    directory.write("entries.json", bytes)
    _ = try Store.repair(
      .directory(directory.path), tables: Self.tables, lockTimeout: .seconds(5), rows: .verified)
    let store = try Store.open(.directory(directory.path), tables: Self.tables)
    defer { store.close() }
    let entries = try store.entries()
    let expected = [1] + Array(3...40).filter { $0 != 7 && $0 != 30 }
    #expect(entries.map(\.id) == expected)
    #expect(entries.first { $0.id == 3 }?.kilograms == 80)
    #expect(entries.first { $0.id == 5 }?.kilograms == 75)
    let marks = try store.rows(MarkCodec.self)
    #expect(marks.map(\.id) == [3, 4, 6, 12, 15, 18, 21, 24, 27, 30])
    #expect(marks.first { $0.id == 6 }?.label == "changed")
  }

  /// The rows and documents of the store in `directory`, once repaired again (as after a
  /// kill the user runs the repair again).
  private static func contents(
    afterRepairing directory: TemporaryStoreDirectory
  ) throws -> (entries: [Entry], marks: [Mark], settings: JSONValue?, next: Int) {
    _ = try Store.repair(
      .directory(directory.path), tables: tables, lockTimeout: .seconds(5), rows: .verified)
    let store = try Store.open(.directory(directory.path), tables: tables)
    defer { store.close() }
    return (
      try store.entries(), try store.rows(MarkCodec.self), store.documents["settings"],
      store.nextID()
    )
  }

  /// A kill at each of the repair's writes (the copies, each table's temporary file, its
  /// rename, `weigh.json`, the journal, the ack) leaves the store as it was or repaired: a
  /// repair run again then keeps what one repair keeps, and gives no number twice.
  @Test func aKillDuringTheRepairLeavesTheStoreAsBeforeOrRepaired() throws {
    let damaged = try Self.makeStore(entries: 40)
    defer { damaged.remove() }
    var generator = SeededGenerator(seed: 5)
    Self.damage(.flippedByte, damaged, using: &generator)
    Self.damage(.journalLineGarbled, damaged, using: &generator)
    let once = TemporaryStoreDirectory()
    defer { once.remove() }
    damaged.copy(to: once)
    let expected = try Self.contents(afterRepairing: once)
    let counter = WriteFaultInjector()
    let counted = TemporaryStoreDirectory()
    defer { counted.remove() }
    damaged.copy(to: counted)
    try WriteFaultInjector.$current.withValue(counter) {
      _ = try Store.repair(
        .directory(counted.path), tables: Self.tables, lockTimeout: .seconds(5), rows: .verified)
    }
    #expect(counter.count > 6)
    for crashAt in 0..<counter.count {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      damaged.copy(to: directory)
      let injector = WriteFaultInjector(remaining: crashAt)
      WriteFaultInjector.$current.withValue(injector) {
        _ = try? Store.repair(
          .directory(directory.path), tables: Self.tables, lockTimeout: .seconds(5),
          rows: .verified)
      }
      #expect(injector.crashed, "call \(crashAt)")
      let found = try Self.contents(afterRepairing: directory)
      #expect(found.entries == expected.entries, "call \(crashAt)")
      #expect(found.marks == expected.marks, "call \(crashAt)")
      #expect(found.settings == expected.settings, "call \(crashAt)")
      #expect(found.next >= expected.next, "call \(crashAt)")
    }
  }
}
