import Foundation
import Testing

@testable import WeighKit

/// An import's rows in one change (`StoreChange.putRun`), and the check that a row loads
/// again made once per row shape (`EntryCodec.readBackShape(of:)`): what the commit holds
/// per row falls, and nothing that loading would refuse reaches the disk.
@Suite struct StoreRowRunTests {
  // MARK: One change for a run

  @Test func anImportsEntriesAreOneChange() {
    let entries = StoreLargeImportTests.imported(1...500)
    let changes = StoreChange.putEntries(entries)
    #expect(changes.count == 1)
    guard case .putRun(let run)? = changes.first else {
      Issue.record("expected a run")
      return
    }
    #expect(run.count == 500)
    #expect(run.idsIncrease)
    #expect(run.smallestID == 1 && run.largestID == 500)
    #expect(run.values(EntryCodec.self) == entries)
    #expect(StoreChange.putEntries([]).isEmpty)
    // Expanded, it is the puts one by one.
    let expanded = StoreChange.expandingRuns(changes)
    #expect(expanded.count == 500)
    #expect(
      expanded.compactMap { change -> Entry? in
        guard case .put(let row) = change else { return nil }
        return row.value(EntryCodec.self)
      } == entries)
  }

  @Test func aRunWithIDsOutOfOrderSaysSo() {
    guard
      case .putRun(let run)? = StoreChange.putEntries(StoreLargeImportTests.imported([4, 2, 9]))
        .first
    else {
      Issue.record("expected a run")
      return
    }
    #expect(!run.idsIncrease)
    #expect(run.smallestID == 2 && run.largestID == 9)
  }

  @Test func theCompactionOfARunNeedsNoListOfItsRows() {
    let run = StoreChange.putEntries(StoreLargeImportTests.imported(1...300))
    let found = Store.lastPuts(in: [.putEntry(sampleEntry(1000))] + run)
    // A put of the same table beside the run: its rows are listed one by one.
    #expect(found.rowCount == 301)
    guard case .list(let rows)? = found.tables[EntryCodec.tableName] else {
      Issue.record("expected a list")
      return
    }
    #expect(rows.map(\.id) == Array(1...300) + [1000])
    #expect(rows.last?.row == 0)
    #expect(rows.first?.row == 1)

    let alone = Store.lastPuts(
      in: run + [.setDocument(name: "app", value: ["n": .integer(1)])])
    #expect(alone.rowCount == 300)
    guard case .run(let kept, let first)? = alone.tables[EntryCodec.tableName] else {
      Issue.record("expected the run itself")
      return
    }
    #expect(kept.count == 300 && first == 0)
  }

  @Test func aRunThatRepeatsAnIDIsListedWithTheLastPutOfEach() {
    var replaced = StoreLargeImportTests.imported([2])[0]
    replaced.kilograms = 99
    let changes =
      StoreChange.putEntries(StoreLargeImportTests.imported([1, 2, 3]))
      + StoreChange.putEntries([replaced]) + [.removeEntry(id: 3)]
    let found = Store.lastPuts(in: changes)
    #expect(found.rowCount == 4)
    guard case .list(let rows)? = found.tables[EntryCodec.tableName] else {
      Issue.record("expected a list")
      return
    }
    #expect(rows.map(\.id) == [1, 2])
    #expect(rows.map(\.row) == [0, 3])
  }

  @Test func journalPlacesKeepOneEndARowAndTheStartsThatDoNotFollow() {
    var places = JournalRowPlaces()
    // Rows of 10 bytes with a gap of 24, a removal of 30 bytes before row 3.
    let rows = [(5, 15), (39, 49), (73, 83), (137, 147), (171, 181)]
    for (start, end) in rows { places.add(start: start, end: end) }
    #expect(places.count == 5)
    #expect(places.isComplete)
    for (index, (start, end)) in rows.enumerated() {
      #expect(places.start(of: index) == start)
      #expect(places.end(of: index) == end)
    }
    #expect(places.lastEnd == 181)
    var large = JournalRowPlaces()
    large.add(start: 0, end: 10)
    large.add(start: Int(UInt32.max), end: Int(UInt32.max) + 10)
    #expect(!large.isComplete)
  }

  @Test func aRunWithRemovalsBetweenStreamedCommitsWritesTheSameTableFile() throws {
    // The streamed record holds puts, a removal, then a run: its compaction copies the rows
    // from the journal by their places, and writes what encoding every row writes.
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    store.journalPieceBytes = 512
    let first = StoreLargeImportTests.imported(1...40)
    let second = StoreLargeImportTests.imported(41...400)
    try store.commit(
      first.map(StoreChange.putEntry) + [.removeEntry(id: 7)] + StoreChange.putEntries(second))
    try store.compact()
    var expected = first + second
    expected.remove(at: 6)
    let sequence = store.committedSequence
    #expect(
      directory.bytes("entries.json")
        == TableFile<EntryCodec>.encode(expected, sequence: sequence))
    store.close()
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries() == expected)
    reopened.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  // MARK: Read back once per shape

  @Test func rowsOfOneShapeAreReadBackOnce() {
    var rows = EncodedRows()
    var shapes = ReadBackShapes()
    let entries = StoreLargeImportTests.imported(1...1000)
    #expect(
      StoreChange.problem(in: StoreChange.putEntries(entries), rows: &rows, shapes: &shapes) == nil)
    // With a note and without: two shapes, the `at` as text, origin import, a file time.
    #expect(shapes.count == 2)
    #expect(rows.count == 1000)
  }

  @Test(arguments: 0..<4)
  func aRowWithAValueOutOfRangeIsRefusedAfterRowsOfItsShape(which: Int) throws {
    var bad = StoreLargeImportTests.imported([301])[0]
    let message: String
    switch which {
    case 0:
      bad.kilograms = 1e19
      message = #""kg" is 1e+19, out of range: a weight is more than 0 and at most 1000 kg"#
    case 1:
      bad.instant = ValueLimits.instant.lowerBound - 1
      message = "\"at\" is "
    case 2:
      bad.revision = 0
      message = "\"rev\" is 0, out of range"
    default:
      bad.healthUUID = "not-a-uuid"
      message = "\"healthUUID\" is not a UUID"
    }
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([.putEntry(sampleEntry(1))])
    let before = directory.snapshot()
    // In a run after 299 good rows of its shape…
    let good = StoreLargeImportTests.imported(2...300)
    let error = #expect(throws: StoreError.self) {
      try store.commit(StoreChange.putEntries(good + [bad]))
    }
    #expect(error?.message.hasPrefix("row 301 of entries would not load again: ") == true)
    #expect(error?.message.contains(message) == true)
    #expect(directory.snapshot() == before)
    // …and in a batch, after a commit of them.
    store.beginBatch()
    try store.commit(StoreChange.putEntries(good))
    let later = #expect(throws: StoreError.self) { try store.commit([.putEntry(bad)]) }
    #expect(later?.message == error?.message)
    store.close()
    #expect(directory.snapshot() == before)
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries().map(\.id) == [1])
    reopened.close()
  }

  /// Every entry with a shape reads back; every entry that does not read back has none.
  @Test func anEntryWithAShapeReadsBackAndOneThatDoesNotHasNone() {
    let base = StoreLargeImportTests.imported([5])[0]
    var variants: [Entry] = []
    for id in [1, 2_147_483_647, -1] {
      variants.append(
        Entry(
          id: id, instant: base.instant, kilograms: base.kilograms, origin: base.origin,
          source: base.source))
    }
    let kilograms: [Double] = [
      0, -1, .leastNonzeroMagnitude, 1e-300, 0.1, 1000, 1000.000_000_1, .nan, .infinity,
    ]
    for value in kilograms {
      var entry = base
      entry.kilograms = value
      variants.append(entry)
    }
    let instants: [Int64] = [
      ValueLimits.instant.lowerBound - 1, ValueLimits.instant.lowerBound,
      ValueLimits.instant.upperBound, ValueLimits.instant.upperBound + 1,
      UTCInstantText.range.lowerBound - 1, .min, .max,
    ]
    for instant in instants {
      var entry = base
      entry.instant = instant
      variants.append(entry)
    }
    for revision in [0, 1, 2_147_483_647, -5] {
      var entry = base
      entry.revision = revision
      variants.append(entry)
      entry = base
      entry.pushedRevision = revision
      variants.append(entry)
    }
    for uuid in [sampleUUID(3), "x", "00000000-0000-4000-8000-00000000000\"", ""] {
      var entry = base
      entry.healthUUID = uuid
      variants.append(entry)
      entry = base
      entry.pushedUUID = uuid
      variants.append(entry)
    }
    for fileTime: Int64? in [nil, 0, UTCInstantText.range.upperBound + 1, .min] {
      var entry = base
      entry.fileTime = fileTime
      variants.append(entry)
    }
    for note: String? in [nil, "", "a \"quoted\"\n note", "é 🏋️"] {
      var entry = base
      entry.note = note
      variants.append(entry)
    }
    for origin in Origin.allCases {
      variants.append(
        Entry(
          id: 9, instant: base.instant, kilograms: base.kilograms, origin: origin,
          source: "s\\"))
    }
    var shaped = 0
    for entry in variants {
      var writer = JSONWriter()
      EntryCodec.encode(entry, into: &writer)
      let readsBack = writer.bytes.withUnsafeBufferPointer {
        StoreRowBox<EntryCodec>.readBackProblem($0) == nil
      }
      let shape = EntryCodec.readBackShape(of: entry)
      if shape != nil {
        shaped += 1
        #expect(readsBack, "\(entry) has a shape but does not read back")
      }
      if !readsBack { #expect(shape == nil, "\(entry) does not read back but has a shape") }
    }
    #expect(shaped > variants.count / 2)
  }
}
