import Foundation
import Testing

@testable import WeighKit

/// Compaction replaces the table files, then `weigh.json`, then the journal. These tests
/// build the files as a kill -9 would leave them between any two of those steps, by mixing
/// the files of a store before and after a real compaction, and check that nothing
/// acknowledged is lost or applied twice.
@Suite struct StoreCompactionCrashTests {
  enum CrashPoint: CaseIterable {
    case whileWritingTheTableTemporaryFile
    case afterReplacingTheTable
    case afterReplacingWeighJSON
    case afterReplacingTheJournal
  }

  /// Before and after directories; `compactedBefore` says whether the table had a file yet.
  private func makeStores(compactedBefore: Bool) throws -> (
    before: TemporaryStoreDirectory, after: TemporaryStoreDirectory
  ) {
    let before = TemporaryStoreDirectory()
    let after = TemporaryStoreDirectory()
    let store = try Store.open(.directory(after.path), compaction: .manual)
    try store.commit([.putEntry(sampleEntry(1)), .putEntry(sampleEntry(2))])
    try store.commit([.setDocument(name: "settings", value: ["unit": "kg"])])
    if compactedBefore { try store.compact() }
    try store.commit([.putEntry(sampleEntry(3))])
    try store.commit([.removeEntry(id: 1)])
    try store.commit([
      .setDocument(name: "settings", value: ["unit": "st"]),
      .putEntry(sampleEntry(2, kilograms: 81.25)),
    ])
    store.close()
    after.copy(to: before)
    let again = try Store.open(.directory(after.path), compaction: .manual)
    try again.compact()
    again.close()
    return (before, after)
  }

  @Test(arguments: CrashPoint.allCases, [false, true])
  func aCrashAtAnyStepLosesNothingAndAppliesNothingTwice(point: CrashPoint, compactedBefore: Bool)
    throws
  {
    let (before, after) = try makeStores(compactedBefore: compactedBefore)
    defer {
      before.remove()
      after.remove()
    }
    let crashed = TemporaryStoreDirectory()
    defer { crashed.remove() }
    before.copy(to: crashed)
    switch point {
    case .whileWritingTheTableTemporaryFile:
      crashed.write("entries.json.tmp", Array(after.bytes("entries.json")!.prefix(70)))
    case .afterReplacingTheTable:
      crashed.write("entries.json", after.bytes("entries.json")!)
    case .afterReplacingWeighJSON:
      crashed.write("entries.json", after.bytes("entries.json")!)
      crashed.write("weigh.json", after.bytes("weigh.json")!)
      crashed.write("journal.jsonl.tmp", after.bytes("journal.jsonl")!)
    case .afterReplacingTheJournal:
      after.copy(to: crashed)
    }
    let findings = Store.check(.directory(crashed.path))
    #expect(findings.filter { $0.severity == .error }.isEmpty)
    let leftovers = findings.filter { $0.file.hasSuffix(".tmp") }.count
    #expect(
      leftovers
        == (point == .whileWritingTheTableTemporaryFile || point == .afterReplacingWeighJSON
          ? 1 : 0))

    let store = try Store.open(.directory(crashed.path), compaction: .manual)
    #expect(try store.entries() == [sampleEntry(2, kilograms: 81.25), sampleEntry(3)])
    #expect(store.documents == ["settings": ["unit": "st"]])
    #expect(store.nextID() == 4)
    try store.commit([.putEntry(sampleEntry(4))])
    try store.compact()
    try store.commit([.putEntry(sampleEntry(5))])
    store.close()

    let reopened = try Store.open(.directory(crashed.path))
    #expect(try reopened.entries().map(\.id) == [2, 3, 4, 5])
    #expect(reopened.nextID() == 6)
    #expect(reopened.check().filter { $0.severity == .error }.isEmpty)
  }
}
