import Testing

@testable import WeighKit

/// A run of removals from one table (an undo of an import) is applied in one pass, to loaded
/// rows, to rows still in the table's file (held aside until the table is read), and by
/// `weigh check`'s replay: the same rows as one removal at a time would leave, whatever the
/// order of the ids, with ids that are not there and puts between the runs.
@Suite struct StoreRemovalRunTests {
  /// The changes of the test: runs of removals in increasing and decreasing order, an id
  /// removed twice, ids no row has, and a put between two runs that brings a removed id back.
  static let changes: [StoreChange] =
    stride(from: 2, through: 120, by: 3).map { StoreChange.remove(table: "entries", id: $0) }
    + [.remove(table: "entries", id: 500), .remove(table: "entries", id: 2)]
    + [.putEntry(sampleEntry(5))]
    + stride(from: 199, through: 150, by: -2).map { StoreChange.remove(table: "entries", id: $0) }
    + [.remove(table: "entries", id: 6)]

  /// The ids left by applying `changes` one at a time to entries 1...200.
  static var expectedIDs: [Int] {
    var ids = Set(1...200)
    for change in changes {
      switch change {
      case .remove(_, let id): ids.remove(id)
      case .put(let row): ids.insert(row.id)
      default: break
      }
    }
    return ids.sorted()
  }

  @Test(arguments: [true, false])
  func aRunOfRemovalsLeavesTheRowsOneAtATimeWould(loadedFirst: Bool) throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: .manual)
    try store.commit(StoreChange.putEntries((1...200).map { sampleEntry($0) }))
    try store.compact()
    store.close()

    let changed = try Store.open(.directory(directory.path), compaction: .manual)
    if loadedFirst { #expect(try changed.entries().count == 200) }
    try changed.commit(Self.changes)
    #expect(try changed.entries().map(\.id) == Self.expectedIDs)
    changed.close()

    // The journal replayed at open, its removals held aside until the table is read.
    let reopened = try Store.open(.directory(directory.path), compaction: .manual)
    #expect(try reopened.entries().map(\.id) == Self.expectedIDs)
    #expect(
      try reopened.rows(EntryCodec.self, after: 100).map(\.id)
        == Self.expectedIDs.filter { $0 > 100 })
    reopened.close()
    #expect(Store.check(.directory(directory.path), tables: Session.storeTables).isEmpty)
  }
}
