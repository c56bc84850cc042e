import Foundation
import Testing

@testable import WeighKit

/// Every kind of damage the store's checksums and `journal.ack` must find: opening refuses
/// it naming the file and line, `check` reports the same error, nothing is written, and
/// `repair` makes the store readable again without giving a number twice.
@Suite struct StoreDamageTests {
  enum Damage: String, CaseIterable, CustomTestStringConvertible {
    case journalDeleted
    case journalEmptied
    case journalCutInsideARecord
    case journalLastRecordRemoved
    case journalMiddleRecordRemoved
    case journalDigitChanged
    case journalHeaderChanged
    case manifestDigitChanged
    case manifestChecksumRemoved
    case tableRowDigitChanged
    case tableRowRemoved
    case tableHeaderChanged
    case ackDeleted
    case ackDigitChanged
    case journalIsADirectory
    case journalReplacedByAnOlderOne
    case tableDeleted

    var testDescription: String { rawValue }
  }

  /// A store with four entries in `entries.json` (compacted) and three transactions in the
  /// journal after it: entries 5 and 6, and a settings document.
  private func makeStore() throws -> TemporaryStoreDirectory {
    let directory = TemporaryStoreDirectory()
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit([.putEntry(sampleEntry(1)), .putEntry(sampleEntry(2))])
    try store.commit([.putEntry(sampleEntry(3)), .putEntry(sampleEntry(4))])
    try store.compact()
    try store.commit([.putEntry(sampleEntry(5))])
    try store.commit([.putEntry(sampleEntry(6))])
    try store.commit([.setDocument(name: "settings", value: ["unit": "lb"])])
    store.close()
    return directory
  }

  private func lines(_ directory: TemporaryStoreDirectory, _ name: String) -> [String] {
    directory.text(name)!.components(separatedBy: "\n")
  }

  private func write(_ directory: TemporaryStoreDirectory, _ name: String, _ lines: [String]) {
    let path = directory.file(name)
    let before = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    directory.write(name, Array(lines.joined(separator: "\n").utf8))
    // The clock behind file times moves in ticks of milliseconds, so an edit right after
    // weigh wrote the file can keep its time; an edit by hand never does.
    if let before {
      try? FileManager.default.setAttributes(
        [.modificationDate: before.addingTimeInterval(2)], ofItemAtPath: path)
    }
  }

  /// Damages the store; returns the file and line the error must name.
  private func damage(
    _ damage: Damage, _ directory: TemporaryStoreDirectory
  ) throws -> (file: String, line: Int?) {
    switch damage {
    case .journalDeleted:
      try FileManager.default.removeItem(atPath: directory.file("journal.jsonl"))
      return ("journal.jsonl", nil)
    case .journalEmptied:
      directory.write("journal.jsonl", [])
      return ("journal.jsonl", 1)
    case .journalCutInsideARecord:
      let bytes = directory.bytes("journal.jsonl")!
      directory.write("journal.jsonl", Array(bytes.dropLast(40)))
      return ("journal.jsonl", 4)
    case .journalLastRecordRemoved:
      var text = lines(directory, "journal.jsonl")
      text.remove(at: 3)
      write(directory, "journal.jsonl", text)
      return ("journal.jsonl", 4)
    case .journalMiddleRecordRemoved:
      var text = lines(directory, "journal.jsonl")
      text.remove(at: 2)
      write(directory, "journal.jsonl", text)
      return ("journal.jsonl", 3)
    case .journalDigitChanged:
      var text = lines(directory, "journal.jsonl")
      text[1] = text[1].replacingOccurrences(of: "\"id\":5", with: "\"id\":7")
      write(directory, "journal.jsonl", text)
      return ("journal.jsonl", 2)
    case .journalHeaderChanged:
      var text = lines(directory, "journal.jsonl")
      text[0] = text[0].replacingOccurrences(of: "\"base\":2", with: "\"base\":1")
      write(directory, "journal.jsonl", text)
      return ("journal.jsonl", 1)
    case .manifestDigitChanged:
      let text = directory.text("weigh.json")!.replacingOccurrences(
        of: "\"nextID\": 5", with: "\"nextID\": 3")
      directory.write("weigh.json", Array(text.utf8))
      return ("weigh.json", nil)
    case .manifestChecksumRemoved:
      var text = lines(directory, "weigh.json")
      let index = text.firstIndex { $0.contains("\"crc\"") }!
      text.remove(at: index)
      text[index - 1] = String(text[index - 1].dropLast())
      write(directory, "weigh.json", text)
      return ("weigh.json", nil)
    case .tableRowDigitChanged:
      var text = lines(directory, "entries.json")
      text[2] = text[2].replacingOccurrences(of: "\"id\":2", with: "\"id\":9")
      write(directory, "entries.json", text)
      return ("entries.json", 3)
    case .tableRowRemoved:
      var text = lines(directory, "entries.json")
      text.remove(at: 2)
      write(directory, "entries.json", text)
      return ("entries.json", 5)
    case .tableHeaderChanged:
      var text = lines(directory, "entries.json")
      text[0] = text[0].replacingOccurrences(of: "\"sequence\":2", with: "\"sequence\":3")
      write(directory, "entries.json", text)
      return ("entries.json", 1)
    case .ackDeleted:
      try FileManager.default.removeItem(atPath: directory.file("journal.ack"))
      return ("journal.ack", nil)
    case .ackDigitChanged:
      let text = directory.text("journal.ack")!.replacingOccurrences(
        of: "\"seq\":5", with: "\"seq\":4")
      directory.write("journal.ack", Array(text.utf8))
      return ("journal.ack", 1)
    case .journalIsADirectory:
      try FileManager.default.removeItem(atPath: directory.file("journal.jsonl"))
      try FileManager.default.createDirectory(
        atPath: directory.file("journal.jsonl"), withIntermediateDirectories: false)
      return ("journal.jsonl", nil)
    case .tableDeleted:
      try FileManager.default.removeItem(atPath: directory.file("entries.json"))
      return ("entries.json", nil)
    case .journalReplacedByAnOlderOne:
      // The journal as the compaction before last left it: only its header.
      directory.write("journal.jsonl", StoreJournal.header(base: 0))
      return ("journal.jsonl", 1)
    }
  }

  @Test(arguments: Damage.allCases)
  func damageIsRefusedByOpenAndReportedByCheckWithNothingWritten(_ kind: Damage) throws {
    let directory = try makeStore()
    defer { directory.remove() }
    let expected = try damage(kind, directory)
    var before = directory.snapshot()
    before["weigh.lock"] = nil

    let error = #expect(throws: StoreError.self) { try Store.open(.directory(directory.path)) }
    #expect(error?.kind == .corrupt, "\(String(describing: error))")
    #expect(error?.file == directory.file(expected.file), "\(String(describing: error))")
    if let line = expected.line {
      #expect(error?.location?.line == line, "\(String(describing: error))")
    }
    var after = directory.snapshot()
    after["weigh.lock"] = nil
    #expect(after == before, "the damaged store was written to")

    // One validation: check reports what open refused, as an error.
    let findings = Store.check(.directory(directory.path))
    #expect(findings.contains { $0.severity == .error && $0.file == error?.file })
    if let error { #expect(findings.contains(StoreFinding(error))) }
  }

  @Test(arguments: Damage.allCases)
  func repairKeepsWhatIsIntactAndNeverGivesANumberTwice(_ kind: Damage) throws {
    let directory = try makeStore()
    defer { directory.remove() }
    _ = try damage(kind, directory)
    let original = directory.snapshot()

    let report = try Store.repair(.directory(directory.path))
    #expect(report.copies != nil)
    #expect(!report.problems.isEmpty)
    // The copies are the files as they were.
    let copies = report.copies!
    for name in ["weigh.json", "entries.json", "journal.ack"] {
      if let bytes = original[name], !(kind == .journalIsADirectory && name == "journal.jsonl") {
        #expect(
          FileManager.default.contents(atPath: copies + "/" + name).map(Array.init) == bytes,
          "\(name)")
      }
    }
    #expect(Store.check(.directory(directory.path)).filter { $0.severity == .error }.isEmpty)

    let store = try Store.open(.directory(directory.path))
    let ids = try store.entries().map(\.id)
    // What the snapshot held survives every damage to the journal.
    if ![.tableRowDigitChanged, .tableRowRemoved, .tableHeaderChanged, .tableDeleted].contains(kind)
    {
      #expect(Set([1, 2, 3, 4]).isSubset(of: Set(ids)), "\(ids)")
    }
    #expect(store.nextID() >= 7, "numbers 5 and 6 were given; they must not be given again")
    try store.commit([.putEntry(sampleEntry(store.nextID()))])
    store.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  @Test func repairOfASoundStoreChangesNothing() throws {
    let directory = try makeStore()
    defer { directory.remove() }
    var before = directory.snapshot()
    before["weigh.lock"] = nil
    let report = try Store.repair(.directory(directory.path))
    #expect(report == StoreRepairReport())
    var after = directory.snapshot()
    after["weigh.lock"] = nil
    #expect(after == before)
  }

  @Test func aTornLastRecordIsMovedAsideOnceAndNumbersGoOn() throws {
    let directory = try makeStore()
    defer { directory.remove() }
    let torn = Array(#"{"seq":6,"changes":[{"put":"entries","row":{"id":7,"at":"#.utf8)
    directory.write("journal.jsonl", directory.bytes("journal.jsonl")! + torn)
    let findings = Store.check(.directory(directory.path))
    #expect(findings.map(\.severity) == [.note])
    #expect(findings.first?.location.line == 5)

    let store = try Store.open(.directory(directory.path))
    #expect(store.recoveryWarnings.count == 1)
    #expect(store.recoveryWarnings.first?.contains("journal.jsonl:5:1") == true)
    #expect(try store.entries().map(\.id) == [1, 2, 3, 4, 5, 6])
    // The torn commit's number 7 was never shown, and is not given again.
    #expect(store.nextID() == 8)
    store.close()
    let aside = try FileManager.default.contentsOfDirectory(atPath: directory.file("damaged"))
    #expect(aside.count == 1 && aside[0].hasPrefix("journal-torn-"))
    #expect(directory.bytes("damaged/" + aside[0]) == torn)
    // Said once: the next open finds a clean journal.
    let again = try Store.open(.directory(directory.path))
    #expect(again.recoveryWarnings.isEmpty)
    #expect(again.nextID() == 8)
    again.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  /// A copy kept aside is written a piece at a time from a slice of a larger buffer (a torn
  /// record is the end of the journal's bytes): the file holds exactly the slice's bytes,
  /// across several pieces and a last short one; an existing file is not replaced.
  @Test func aCopyKeptAsideHoldsTheSliceByteForByte() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    var generator = SystemRandomNumberGenerator()
    let buffer = (0..<(StoreFileSystem.createPiece * 5 / 2 + 1000)).map { _ in
      UInt8.random(in: 0...255, using: &generator)
    }
    let slice = buffer[777...]
    try StoreFileSystem.create(directory.file("aside"), with: slice)
    #expect(directory.bytes("aside") == Array(slice))
    #expect(throws: StoreError.self) {
      try StoreFileSystem.create(directory.file("aside"), with: buffer[...])
    }
    #expect(directory.bytes("aside") == Array(slice))
    try StoreFileSystem.create(directory.file("empty"), with: [])
    #expect(directory.bytes("empty") == [])
  }

  @Test func aCompleteRecordBeyondTheAckIsKept() throws {
    // A kill between the journal's fdatasync and the ack's write: the commit is durable.
    let directory = try makeStore()
    defer { directory.remove() }
    let ack = directory.bytes("journal.ack")!
    let store = try Store.open(.directory(directory.path))
    try store.commit([.putEntry(sampleEntry(7))])
    store.close()
    directory.write("journal.ack", ack)
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries().map(\.id) == [1, 2, 3, 4, 5, 6, 7])
    #expect(reopened.recoveryWarnings.isEmpty)
  }

  @Test func aStoreOfTheFormatBeforeChecksumsOpensAndIsUpgradedAtItsFirstWrite() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    StoreCrashPropertyTests.writeFormatOneStore(directory)
    #expect(
      Store.check(.directory(directory.path)).map(\.severity) == [.note],
      "an older store is sound; check says it will be upgraded")
    var before = directory.snapshot()
    let store = try Store.open(.directory(directory.path))
    #expect(try store.entries() == [sampleEntry(2)])
    #expect(store.documents == ["settings": ["unit": "st"]])
    store.close()
    var after = directory.snapshot()
    before["weigh.lock"] = nil
    after["weigh.lock"] = nil
    #expect(after == before, "reading an older store writes nothing")

    let writer = try Store.open(.directory(directory.path))
    try writer.commit([.putEntry(sampleEntry(3))])
    writer.close()
    #expect(directory.text("weigh.json")!.contains("\"version\": 2"))
    #expect(directory.text("entries.json")!.contains("\"crc\""))
    #expect(Store.check(.directory(directory.path)).isEmpty)
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == [sampleEntry(2), sampleEntry(3)])
    #expect(reopened.documents == ["settings": ["unit": "st"]])
    #expect(reopened.nextID() == 4)
  }

  @Test func aReadOnlyJournalStillReadsAndRefusesWrites() throws {
    // Root may write any file, so the read-only journal is what the store was told.
    guard getuid() != 0 else { return }
    let directory = try makeStore()
    defer { directory.remove() }
    chmod(directory.file("journal.jsonl"), 0o444)
    let store = try Store.open(.directory(directory.path))
    #expect(try store.entries().count == 6)
    let error = #expect(throws: StoreError.self) {
      try store.commit([.putEntry(sampleEntry(7))])
    }
    #expect(error?.message.contains("read-only") == true)
  }
}
