import Foundation
import Testing

@testable import WeighKit

/// An import's commit: its puts share one array (`StoreChange.putEntries`), which a table
/// without rows takes as its own, and its journal record is written in pieces as it is
/// encoded. Neither may change a byte of what reaches the disk, and a crash in the middle of
/// a record written in pieces must leave the store as it was before the commit.
@Suite struct StoreLargeImportTests {
  /// Entries numbered `ids`, one a minute, as an import makes them.
  static func imported(_ ids: some Sequence<Int>) -> [Entry] {
    ids.map { id in
      Entry(
        id: id, instant: 1_420_070_400 + Int64(id) * 60, kilograms: 70 + Double(id % 97) / 10,
        origin: .import, source: "Withings", note: id % 5 == 0 ? "row \(id)" : nil,
        fileTime: 1_420_070_400 + Int64(id) * 60)
    }
  }

  /// Commits `changes` to a new store in `directory` as one command does (one batch), and
  /// returns the store, still open.
  static func commitAsACommand(
    _ changes: [StoreChange], before: [StoreChange] = [], in directory: TemporaryStoreDirectory,
    policy: CompactionPolicy = .manual, pieceBytes: Int = 1 << 20
  ) throws -> Store {
    let store = try Store.open(.directory(directory.path), compaction: policy)
    store.journalPieceBytes = pieceBytes
    if !before.isEmpty { try store.commit(before) }
    store.beginBatch()
    try store.commit(changes)
    try store.endBatch()
    return store
  }

  @Test(arguments: [false, true])
  func aRunOfPutsWritesWhatOnePutPerEntryWrites(tableHasRows: Bool) throws {
    let entries = Self.imported(101...400)
    let before = tableHasRows ? Self.imported(1...100).map(StoreChange.putEntry) : []
    let single = TemporaryStoreDirectory()
    let run = TemporaryStoreDirectory()
    defer {
      single.remove()
      run.remove()
    }
    let one = try Self.commitAsACommand(
      entries.map(StoreChange.putEntry), before: before, in: single)
    let shared = try Self.commitAsACommand(
      StoreChange.putEntries(entries) + [.setDocument(name: "app", value: ["n": .integer(1)])],
      before: before, in: run)
    // The run's table holds the same rows, in memory and once read again.
    let expected = (tableHasRows ? Self.imported(1...100) : []) + entries
    #expect(try shared.entries() == expected)
    #expect(try one.entries() == expected)
    // The journal holds the same record but for the document the run's commit added.
    let singleLines = try #require(single.text("journal.jsonl")).split(separator: "\n")
    let runLines = try #require(run.text("journal.jsonl")).split(separator: "\n")
    #expect(runLines.count == singleLines.count)
    let record = try #require(singleLines.last)
    let close = try #require(record.range(of: "]", options: .backwards))
    let prefix = record[..<close.lowerBound]
    #expect(runLines.last?.hasPrefix(prefix + ",{\"set\":\"app\"") == true)
    try one.compact()
    try shared.compact()
    #expect(single.bytes("entries.json") == run.bytes("entries.json"))
    one.close()
    shared.close()
    let reopened = try Store.open(.directory(run.path))
    #expect(try reopened.entries() == expected)
    #expect(reopened.documents["app"] == ["n": .integer(1)])
    reopened.close()
    #expect(Store.check(.directory(run.path)).isEmpty)
  }

  @Test func aRunOutOfOrderOrRepeatingAnIDEndsAsSeparatePutsWould() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let first = Self.imported([7, 3, 5])
    var replaced = Self.imported([5])[0]
    replaced.kilograms = 90
    let store = try Self.commitAsACommand(
      StoreChange.putEntries(first) + StoreChange.putEntries([replaced, Self.imported([1])[0]]),
      in: directory)
    let expected = Self.imported([1, 3]) + [replaced] + Self.imported([7])
    #expect(try store.entries() == expected)
    store.close()
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == expected)
  }

  @Test func aRunKeptByTheCallerIsNotChangedByLaterCommits() throws {
    // The table shares the run's array until the commit's changes are let go: a later put
    // must change the table's rows, not the caller's.
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let entries = Self.imported(1...50)
    let changes = StoreChange.putEntries(entries)
    let store = try Self.commitAsACommand(changes, in: directory)
    var edited = entries[10]
    edited.kilograms = 99
    try store.commit([.putEntry(edited), .removeEntry(id: 1)])
    #expect(
      changes.flatMap { change -> [Entry] in
        guard case .putRun(let run) = change else { return [] }
        return run.values(EntryCodec.self) ?? []
      } == entries)
    var expected = Array(entries.dropFirst())
    expected[9] = edited
    #expect(try store.entries() == expected)
  }

  @Test func aBatchKeepsARunAsItIsAndLaterCommitsAfterIt() throws {
    // The batch keeps a run's changes as they are (their rows are the table's); commits
    // after it in the same batch, a put of an entry of the run among them, follow it into
    // the one record, in order.
    let directory = TemporaryStoreDirectory()
    let expectedDirectory = TemporaryStoreDirectory()
    defer {
      directory.remove()
      expectedDirectory.remove()
    }
    let entries = Self.imported(1...200)
    var edited = entries[4]
    edited.kilograms = 80
    let later: [[StoreChange]] = [
      [.putEntry(edited), .removeEntry(id: 9)],
      [.setDocument(name: "settings", value: ["unit": .string("lb")])],
    ]
    func run(_ first: [StoreChange], in directory: TemporaryStoreDirectory) throws -> Store {
      let store = try Store.open(.directory(directory.path), compaction: .manual)
      store.beginBatch()
      try store.commit(first)
      for changes in later { try store.commit(changes) }
      try store.endBatch()
      return store
    }
    let store = try run(StoreChange.putEntries(entries), in: directory)
    let expectedStore = try run(entries.map(StoreChange.putEntry), in: expectedDirectory)
    var expected = entries.filter { $0.id != 9 }
    expected[4] = edited
    #expect(try store.entries() == expected)
    #expect(try expectedStore.entries() == expected)
    store.close()
    expectedStore.close()
    #expect(directory.bytes("journal.jsonl") == expectedDirectory.bytes("journal.jsonl"))
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == expected)
    #expect(reopened.documents["settings"] == ["unit": .string("lb")])
  }

  @Test(arguments: [1 << 20, 4096, 1])
  func aRecordWrittenInPiecesHasTheBytesOfOneWrite(pieceBytes: Int) throws {
    let whole = TemporaryStoreDirectory()
    let pieces = TemporaryStoreDirectory()
    defer {
      whole.remove()
      pieces.remove()
    }
    let entries = Self.imported(1...300)
    let changes =
      StoreChange.putEntries(entries) + [
        .setDocument(name: "settings", value: ["unit": .string("kg")]), .removeEntry(id: 4),
      ]
    let one = try Self.commitAsACommand(changes, in: whole, pieceBytes: .max)
    let many = try Self.commitAsACommand(changes, in: pieces, pieceBytes: pieceBytes)
    // Outside a batch too.
    try one.commit(Self.imported(301...320).map(StoreChange.putEntry))
    try many.commit(Self.imported(301...320).map(StoreChange.putEntry))
    one.close()
    many.close()
    #expect(pieces.bytes("journal.jsonl") == whole.bytes("journal.jsonl"))
    #expect(pieces.bytes("journal.ack") == whole.bytes("journal.ack"))
    #expect(Store.check(.directory(pieces.path)).isEmpty)
    let reopened = try Store.open(.directory(pieces.path))
    #expect(try reopened.entries().count == 319)
  }

  @Test func aNumberThatIsNotFiniteInALaterPieceLeavesTheJournalAsItWas() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    store.journalPieceBytes = 512
    try store.commit([.putEntry(sampleEntry(1))])
    let journal = directory.bytes("journal.jsonl")
    #expect(throws: StoreError.self) {
      try store.commit(
        StoreChange.putEntries(Self.imported(2...200)) + [
          .setDocument(name: "settings", value: ["goal": .number(.infinity)])
        ])
    }
    #expect(directory.bytes("journal.jsonl") == journal)
    #expect(try store.entries() == [sampleEntry(1)])
    try store.commit([.putEntry(sampleEntry(2))])
    store.close()
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == [sampleEntry(1), sampleEntry(2)])
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  /// A kill at every writing call of a command that imports 300 entries, its record written
  /// in pieces of 1 KiB: the reopened store holds the 20 entries before, or all 320; never
  /// some of the import. It checks without errors (a torn record is moved aside) and takes
  /// new commits.
  @Test func aCrashInsideARecordWrittenInPiecesLosesTheWholeCommitOnly() throws {
    let before = Self.imported(1...20)
    let entries = Self.imported(21...320)
    let policy = CompactionPolicy(minimumJournalBytes: 64 << 10, maximumJournalBytes: 1 << 20)
    func run(in directory: TemporaryStoreDirectory) {
      guard let store = try? Store.open(.directory(directory.path), compaction: policy) else {
        return
      }
      defer { store.close() }
      store.journalPieceBytes = 1024
      do {
        try store.commit(before.map(StoreChange.putEntry))
        store.beginBatch()
        try store.commit(StoreChange.putEntries(entries))
        try store.endBatch()
      } catch {}
    }
    let counter = WriteFaultInjector()
    let full = TemporaryStoreDirectory()
    defer { full.remove() }
    WriteFaultInjector.$current.withValue(counter) { run(in: full) }
    let reopenedFull = try Store.open(.directory(full.path))
    #expect(try reopenedFull.entries() == before + entries)
    reopenedFull.close()
    // The record alone is about 45 KiB: dozens of pieces, each a place to be killed.
    #expect(counter.count > 40)

    try forEachKill(ofCalls: counter.count, warningsAllowed: true, { run(in: $0) }) {
      directory, crashAt in
      let store = try Store.open(.directory(directory.path), compaction: policy)
      let found = try store.entries()
      #expect(
        found == [] || found == before || found == before + entries,
        "crash at call \(crashAt) of \(counter.count): \(found.count) entries")
      try expectTakesANewEntry(store, holding: found, in: directory, crashAt: crashAt)
    }
  }
}

@Suite struct EntryLayoutTests {
  /// A log holds every entry in memory: the rare fields share one side box and the numbers
  /// take 32 bits, so an entry takes 64 bytes (128 before).
  @Test func anEntryTakes64Bytes() {
    #expect(MemoryLayout<Entry>.stride == 64)
  }

  /// The side box is copied on write: a copy keeps its own note and links.
  @Test func rareFieldsAreCopiedOnWrite() {
    let first = Entry(
      id: 7, instant: 0, kilograms: 80, origin: .manual, source: "weigh", note: "a",
      revision: 3, healthUUID: "H", pushedUUID: "P", pushedRevision: 2)
    var second = first
    second.note = "b"
    second.pushedRevision = nil
    #expect(first.note == "a" && first.pushedRevision == 2)
    #expect(second.note == "b" && second.pushedRevision == nil && second.healthUUID == "H")
    #expect(first != second)
    second.note = "a"
    second.pushedRevision = 2
    #expect(first == second)
    // Clearing every rare field gives the entry that never had one.
    var cleared = first
    cleared.note = nil
    cleared.healthUUID = nil
    cleared.pushedUUID = nil
    cleared.pushedRevision = nil
    #expect(
      cleared
        == Entry(id: 7, instant: 0, kilograms: 80, origin: .manual, source: "weigh", revision: 3))
    #expect(cleared.id == 7 && cleared.revision == 3)
  }

  /// Every weight read is held until the import commits: 64 bytes each (80 before).
  @Test func aWeightReadTakes64Bytes() {
    #expect(MemoryLayout<ImportedWeight>.stride == 64)
  }

  /// A weight of weigh's own file gives back the entry it was made from, and one whose
  /// entry differs from it keeps that entry whole.
  @Test func aWeightKeepsItsEntry() {
    let entry = Entry(
      id: 12, instant: 3600, kilograms: 70.5, origin: .health, source: "Scale", note: "n",
      revision: 4, healthUUID: "H", pushedUUID: "P", pushedRevision: 3)
    var weight = ImportedWeight(
      instant: 3600, kilograms: 70.5, source: "Scale", note: "n", line: 9, entry: entry)
    #expect(weight.entry == entry && weight.number == 12 && weight.fileTime == nil)
    weight.fileTime = 60
    #expect(weight.fileTime == 60 && weight.entry == entry)
    var other = entry
    other.instant = 7200
    weight.entry = other
    #expect(weight.entry == other && weight.number == 12 && weight.note == "n")
    weight.entry = nil
    #expect(weight.entry == nil && weight.number == nil && weight.fileTime == 60)
  }

  /// The weights a reader keeps, in blocks: positions across a block's end read back in order.
  @Test func weightsAcrossBlocksReadBackInOrder() {
    let count = ImportedWeights.blockSize * 2 + 3
    let weights = (0..<count).map {
      ImportedWeight(
        instant: Int64($0), kilograms: 1, source: "s", line: $0 + 2, fileTime: Int64($0) * 2)
    }
    var result = WeightImportResult(format: .withingsCSV, weights: weights)
    #expect(result.read.blocks.count == 3 && result.read.count == count)
    #expect(result.weights == weights)
    let last = result.read.takeBlock(2)
    #expect(last.map(\.line) == [count - 1, count, count + 1])
  }
}
