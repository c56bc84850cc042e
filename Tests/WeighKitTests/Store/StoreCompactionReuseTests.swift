import Foundation
import Testing

@testable import WeighKit

/// A compaction right after a commit copies the rows that commit put from the bytes it
/// journalled them with (`EncodedRowBytes`) instead of encoding them again, and writes a
/// large table in pieces: the file must be byte for byte the one encoding every row gives,
/// and a crash at any of its writes must leave the old store or the new one.
@Suite struct StoreCompactionReuseTests {
  /// Compacts after every commit.
  static let always = CompactionPolicy(minimumJournalBytes: 0, maximumJournalBytes: 0)

  /// A transaction whose puts are out of id order, put one id twice, remove a row put
  /// earlier in it and put one back after removing it.
  static let tangled: [StoreChange] = [
    .putEntry(sampleEntry(5)), .putEntry(sampleEntry(3)), .putEntry(sampleEntry(4)),
    .putEntry(sampleEntry(3, kilograms: 70.125)), .removeEntry(id: 4),
    .putEntry(sampleEntry(4, kilograms: 81.5)), .removeEntry(id: 5), .removeEntry(id: 1),
    .putEntry(sampleEntry(6)), .setDocument(name: "settings", value: ["unit": "kg"]),
    .putEntry(sampleEntry(2, kilograms: 66.75)),
  ]

  static let tangledResult = [
    sampleEntry(2, kilograms: 66.75), sampleEntry(3, kilograms: 70.125),
    sampleEntry(4, kilograms: 81.5), sampleEntry(6),
  ]

  /// The table file as encoding every row writes it.
  static func expectedFile(of store: Store) throws -> [UInt8] {
    TableFile<EntryCodec>.encode(try store.entries(), sequence: store.committedSequence)
  }

  @Test func aCompactionAfterACommitWritesTheFileEveryRowEncodedGives() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: Self.always)
    try store.commit([.putEntry(sampleEntry(1)), .putEntry(sampleEntry(2))])
    try store.commit(Self.tangled)
    #expect(try store.entries() == Self.tangledResult)
    #expect(directory.bytes("entries.json") == (try Self.expectedFile(of: store)))
    store.close()
    let again = try Store.open(.directory(directory.path))
    #expect(try again.entries() == Self.tangledResult)
    #expect(again.nextID() == 7)
    again.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  @Test func aCompactionAfterABatchWritesTheFileEveryRowEncodedGives() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: Self.always)
    try store.commit([.putEntry(sampleEntry(1)), .putEntry(sampleEntry(2))])
    store.beginBatch()
    for change in Self.tangled { try store.commit([change]) }
    try store.endBatch()
    #expect(try store.entries() == Self.tangledResult)
    #expect(directory.bytes("entries.json") == (try Self.expectedFile(of: store)))
    store.close()
    let again = try Store.open(.directory(directory.path))
    #expect(try again.entries() == Self.tangledResult)
    again.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  @Test func aCompactionThatAppendsToTheFileCopiesTheNewRowsToo() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), compaction: Self.always)
    try store.commit([.putEntry(sampleEntry(1)), .putEntry(sampleEntry(2))])
    // Only rows after the file's last one: the table file is appended to.
    try store.commit([
      .putEntry(sampleEntry(4)), .putEntry(sampleEntry(3)),
      .putEntry(sampleEntry(4, kilograms: 90.5)),
    ])
    #expect(directory.bytes("entries.json") == (try Self.expectedFile(of: store)))
    store.close()
    let again = try Store.open(.directory(directory.path))
    #expect(
      try again.entries() == [
        sampleEntry(1), sampleEntry(2), sampleEntry(3), sampleEntry(4, kilograms: 90.5),
      ])
    again.close()
    #expect(Store.check(.directory(directory.path)).isEmpty)
  }

  @Test func lastPutsKeepTheLastChangeOfEachIDInIDOrder() {
    let found = Store.lastPuts(in: Self.tangled)
    #expect(found.rowCount == 7)
    // Puts number 0…6 put ids 5, 3, 4, 3, 4, 6, 2; 1 and 5 end removed.
    let rows = found.tables[EntryCodec.tableName].map { index in
      (0..<index.count).map { [index.id(at: $0), index.row(at: $0)] }
    }
    #expect(rows == [[2, 6], [3, 3], [4, 4], [6, 5]])
  }

  /// Enough rows that the table file is written in several 1 MiB pieces.
  static let manyRows = (1...12_000).map { StoreChange.putEntry(sampleEntry($0)) }

  @Test func aLargeCommitCompactedInPiecesIsAllThereOrNotAtAllAfterACrashAtAnyWrite() throws {
    let whole = TemporaryStoreDirectory()
    defer { whole.remove() }
    let counter = WriteFaultInjector()
    try WriteFaultInjector.$current.withValue(counter) {
      let store = try Store.open(.directory(whole.path), compaction: .standard)
      try store.commit([.putEntry(sampleEntry(1))])
      store.beginBatch()
      try store.commit(Array(Self.manyRows.dropFirst()))
      try store.endBatch()
      #expect(try whole.bytes("entries.json") == Self.expectedFile(of: store))
      store.close()
    }
    let size = whole.bytes("entries.json")?.count ?? 0
    #expect(size > 1 << 20, "the table should need more than one piece (\(size) bytes)")

    var sawOld = false
    var sawNew = false
    for crashAt in 0..<counter.count {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      let injector = WriteFaultInjector(remaining: crashAt)
      WriteFaultInjector.$current.withValue(injector) {
        guard let store = try? Store.open(.directory(directory.path), compaction: .standard)
        else { return }
        defer { store.close() }
        guard (try? store.commit([.putEntry(sampleEntry(1))])) != nil else { return }
        store.beginBatch()
        guard (try? store.commit(Array(Self.manyRows.dropFirst()))) != nil else { return }
        try? store.endBatch()
      }
      #expect(injector.crashed, "call \(crashAt) of \(counter.count) was not reached")
      guard directory.bytes("journal.jsonl") != nil else { continue }
      let findings = Store.check(.directory(directory.path))
      #expect(
        findings.filter { $0.severity == .error }.isEmpty, "crash at call \(crashAt): \(findings)")
      let store = try Store.open(.directory(directory.path))
      let count = try store.entries().count
      store.close()
      #expect(count <= 1 || count == Self.manyRows.count, "crash at call \(crashAt): \(count)")
      if count == Self.manyRows.count { sawNew = true } else if count == 1 { sawOld = true }
    }
    #expect(sawOld && sawNew)
  }
}
