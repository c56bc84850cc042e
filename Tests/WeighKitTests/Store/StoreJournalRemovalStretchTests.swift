import Testing

@testable import WeighKit

/// A journal record read back keeps a long stretch of removals from one table as one
/// `removeRun` (the undo of a large import, after a kill before its compaction: a million
/// removals were a million changes held at the next open), and a short one as removals of
/// their own; opening and `weigh check` give the entries the removals one by one leave.
@Suite struct StoreJournalRemovalStretchTests {
  static let entries = (1...6_000).filter { $0 % 11 != 0 }.map { sampleEntry($0) }
  /// Removals in one record: a stretch of 3,000 ids (with gaps, and ids no row has), then a
  /// document, then five removals, then one from another table.
  static let removed = Array(100...2_000) + Array(2_500...3_598) + [9_999]
  static let changes: [StoreChange] =
    removed.map { .remove(table: "entries", id: $0) }
    + [.setDocument(name: "app", value: ["anchor": 1])]
    + [7, 8, 9, 5_000, 4_000].map { .remove(table: "entries", id: $0) }

  @Test func aLongStretchIsReadAsOneRunAndAppliesAsItsRemovals() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit(StoreChange.putEntries(Self.entries))
    try store.commit(Self.changes)
    store.close()

    let inspection = StoreLargeRecordTests.inspect(directory, largeRecords: .max)
    let read = try #require(inspection.journal.transactions.last?.changes)
    #expect(read.count == 1 + 1 + 5)
    guard case .removeRun("entries", let ids) = read[0] else {
      Issue.record("not a run: \(read[0])")
      return
    }
    #expect(ids.ranges == [100...2_000, 2_500...3_598, 9_999...9_999])
    #expect(read[1].isDocumentChange)
    let rest = read[2...].compactMap { change -> Int? in
      if case .remove("entries", let id) = change { id } else { nil }
    }
    #expect(rest == [7, 8, 9, 5_000, 4_000])

    let gone = Set(Self.removed + [7, 8, 9, 5_000, 4_000])
    let reopened = try Store.open(.directory(directory.path), compaction: .manual)
    #expect(try reopened.entries() == Self.entries.filter { !gone.contains($0.id) })
    #expect(reopened.documents["app"] == ["anchor": 1])
    reopened.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  /// Fewer removals than a stretch's length stay removals of their own, in their order.
  @Test func aShortStretchStaysRemovals() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit(StoreChange.putEntries(Self.entries))
    let ids = Array((1...1_023).reversed())
    try store.commit(ids.map { .remove(table: "entries", id: $0) })
    store.close()
    let inspection = StoreLargeRecordTests.inspect(directory, largeRecords: .max)
    let read = try #require(inspection.journal.transactions.last?.changes)
    #expect(
      read.compactMap { change -> Int? in
        if case .remove("entries", let id) = change { id } else { nil }
      } == ids)
  }
}
