import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// `weigh check` verifies each table's rows as it reads them and holds none (chk21): every
/// damaged store must give the same findings, in the same order, as the check that loaded
/// the rows (`StoreInspection.Rows.loaded`, the oracle).
@Suite struct StoreCheckVerifiedRowsTests {
  /// A store of `count` entries in `entries.json`, then a journal that puts and removes ids
  /// the table has and ids it lacks.
  static func makeStore(entries count: Int) throws -> TemporaryStoreDirectory {
    let directory = TemporaryStoreDirectory()
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit(StoreChange.putEntries((1...count).map { sampleEntry($0) }))
    try store.compact()
    try store.commit([.putEntry(sampleEntry(3, kilograms: 80)), .removeEntry(id: 2)])
    try store.commit([.removeEntry(id: count + 100), .putEntry(sampleEntry(count + 5))])
    try store.commit([.removeEntry(id: count + 5), .removeEntry(id: count + 6)])
    store.close()
    return directory
  }

  static func findings(
    _ directory: TemporaryStoreDirectory, rows: StoreInspection.Rows
  ) -> [StoreFinding] {
    Store.check(
      .directory(directory.path), tables: [],
      largeRecordBytes: CompactionPolicy.standard.largeRecordBytes, rows: rows)
  }

  /// The row lines of `entries.json` (between its first and last line).
  static func rowLines(_ directory: TemporaryStoreDirectory) -> Range<Int> {
    let lines = directory.text("entries.json")!.split(
      separator: "\n", omittingEmptySubsequences: false)
    // The first line is the header, the last two the count and sum's line and "".
    return 1..<(lines.count - 2)
  }

  enum Damage: CaseIterable {
    case flippedByte, duplicatedRow, removedRow, swappedRows, badChecksum, cutShort
    case rowOfAnotherFile
  }

  /// Damages the store's `entries.json` as `damage` says, at a place `generator` picks.
  static func damage(
    _ damage: Damage, _ directory: TemporaryStoreDirectory, using generator: inout SeededGenerator
  ) {
    var bytes = directory.bytes("entries.json")!
    var lines = String(decoding: bytes, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
    let rows = rowLines(directory)
    // Not the last row: its line has no comma, so moving it says nothing more.
    let row = Int.random(in: rows.lowerBound..<(rows.upperBound - 1), using: &generator)
    switch damage {
    case .flippedByte:
      let offset = Int.random(in: 0..<bytes.count, using: &generator)
      bytes[offset] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
      directory.write("entries.json", bytes)
      return
    case .cutShort:
      let length = Int.random(in: 0..<bytes.count, using: &generator)
      directory.write("entries.json", Array(bytes[..<length]))
      return
    case .duplicatedRow: lines.insert(lines[row], at: row)
    case .removedRow: lines.remove(at: row)
    case .swappedRows: lines.swapAt(row, row + 1)
    case .badChecksum:
      // One hex digit of the row's checksum, changed to another.
      var characters = Array(lines[row])
      let index = 8 + Int.random(in: 0..<8, using: &generator)
      characters[index] = characters[index] == "0" ? "1" : "0"
      lines[row] = String(characters)
    case .rowOfAnotherFile:
      // A sound row line (its own checksum) with the id of the row before.
      let id = row - 1
      var writer = JSONWriter()
      EntryCodec.encode(sampleEntry(max(id, 1), kilograms: 99.5), into: &writer)
      var line = JSONWriter()
      var tally = TableFileTally()
      writer.bytes.withUnsafeBufferPointer { _ = tally.writeRowLine($0, into: &line) }
      lines[row] = String(decoding: line.bytes.dropFirst(1), as: UTF8.self) + ","
    }
    directory.write("entries.json", Array(lines.joined(separator: "\n").utf8))
  }

  @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
  func randomDamageGivesTheFindingsOfTheCheckThatLoadsTheRows(_ seed: UInt64) throws {
    let sound = try Self.makeStore(entries: 40)
    defer { sound.remove() }
    #expect(Self.findings(sound, rows: .verified) == [])
    var generator = SeededGenerator(seed: seed)
    for damage in Damage.allCases {
      for _ in 0..<6 {
        let directory = TemporaryStoreDirectory()
        defer { directory.remove() }
        sound.copy(to: directory)
        Self.damage(damage, directory, using: &generator)
        let verified = Self.findings(directory, rows: .verified)
        #expect(verified == Self.findings(directory, rows: .loaded), "\(damage), seed \(seed)")
        if damage != .flippedByte {
          #expect(verified.contains { $0.severity == .error }, "\(damage), seed \(seed)")
        }
      }
    }
  }

  /// A table file of 4 MiB or more is loaded in two halves on two threads, and read again
  /// from its start when they fail; the check that holds nothing reads it once.
  @Test func aTableReadInHalvesByTheLoadGivesTheSameFindings() throws {
    let sound = try Self.makeStore(entries: 40_000)
    defer { sound.remove() }
    #expect(sound.bytes("entries.json")!.count >= 4 << 20)
    #expect(Self.findings(sound, rows: .verified) == [])
    var generator = SeededGenerator(seed: 21)
    for damage in Damage.allCases {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      sound.copy(to: directory)
      Self.damage(damage, directory, using: &generator)
      let verified = Self.findings(directory, rows: .verified)
      #expect(verified == Self.findings(directory, rows: .loaded), "\(damage)")
      if damage != .flippedByte { #expect(verified.contains { $0.severity == .error }) }
    }
  }

  @Test func theDamageTestsKindsGiveTheSameFindingsAndOpenRefusesWithTheFirst() throws {
    var generator = SeededGenerator(seed: 99)
    for damage in Damage.allCases where damage != .flippedByte {
      let directory = try Self.makeStore(entries: 12)
      defer { directory.remove() }
      let path = directory.file("entries.json")
      let written = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate]
      Self.damage(damage, directory, using: &generator)
      // The clock behind file times moves in ticks of milliseconds: a damage of the same
      // size written in the tick weigh wrote the file keeps its stamp; one by hand never does.
      if let written = written as? Date {
        try FileManager.default.setAttributes(
          [.modificationDate: written.addingTimeInterval(2)], ofItemAtPath: path)
      }
      let verified = Self.findings(directory, rows: .verified)
      #expect(verified == Self.findings(directory, rows: .loaded))
      // The file was changed outside weigh: opening reads it whole and refuses it.
      let error = #expect(throws: StoreError.self) {
        try Store.open(.directory(directory.path), compaction: .manual)
      }
      if let error { #expect(verified.first == StoreFinding(error), "\(damage)") }
    }
  }

  @Test func theVerifiedCheckHoldsNoRow() throws {
    let directory = try Self.makeStore(entries: 30)
    defer { directory.remove() }
    for rows in [StoreInspection.Rows.verified, .loaded] {
      let table = TableStorage<EntryCodec>(empty: true)
      let inspection = StoreInspection.inspect(
        directory: directory.path, tables: [EntryCodec.tableName: table], rows: rows)
      #expect(inspection.errors.isEmpty)
      #expect(table.isLoaded == (rows == .loaded))
      #expect(inspection.journal.transactions.count == 3)
    }
  }

  @Test func aTableThatDisappearsIsSaidSoByBoth() throws {
    let directory = try Self.makeStore(entries: 5)
    defer { directory.remove() }
    for rows in [StoreInspection.Rows.verified, .loaded] {
      let table = TableStorage<EntryCodec>(empty: true)
      try table.readHeader(directory: directory.path)
      try FileManager.default.moveItem(
        atPath: directory.file("entries.json"), toPath: directory.file("aside"))
      defer {
        try? FileManager.default.moveItem(
          atPath: directory.file("aside"), toPath: directory.file("entries.json"))
      }
      let error = #expect(throws: StoreError.self) {
        if rows == .verified {
          try table.verifyFile(directory: directory.path)
        } else {
          try table.load(directory: directory.path)
        }
      }
      #expect(error?.message.hasPrefix("the table file disappeared") == true)
    }
  }
}
