import Foundation
import Testing

@testable import WeighKit

/// An undo of an import removes its entries as runs (`StoreChange.removeRun`), never one
/// change per entry: the journal must hold the bytes of one removal per id, the table file
/// the compaction copies (`TableFile.copying`) the bytes of the rows left, a kill at any
/// write must leave the undo whole or absent, and the entries pushed to Health among the
/// removed must be found by the walk of the log's file as in the log read whole.
@Suite struct StoreRemovalRunUndoTests {
  /// The entries of the tests: numbers 1...300, every seventh left out (an import of a
  /// weigh CSV with gaps).
  static let entries = (1...300).filter { $0 % 7 != 0 }.map { sampleEntry($0) }

  /// The runs of removals of the tests: a run over a gap, a single id, a change of two runs,
  /// the second up to the last entry and past it (ids no row has), and an app document set
  /// after them.
  static let changes: [StoreChange] = [
    .removeRun(table: "entries", ids: [10...30]), .remove(table: "entries", id: 40),
    .removeRun(table: "entries", ids: [41...48, 120...320]),
    .setDocument(name: "app", value: ["anchor": 3]),
  ]

  /// The entries left after `changes`.
  static var left: [Entry] {
    let removed = StoreChange.expandingRemovals(changes).compactMap { change -> Int? in
      if case .remove(_, let id) = change { id } else { nil }
    }
    return entries.filter { !removed.contains($0.id) }
  }

  /// A store in `directory` holding `entries` in its table file, as after an import's commit
  /// and compaction.
  static func imported(in directory: TemporaryStoreDirectory) throws {
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit(StoreChange.putEntries(entries))
    try store.compact()
    store.close()
  }

  /// Commits `changes` as a command does (one batch) in a store made by `imported`, then
  /// compacts when asked; returns the journal's bytes after the commit.
  static func undo(
    _ changes: [StoreChange], in directory: TemporaryStoreDirectory, loadedFirst: Bool,
    compacting: Bool
  ) throws -> [UInt8]? {
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    defer { store.close() }
    if loadedFirst { _ = try store.entries() }
    store.beginBatch()
    try store.commit(changes)
    try store.endBatch()
    let journal = directory.bytes("journal.jsonl")
    if compacting { try store.compact() }
    return journal
  }

  @Test(arguments: [false, true])
  func runsOfRemovalsWriteTheBytesOfOneRemovalPerEntry(loadedFirst: Bool) throws {
    let runs = TemporaryStoreDirectory()
    let single = TemporaryStoreDirectory()
    defer {
      runs.remove()
      single.remove()
    }
    try Self.imported(in: runs)
    try Self.imported(in: single)
    let journalOfRuns = try Self.undo(
      Self.changes, in: runs, loadedFirst: loadedFirst, compacting: true)
    let journalOfSingle = try Self.undo(
      StoreChange.expandingRemovals(Self.changes), in: single, loadedFirst: loadedFirst,
      compacting: true)
    #expect(journalOfRuns != nil)
    #expect(journalOfRuns == journalOfSingle)
    // The table file as the compaction writes it from the rows left, and as one removal
    // per entry leaves it.
    let expected = TableFile<EntryCodec>.encode(Self.left, sequence: 2)
    #expect(runs.bytes("entries.json") == expected, "the file of the rows left")
    #expect(single.bytes("entries.json") == expected, "the file one removal per entry leaves")
    let store = try Store.open(.directory(runs.path))
    #expect(try store.entries() == Self.left)
    #expect(store.nextID() == 301)
    store.close()
    #expect(Store.check(.directory(runs.path)).isEmpty)
  }

  /// Removing every row from the file, and none of them: an empty table file, and the file
  /// as it was but for its sequence.
  @Test func theCopyLeavesOutEveryRowOrNone() throws {
    for (removed, left) in [(1...400, [Entry]()), (400...500, Self.entries)] {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      try Self.imported(in: directory)
      _ = try Self.undo(
        [.removeRun(table: "entries", ids: [removed])], in: directory, loadedFirst: false,
        compacting: true)
      let expected = TableFile<EntryCodec>.encode(left, sequence: 2)
      #expect(directory.bytes("entries.json") == expected, "removing \(removed)")
    }
  }

  /// A table file damaged among the rows the copy would pass is not copied: the undo fails
  /// with the damage reported, and the file is left as it was.
  @Test func aDamagedFileIsNotCopied() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    try Self.imported(in: directory)
    var bytes = try #require(directory.bytes("entries.json"))
    // A digit of a row's weight, in the middle of the file: its checksum no longer matches.
    let middle = bytes.count / 2
    let digit = try #require(bytes[middle...].firstIndex { (0x31...0x38).contains($0) })
    bytes[digit] += 1
    directory.write("entries.json", bytes)
    #expect(throws: StoreError.self) {
      _ = try Self.undo(Self.changes, in: directory, loadedFirst: false, compacting: true)
    }
    #expect(directory.bytes("entries.json") == bytes, "the damaged file as it was")
  }

  /// A kill at every write of the undo's commit and of the compaction after it: the store
  /// opens with every removal or none, checks clean and takes a new entry.
  @Test func aKillAtAnyWriteOfTheUndoLeavesItWholeOrAbsent() throws {
    let template = TemporaryStoreDirectory()
    defer { template.remove() }
    try Self.imported(in: template)
    func run(in directory: TemporaryStoreDirectory) {
      template.copy(to: directory)
      _ = try? Self.undo(Self.changes, in: directory, loadedFirst: false, compacting: true)
    }
    let counter = WriteFaultInjector()
    let full = TemporaryStoreDirectory()
    defer { full.remove() }
    WriteFaultInjector.$current.withValue(counter) { run(in: full) }
    let expected = TableFile<EntryCodec>.encode(Self.left, sequence: 2)
    #expect(full.bytes("entries.json") == expected, "the file of the rows left")
    #expect(counter.count > 5)
    try forEachKill(ofCalls: counter.count, { run(in: $0) }) { directory, crashAt in
      let store = try Store.open(.directory(directory.path), compaction: .manual)
      let found = try store.entries()
      #expect(found == Self.entries || found == Self.left, "crash at call \(crashAt)")
      #expect(
        store.documents["app"] == (found == Self.left ? ["anchor": 3] : nil),
        "crash at call \(crashAt)")
      try expectTakesANewEntry(
        store, holding: found, in: directory, crashAt: crashAt, compacting: true)
    }
  }
}

/// The entries pushed to Health among those an undo removes: found by a walk of the log's
/// file when the log is not read, as in the log read whole; their samples wait for deletion.
@Suite struct UndoPushedEntriesTests {
  /// Entries 1...400, every 9th pushed to Health.
  static let entries = (1...400).map { id -> Entry in
    var entry = sampleEntry(id)
    if id % 9 == 4 {
      entry.pushedUUID = sampleUUID(10_000 + id)
      entry.pushedRevision = entry.revision
    }
    return entry
  }

  static let changes: [StoreChange] = [
    .removeRun(table: "entries", ids: [200...400]), .remove(table: "entries", id: 13),
    .removeRun(table: "entries", ids: [20...30, 31...40]),
  ]

  func session(on directory: TemporaryStoreDirectory) throws -> Session {
    var options = SessionOptions.golden
    options.store = .directory(directory.path)
    return try Session(options: options, output: CapturedOutput())
  }

  @Test func theWalkFindsThePushedEntriesTheLogHolds() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit(StoreChange.putEntries(Self.entries))
    try store.compact()
    store.close()

    let walked = try session(on: directory)
    let found = try #require(try UndoCommand.pushedEntries(removedBy: Self.changes, in: walked))
    let byWalk = try UndoCommand.keepingHealthInStep(Self.changes, in: walked)
    walked.close()
    let read = try session(on: directory)
    _ = try read.entries()
    #expect(try UndoCommand.pushedEntries(removedBy: Self.changes, in: read) == nil)
    let byLog = try UndoCommand.keepingHealthInStep(Self.changes, in: read)
    read.close()

    // In the order of the removals: the run from 200 first.
    let expected =
      [202, 211, 220, 229, 238, 247, 256, 265, 274, 283, 292, 301, 310, 319, 328]
      + [337, 346, 355, 364, 373, 382, 391, 400, 13, 22, 31, 40]
    #expect(found.map(\.id) == expected.sorted())
    #expect(byWalk.deletions.map(\.id) == expected)
    #expect(byLog.deletions.map(\.id) == expected)
    #expect(byWalk.deletions == byLog.deletions)
    let pending = { (changes: [StoreChange]) -> [String] in
      for case .setDocument("app", let value) in changes {
        return AppDocument(json: value).pendingDeletes
      }
      return []
    }
    #expect(pending(byWalk.changes) == expected.map { sampleUUID(10_000 + $0) })
    #expect(pending(byWalk.changes) == pending(byLog.changes))
  }

  /// From the end of a larger file (found by a binary search; the lines without
  /// `"pushedUUID"` not decoded): the pushed entries among the removed are those the whole
  /// walk finds, with entries that link a Health sample (`healthUUID`: its `U`s are met by
  /// the search too) and notes that hold the key's text, removals at the end, in the middle
  /// and from the first entry.
  @Test(arguments: [
    [StoreChange.removeRun(table: "entries", ids: [15_000...20_000])],
    [
      .removeRun(table: "entries", ids: [19_990...20_000]), .remove(table: "entries", id: 9_004),
      .removeRun(table: "entries", ids: [100...200]),
    ],
    [.removeRun(table: "entries", ids: [1...20_000])], [.remove(table: "entries", id: 20_000)],
  ])
  func theEndOfALargerFileIsSearchedForThePushedEntries(changes: [StoreChange]) throws {
    let entries = (1...20_000).map { id -> Entry in
      var entry = sampleEntry(id)
      if id % 11 == 5 || id == 20_000 {
        entry.pushedUUID = sampleUUID(10_000 + id)
        entry.pushedRevision = entry.revision
      }
      // Written `"note":"pushedUUID"`: the key's text, in quotes, on a line without the key
      // (a quote inside a note is escaped, so the key's text cannot otherwise appear).
      if id % 13 == 0 { entry.note = "pushedUUID" }
      return entry
    }
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit(StoreChange.putEntries(entries))
    try store.compact()
    store.close()
    var removed = Set<Int>()
    for change in changes {
      switch change {
      case .remove(_, let id): removed.insert(id)
      case .removeRun(_, let ids): for id in ids { removed.insert(id) }
      default: continue
      }
    }
    let session = try session(on: directory)
    defer { session.close() }
    var searched: [Entry] = []
    let answered = try session.store.forEachRowInFile(
      EntryCodec.self, after: (removed.min() ?? 1) - 1, whoseLineHolds: "\"pushedUUID\"",
      anchor: 7
    ) { entry in searched.append(copy entry) }
    #expect(answered)
    let expected = entries.filter { $0.pushedUUID != nil && removed.contains($0.id) }
    #expect(searched.filter { removed.contains($0.id) && $0.pushedUUID != nil } == expected)
    // From the first removed on, and only the lines that hold the key's text.
    #expect(searched.allSatisfy { $0.id >= removed.min()! })
    #expect(searched.allSatisfy { $0.pushedUUID != nil || $0.note != nil })
    if removed.count > 1 { #expect(searched.contains { $0.pushedUUID == nil }) }
    #expect(try UndoCommand.pushedEntries(removedBy: changes, in: session) == expected)
  }
}
