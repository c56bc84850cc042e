import Foundation
import Testing

@testable import WeighKit

@Suite struct StoreTests {
  @Test func memoryStoreAnswersLikeADirectoryStoreAndWritesNothing() throws {
    let store = try Store.open(.memory)
    try store.commit([
      .putEntry(sampleEntry(1)), .putEntry(sampleEntry(3)),
      .setDocument(name: "settings", value: ["unit": "kg"]),
    ])
    try store.commit([.putEntry(sampleEntry(2)), .removeEntry(id: 1)])
    #expect(try store.entries().map(\.id) == [2, 3])
    #expect(store.documents["settings"] == ["unit": "kg"])
    #expect(store.nextID() == 4)
    #expect(store.check().isEmpty)
  }

  @Test func changesSurviveClosingAndReopening() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([.putEntry(sampleEntry(1)), .setDocument(name: "app", value: ["anchor": 7])])
    try store.commit([.putEntry(sampleEntry(2, kilograms: 0.1 + 0.2))])
    try store.commit([.putEntry(sampleEntry(1, kilograms: 55.5)), .removeDocument(name: "app")])
    try store.commit([.setDocument(name: "settings", value: ["goal": 65.25, "name": "Zoë"])])
    store.close()

    let reopened = try Store.open(.directory(directory.path))
    #expect(
      try reopened.entries() == [
        sampleEntry(1, kilograms: 55.5), sampleEntry(2, kilograms: 0.1 + 0.2),
      ])
    #expect(reopened.documents == ["settings": ["goal": 65.25, "name": "Zoë"]])
    #expect(reopened.nextID() == 3)
    let journalLines = directory.text("journal.jsonl")!.split(separator: "\n")
    #expect(journalLines.count == 5)
    #expect(journalLines[0].hasPrefix(#"{"format":"weigh-journal","version":2,"base":0,"crc":""#))
    #expect(
      journalLines.dropFirst().allSatisfy { $0.hasSuffix("\"}") && $0.contains(",\"crc\":\"") })
    #expect(reopened.check().isEmpty)
  }

  @Test func documentsSetToTheValueTheyHaveWriteNothing() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([.setDocument(name: "app", value: ["anchor": 7])])
    let before = directory.text("journal.jsonl")
    try store.commit([.setDocument(name: "app", value: ["anchor": 7])])
    try store.commit([.removeDocument(name: "settings")])
    #expect(directory.text("journal.jsonl") == before)
    // Within one commit, a value is compared with the one set before it in that commit.
    try store.commit([
      .setDocument(name: "app", value: ["anchor": 8]),
      .setDocument(name: "app", value: ["anchor": 7]),
    ])
    #expect(directory.text("journal.jsonl") != before)
    #expect(store.documents["app"] == ["anchor": 7])
    store.close()
    #expect(try Store.open(.directory(directory.path)).documents["app"] == ["anchor": 7])
  }

  @Test func removedIdsAreNotReused() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([.putEntry(sampleEntry(1)), .putEntry(sampleEntry(2))])
    try store.commit([.removeEntry(id: 2)])
    try store.compact()
    store.close()
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries().map(\.id) == [1])
    #expect(reopened.nextID() == 3)
  }

  @Test func compactionWritesSnapshotsAndEmptiesTheJournal() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit([.putEntry(sampleEntry(2)), .putEntry(sampleEntry(1))])
    try store.commit([.setDocument(name: "settings", value: ["unit": "lb"])])
    try store.compact()
    #expect(directory.bytes("journal.jsonl") == StoreJournal.header(base: 2))
    let table = directory.text("entries.json")!
    #expect(
      table.hasPrefix("{\"format\":\"weigh-entries\",\"version\":1,\"sequence\":2,\"crc\":\""))
    #expect(table.contains("\"rows\":[\n{\"crc\":\""))
    #expect(table.contains("\n],\"count\":2,\"sum\":\""))
    #expect(table.hasSuffix("\"}\n"))
    #expect(table.split(separator: "\n").count == 4)
    #expect(directory.text("weigh.json")!.contains("\"sequence\": 2"))
    try store.commit([.putEntry(sampleEntry(3))])
    store.close()

    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries().map(\.id) == [1, 2, 3])
    #expect(reopened.documents["settings"] == ["unit": "lb"])
    #expect(reopened.nextID() == 4)
  }

  @Test func compactsByItselfWhenTheJournalOutgrowsThePolicy() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let policy = CompactionPolicy(minimumJournalBytes: 2_000, maximumJournalBytes: 4_000)
    let store = try Store.open(.directory(directory.path), compaction: policy)
    for id in 1...300 { try store.commit([.putEntry(sampleEntry(id))]) }
    #expect(directory.bytes("journal.jsonl")!.count < 4_000)
    #expect(store.lastCompactionError == nil)
    store.close()
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == (1...300).map { sampleEntry($0) })
    #expect(reopened.check().isEmpty)
  }

  @Test func aTornLastLineIsIgnoredThenCutOffBeforeTheNextAppend() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([.putEntry(sampleEntry(1))])
    store.close()
    let acknowledged = directory.bytes("journal.jsonl")!
    directory.write(
      "journal.jsonl",
      acknowledged + Array(#"{"seq":2,"changes":[{"put":"entries","row":{"id":2,"#.utf8))

    let findings = Store.check(.directory(directory.path))
    #expect(findings.map(\.severity) == [.note])
    #expect(findings.first?.location.line == 3)

    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries().map(\.id) == [1])
    // The torn commit's number 2 was never shown, and is not given again.
    #expect(reopened.nextID() == 3)
    try reopened.commit([.putEntry(sampleEntry(2))])
    let journal = directory.text("journal.jsonl")!
    #expect(
      journal.hasPrefix(
        String(decoding: acknowledged, as: UTF8.self)
          + #"{"seq":2,"changes":[{"put":"entries","row":{"id":2,"at""#))
    #expect(journal.hasSuffix("\"}\n"))
    // The torn bytes were kept aside, not cut off.
    let aside = try FileManager.default.contentsOfDirectory(atPath: directory.file("damaged"))
    #expect(aside.count == 1)
    #expect(
      directory.text("damaged/" + aside[0])
        == #"{"seq":2,"changes":[{"put":"entries","row":{"id":2,"#)
    #expect(reopened.recoveryWarnings.count == 1)
    reopened.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
    #expect(try Store.open(.directory(directory.path)).entries().map(\.id) == [1, 2])
  }

  @Test func aCorruptMiddleLineFailsWithItsPositionAndLeavesEveryFileUntouched() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    for id in 1...3 { try store.commit([.putEntry(sampleEntry(id))]) }
    store.close()
    var lines = directory.text("journal.jsonl")!.components(separatedBy: "\n")
    lines[2] = lines[2].replacingOccurrences(of: #""kg":"#, with: #""kg":x"#)
    directory.write("journal.jsonl", Array(lines.joined(separator: "\n").utf8))
    let before = directory.snapshot()

    // The checksum finds the change before the JSON is read: the position is the record's.
    let error = #expect(throws: StoreError.self) { try Store.open(.directory(directory.path)) }
    #expect(error?.file == directory.file("journal.jsonl"))
    #expect(error?.location?.line == 3)
    #expect(error?.location?.column == 1)
    #expect(error?.message.hasPrefix("the record does not match its checksum") == true)
    #expect(directory.snapshot() == before)
    let findings = Store.check(.directory(directory.path))
    #expect(findings == [StoreFinding(error!)])
    #expect(directory.snapshot() == before)
  }

  /// A store whose four entries compaction wrote to entries.json.
  private func compactedStoreOfFourEntries() throws -> TemporaryStoreDirectory {
    let directory = TemporaryStoreDirectory()
    let store = try Store.open(.directory(directory.path))
    for id in 1...4 { try store.commit([.putEntry(sampleEntry(id))]) }
    try store.compact()
    store.close()
    return directory
  }

  @Test func aTableDamagedOutsideWeighIsFoundAtOpenAndIsNeverOverwritten() throws {
    let directory = try compactedStoreOfFourEntries()
    defer { directory.remove() }
    var lines = directory.text("entries.json")!.components(separatedBy: "\n")
    lines[3] = lines[3].replacingOccurrences(of: "\"origin\"", with: "\"origin\"\"")
    directory.write("entries.json", Array(lines.joined(separator: "\n").utf8))
    let before = directory.snapshot()

    // The file is not the one compaction wrote, so opening reads it whole, and refuses it.
    let error = #expect(throws: StoreError.self) {
      try Store.open(
        .directory(directory.path),
        compaction: CompactionPolicy(minimumJournalBytes: 1, maximumJournalBytes: 1))
    }
    #expect(error?.kind == .corrupt)
    #expect(error?.file == directory.file("entries.json"))
    #expect(error?.location?.line == 4)
    #expect(directory.snapshot() == before)
    #expect(Store.check(.directory(directory.path)).map(\.location.line) == [4])
  }

  @Test func aTableCopiedOutsideWeighIsReadOnceAndItsStampRecorded() throws {
    let directory = try compactedStoreOfFourEntries()
    defer { directory.remove() }
    let recorded = directory.text("weigh.json")!
    // The same bytes with another modification time, as a copy or a restore would leave.
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
      ofItemAtPath: directory.file("entries.json"))
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries().map(\.id) == [1, 2, 3, 4])
    reopened.close()
    let updated = directory.text("weigh.json")!
    #expect(updated != recorded)
    #expect(updated.contains("\"stamp\""))
    // Recorded: the next open finds the file as it was and leaves weigh.json alone.
    try Store.open(.directory(directory.path)).close()
    #expect(directory.text("weigh.json") == updated)
  }

  @Test func aNewerFormatSaysSoAndIsLeftAlone() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    try Store.open(.directory(directory.path)).close()
    let manifest = directory.text("weigh.json")!.replacingOccurrences(
      of: "\"version\": 2", with: "\"version\": 3")
    directory.write("weigh.json", Array(manifest.utf8))
    // A newer weigh may journal changes this one cannot parse; the version is reported first.
    directory.write(
      "journal.jsonl",
      directory.bytes("journal.jsonl")!
        + Array((#"{"seq":1,"changes":[{"merge":"x"}]}"# + "\n").utf8)
    )
    let before = directory.snapshot()
    let error = #expect(throws: StoreError.self) { try Store.open(.directory(directory.path)) }
    #expect(error?.kind == .newerFormat)
    #expect(error?.file == directory.file("weigh.json"))
    #expect(error?.location?.line == 3)
    #expect(
      error?.message.hasPrefix("written by a newer weigh: format version 3, this weigh reads 2")
        == true)
    #expect(directory.snapshot() == before)
  }

  @Test func aNewerTableFormatIsFoundAtOpen() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([.putEntry(sampleEntry(1))])
    try store.compact()
    store.close()
    let table = directory.text("entries.json")!.replacingOccurrences(
      of: "\"version\":1", with: "\"version\":3")
    directory.write("entries.json", Array(table.utf8))
    let error = #expect(throws: StoreError.self) { try Store.open(.directory(directory.path)) }
    #expect(error?.kind == .newerFormat)
    #expect(
      error?.description
        == directory.file("entries.json")
        + ":1:37: error: written by a newer weigh: format version 3, this weigh reads 1; use a newer weigh with this store"
    )
  }

  @Test func aStoreWithDataButNoHeaderIsNotRecreated() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([.putEntry(sampleEntry(1))])
    store.close()
    try FileManager.default.removeItem(atPath: directory.file("weigh.json"))
    let error = #expect(throws: StoreError.self) { try Store.open(.directory(directory.path)) }
    #expect(error?.kind == .corrupt)
    #expect(directory.bytes("weigh.json") == nil)
  }

  @Test func aChangeThatCannotBeStoredWritesNothing() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    let before = directory.snapshot()
    let error = #expect(throws: StoreError.self) {
      try store.commit([.putEntry(sampleEntry(1)), .setDocument(name: "x", value: .number(.nan))])
    }
    #expect(error?.kind == .invalidChange)
    #expect(throws: StoreError.self) { try store.commit([.remove(table: "samples", id: 1)]) }
    #expect(directory.snapshot() == before)
    #expect(try store.entries().isEmpty)
  }

  @Test func aSecondOpenWaitsThenNamesTheHolder() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let first = try Store.open(.directory(directory.path))
    try first.commit([.putEntry(sampleEntry(1))])
    let error = #expect(throws: StoreError.self) {
      try Store.open(.directory(directory.path), lockTimeout: .milliseconds(100))
    }
    #expect(error?.kind == .locked)
    #expect(
      error?.message.hasPrefix("store \(directory.path) is in use by process \(getpid()) (") == true
    )
    first.close()
    let second = try Store.open(.directory(directory.path), lockTimeout: .milliseconds(100))
    #expect(try second.entries().map(\.id) == [1])
  }

  @Test func theDefaultLocationFollowsTheEnvironment() {
    #expect(
      StoreLocation.resolve(environment: ["WEIGH_STORE": "/s", "XDG_DATA_HOME": "/d", "HOME": "/h"])
        == .directory("/s"))
    #expect(
      StoreLocation.resolve(environment: ["WEIGH_STORE": "", "XDG_DATA_HOME": "/d/", "HOME": "/h"])
        == .directory("/d/weigh"))
    #expect(
      StoreLocation.resolve(environment: ["HOME": "/h"]) == .directory("/h/.local/share/weigh"))
  }

  @Test func createsTheDirectoryAndItsParentsOnFirstUse() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let nested = directory.file("a/b/store")
    let store = try Store.open(.directory(nested))
    try store.commit([.putEntry(sampleEntry(1))])
    store.close()
    #expect(try Store.open(.directory(nested)).entries().count == 1)
  }
}
