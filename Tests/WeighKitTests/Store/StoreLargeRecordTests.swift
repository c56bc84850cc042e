import Testing

@testable import WeighKit

/// A journal whose last record is an import's rows that no compaction folded (a kill after
/// the commit): opening reads the record a piece at a time and writes the table's file from
/// it (`StoreJournal.readLargeRecord`, `Store.compactLargeRecord`), leaving the files the
/// import's compaction would have; `weigh check` reads it the same way. A record of any
/// other shape, or damaged, is read whole as before.
@Suite struct StoreLargeRecordTests {
  static let entries = StoreLargeImportTests.imported(1...20_000)
  static let app: [StoreChange] = [.setDocument(name: "app", value: ["anchor": 0])]
  /// The size from which the tests' records are read a piece at a time: a 20,000-row record
  /// (about 3 MB) spans several 1 MiB pieces.
  static let policy = {
    var policy = CompactionPolicy.standard
    policy.largeRecordBytes = 64 << 10
    return policy
  }()

  /// The files of the store in `directory` as opening finds them (its log's rows not read),
  /// with records of `largeRecords` bytes or more read a piece at a time.
  static func inspect(
    _ directory: TemporaryStoreDirectory, largeRecords: Int = policy.largeRecordBytes
  ) -> StoreInspection {
    StoreInspection.inspect(
      directory: directory.path,
      tables: [EntryCodec.tableName: TableStorage<EntryCodec>(empty: false)], rows: .ends,
      largeRecords: largeRecords)
  }

  /// A store whose journal holds the entries' record, uncompacted (`.manual`), after a
  /// record that sets a document.
  static func uncompacted(in directory: TemporaryStoreDirectory) throws {
    try StoreLargeImportTests.commitAsACommand(
      StoreChange.putEntries(entries) + app, before: [.setDocument(name: "unit", value: "kg")],
      in: directory
    ).close()
  }

  @Test func theRecordIsFoldedIntoTheFilesTheCompactionWrites() throws {
    let directory = TemporaryStoreDirectory()
    let compacted = TemporaryStoreDirectory()
    defer { [directory, compacted].forEach { $0.remove() } }
    try Self.uncompacted(in: directory)
    let inspection = Self.inspect(directory)
    let record = try #require(inspection.journal.largeRecord)
    #expect(record.ids.runs.ranges == [1...20_000] && record.table == "entries")
    #expect(inspection.journal.transactions.count == 2 && inspection.errors.isEmpty)
    #expect(Store.check(.directory(directory.path), largeRecordBytes: 64 << 10).isEmpty)

    let store = try Store.open(.directory(directory.path), compaction: Self.policy)
    #expect(store.recoveryWarnings.isEmpty)
    #expect(store.documents["app"] == ["anchor": 0] && store.documents["unit"] == "kg")
    #expect(store.nextID() == 20_001)
    #expect(try store.entries() == Self.entries)
    store.close()
    #expect(
      directory.bytes("entries.json") == TableFile<EntryCodec>.encode(Self.entries, sequence: 2))
    #expect(directory.bytes("journal.jsonl") == StoreJournal.header(base: 2))

    // The same commits compacted as they were made leave the same files.
    let held = try StoreLargeImportTests.commitAsACommand(
      StoreChange.putEntries(Self.entries) + Self.app,
      before: [.setDocument(name: "unit", value: "kg")], in: compacted, policy: .standard)
    held.close()
    for name in ["entries.json", "journal.jsonl", "journal.ack"] {
      #expect(directory.bytes(name) == compacted.bytes(name), "\(name)")
    }
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  /// Ids that increase with gaps (weigh's own file exported after deletions, streamed as
  /// runs): folded too, into the files the same commits compacted as made leave.
  @Test func aRecordWhoseIdsSkipIsFoldedToo() throws {
    let directory = TemporaryStoreDirectory()
    let compacted = TemporaryStoreDirectory()
    defer { [directory, compacted].forEach { $0.remove() } }
    let ids = (1...23_000).filter { $0 % 7 != 3 } + [40_000]
    let entries = StoreLargeImportTests.imported(ids)
    try StoreLargeImportTests.commitAsACommand(
      StoreChange.putEntries(entries) + Self.app, in: directory
    ).close()
    let inspection = Self.inspect(directory)
    let record = try #require(inspection.journal.largeRecord)
    let runs = ids.indices.filter { $0 == 0 || ids[$0] != ids[$0 - 1] + 1 }.count
    #expect(record.count == ids.count && record.ids.runs.ranges.count == runs && runs > 3_000)
    #expect(Store.check(.directory(directory.path), largeRecordBytes: 64 << 10).isEmpty)

    let store = try Store.open(.directory(directory.path), compaction: Self.policy)
    #expect(store.recoveryWarnings.isEmpty)
    #expect(store.nextID() == 40_001)
    #expect(try store.entries() == entries)
    store.close()
    let held = try StoreLargeImportTests.commitAsACommand(
      StoreChange.putEntries(entries) + Self.app, in: compacted, policy: .standard)
    held.close()
    for name in ["entries.json", "journal.jsonl", "journal.ack"] {
      #expect(directory.bytes(name) == compacted.bytes(name), "\(name)")
    }
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  /// Held whole (a policy that would not compact it): the same entries, nothing written.
  @Test func aStoreThatWouldNotCompactHoldsTheRecordAsBefore() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    try Self.uncompacted(in: directory)
    let before = directory.bytes("journal.jsonl")
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    #expect(try store.entries() == Self.entries)
    store.close()
    #expect(directory.bytes("journal.jsonl") == before && directory.bytes("entries.json") == nil)
  }

  /// Ids that go back (not an import's run into an empty table) or a removal after the
  /// rows: read whole and held, as before, nothing written.
  @Test(arguments: [false, true])
  func aRecordOfAnotherShapeIsHeldAsBefore(removal: Bool) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let entries =
      removal
      ? Self.entries
      : StoreLargeImportTests.imported(
        Array(1...10_000) + [10_002, 10_001] + Array(10_003...20_000))
    let extra: [StoreChange] = removal ? [.remove(table: "entries", id: 7)] : []
    try StoreLargeImportTests.commitAsACommand(
      StoreChange.putEntries(entries) + extra, in: directory
    ).close()
    let inspection = Self.inspect(directory)
    #expect(inspection.journal.largeRecord == nil && inspection.errors.isEmpty)
    #expect(inspection.journal.transactions.last?.changes.count == entries.count + extra.count)
    let before = directory.bytes("journal.jsonl")
    let store = try Store.open(.directory(directory.path), compaction: Self.policy)
    #expect(
      try store.entries() == entries.filter { !removal || $0.id != 7 }.sorted { $0.id < $1.id })
    store.close()
    #expect(directory.bytes("journal.jsonl") == before && directory.bytes("entries.json") == nil)
  }

  /// A digit changed in the record's middle, or a row cut short there: refused, with the
  /// message the journal read whole gives, by opening and by `weigh check`.
  @Test(arguments: [false, true])
  func aDamagedRecordIsRefusedAsBefore(cutRow: Bool) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    try Self.uncompacted(in: directory)
    var journal = try #require(directory.bytes("journal.jsonl"))
    let kg = Array("\"kg\":".utf8)
    var at = journal.count / 2
    while !journal[at..<at + kg.count].elementsEqual(kg) { at += 1 }
    if cutRow {
      // A row without its weight: its checksum made anew, so only the row is wrong.
      journal.removeSubrange(at..<at + kg.count + 4)
      let end = journal.count - 1
      let suffix = end - StoreChecksum.lineSuffixLength
      var start = end - 1
      while journal[start - 1] != 0x0A { start -= 1 }
      let crc = StoreChecksum.of(journal[start..<suffix])
      StoreChecksum.writeHex(crc, into: &journal, at: suffix + 8)
    } else {
      journal[at + kg.count] = journal[at + kg.count] == 0x31 ? 0x32 : 0x31
    }
    directory.write("journal.jsonl", journal)
    let snapshot = directory.snapshot()
    func openingError(_ policy: CompactionPolicy) -> String? {
      do {
        try Store.open(.directory(directory.path), compaction: policy).close()
        return nil
      } catch {
        return error.description
      }
    }
    var whole = Self.policy
    whole.largeRecordBytes = .max
    let expected = try #require(openingError(whole))
    #expect(openingError(Self.policy) == expected)
    #expect(
      Store.check(.directory(directory.path), largeRecordBytes: 64 << 10).map(\.description)
        == Store.check(.directory(directory.path), largeRecordBytes: .max).map(\.description))
    #expect(
      directory.snapshot().filter { $0.key != "weigh.lock" }
        == snapshot.filter { $0.key != "weigh.lock" })
  }

  /// A torn record after the large one is still moved aside, and the large one folded.
  @Test func aTornRecordAfterItIsMovedAside() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    try Self.uncompacted(in: directory)
    let torn = Array(#"{"seq":3,"changes":[{"put":"entries","row":{"id":20001,"#.utf8)
    directory.write("journal.jsonl", try #require(directory.bytes("journal.jsonl")) + torn)
    let store = try Store.open(.directory(directory.path), compaction: Self.policy)
    #expect(store.recoveryWarnings.count == 1)
    #expect(store.nextID() == 20_002)
    #expect(try store.entries() == Self.entries)
    store.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  /// A kill at every write of the open that folds the record: the store opens again, the
  /// record's entries all there, checks clean and takes new commits.
  @Test func aCrashAtAnyWriteOfTheFoldLosesNothing() throws {
    let template = TemporaryStoreDirectory()
    defer { template.remove() }
    try Self.uncompacted(in: template)
    func run(in directory: TemporaryStoreDirectory) {
      template.copy(to: directory)
      _ = try? Store.open(.directory(directory.path), compaction: Self.policy).close()
    }
    let counter = WriteFaultInjector()
    let full = TemporaryStoreDirectory()
    defer { full.remove() }
    WriteFaultInjector.$current.withValue(counter) { run(in: full) }
    #expect(full.bytes("entries.json") == TableFile<EntryCodec>.encode(Self.entries, sequence: 2))
    #expect(counter.count > 5)
    try forEachKill(ofCalls: counter.count, { run(in: $0) }) { directory, crashAt in
      let store = try Store.open(.directory(directory.path), compaction: Self.policy)
      #expect(try store.entries() == Self.entries, "crash at call \(crashAt)")
      #expect(store.documents["app"] == ["anchor": 0], "crash at call \(crashAt)")
      try expectTakesANewEntry(
        store, holding: Self.entries, in: directory, crashAt: crashAt, compacting: true)
    }
  }
}
