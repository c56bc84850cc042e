import Foundation
import HealthSim
import PropertyBased
import Testing

/// A store reopened with its older records unloaded behaves exactly as the whole store.
@Suite("Stores reopened with older records loaded on demand")
struct PartialHistoryTests {
  /// The store `full` as reopened with records after `through` in memory (and, with
  /// `synced`, the older samples that have a sync identifier), and a counter of how often
  /// the older records were read.
  func reopen(_ full: HealthStore, through: Int64, synced: Bool = false) -> (
    HealthStore, LoadCounter
  ) {
    let snapshot = full.snapshot()
    let counter = LoadCounter()
    let newer = HealthSnapshot(
      state: snapshot.state, records: snapshot.records.filter { $0.position > through })
    let olderSynced = snapshot.records.filter {
      if case .sample(let sample, let position) = $0 {
        return position <= through && sample.syncIdentifier != nil
      }
      return false
    }
    let store = HealthStore(
      snapshot: newer, olderRecordsThrough: through, olderSynced: synced ? olderSynced : nil
    ) {
      counter.loads += 1
      return snapshot.records.filter { $0.position <= through }
    }
    return (store, counter)
  }

  /// A history of scale readings and a few deletions and sync-identifier replacements.
  func history(_ codes: [Int]) throws -> HealthStore {
    let store = makeStore()
    for code in codes {
      let live = store.allSamples(of: .bodyMass)
      switch code % 5 {
      case 0 where !live.isEmpty:
        try store.deleteAsOwner([live[code % live.count].uuid!])
      case 1:
        try store.save([
          weight(70, at: Double(code), syncID: "id-\(code % 3)", version: Double(code))
        ])
      default:
        try store.save([weight(60 + Double(code % 30), at: Double(code))], as: scaleSource)
      }
    }
    return store
  }

  @Test("an incremental read and new readings after the split never read the older records")
  func tailOperationsStayInMemory() throws {
    let full = try history(Array(0..<40))
    let through = full.latestAnchor.rawValue
    let (store, counter) = reopen(full, through: through)
    #expect(!store.isHistoryLoaded)
    let written = try scaleWrites(store, 71, at: 500)
    let result = try store.anchoredResult(
      type: .bodyMass, anchor: QueryAnchor(fromValue: through), limit: 500)
    #expect(result.samples.map(\.uuid) == [written.uuid])
    _ = try observe(store)
    try scaleWrites(store, 72, at: 501)
    #expect(counter.loads == 0)
    #expect(!store.isHistoryLoaded)
    // Anything about the whole history reads it, once.
    #expect(store.liveSampleCount(of: .bodyMass) == full.liveSampleCount(of: .bodyMass) + 2)
    _ = store.allSamples(of: .bodyMass)
    #expect(counter.loads == 1)
    #expect(store.isHistoryLoaded)
  }

  @Test("with the older synced samples known, replacing and deleting them reads nothing older")
  func syncedSamplesNeedNoHistory() throws {
    let full = makeStore()
    for minute in 0..<20 { try scaleWrites(full, 70, at: Double(minute)) }
    try full.save([weight(71, at: 30, syncID: "a", version: 1)])
    try full.save([weight(72, at: 31, syncID: "b", version: 1)])
    for minute in 40..<60 { try scaleWrites(full, 70, at: Double(minute)) }
    let (store, counter) = reopen(full, through: full.latestAnchor.rawValue, synced: true)
    // Replacing "a" leaves a deletion record for its old sample and adds the new one.
    let replaced = try store.save([weight(71.5, at: 30, syncID: "a", version: 2)])
    #expect(replaced.count == 1)
    // An equal version of "b" is ignored.
    #expect(try store.save([weight(72.5, at: 31, syncID: "b", version: 1)]).isEmpty)
    let b = try #require(full.allSamples(of: .bodyMass).first { $0.syncIdentifier == "b" })
    #expect(store.sample(with: b.uuid!)?.value == 72)
    try store.delete([b])
    #expect(counter.loads == 0)
    let after = try store.anchoredResult(type: .bodyMass, anchor: full.latestAnchor)
    #expect(after.deletedObjects.count == 2)
    #expect(after.samples.map(\.value) == [71.5])
    // Loading the rest later leaves the deleted ones out.
    #expect(store.liveSampleCount(of: .bodyMass) == 41)
    #expect(counter.loads == 1)
    #expect(
      store.allSamples(of: .bodyMass).filter { $0.syncIdentifier != nil }.map(\.value) == [71.5])
  }

  @Test("deleting an older sample reads the older records first")
  func deletingOlderSample() throws {
    let full = try history(Array(0..<10))
    let oldest = full.allSamples(of: .bodyMass)[0]
    let (store, counter) = reopen(full, through: full.latestAnchor.rawValue)
    #expect(try store.deleteAsOwner([oldest.uuid!]) == 1)
    #expect(counter.loads == 1)
    #expect(store.sample(with: oldest.uuid!) == nil)
    #expect(store.deletedObjectRecords(of: .bodyMass).last?.uuid == oldest.uuid)
  }

  @Test(
    "after any history and any split, with or without the older synced samples, every operation answers as on the whole store"
  )
  func partialEqualsWhole() async {
    await propertyCheck(
      count: 150, input: Gen.int(in: 0...400).array(of: 0...40),
      Gen.int(in: 0...400).array(of: 1...25), Gen.int(in: 0...201)
    ) { before, after, split in
      failingOnThrow {
        let whole = try history(before)
        let through = whole.latestAnchor.rawValue * Int64(split % 101) / 100
        let (partial, _) = reopen(whole, through: through, synced: split > 100)
        let reference = HealthStore(snapshot: whole.snapshot())
        var feeds: ([HealthChange], [HealthChange]) = ([], [])
        reference.recorder = { feeds.0.append($0) }
        partial.recorder = { feeds.1.append($0) }
        for code in after {
          let live = reference.allSamples(of: .bodyMass)
          let victim = live.isEmpty ? nil : live[code % live.count].uuid
          let a = try operate(code, on: reference, deleting: victim)
          let b = try operate(code, on: partial, deleting: victim)
          #expect(a == b, "operation \(code)")
        }
        #expect(feeds.0 == feeds.1)
        #expect(partial.snapshot() == reference.snapshot())
      }
    }
  }

  /// One operation coded as an integer, and what it answered. The sample to delete
  /// is chosen on the whole store, so choosing loads nothing on the store under test.
  func operate(_ code: Int, on store: HealthStore, deleting victim: UUID?) throws -> [AnyHashable] {
    switch code % 8 {
    case 0, 1:
      let saved = try store.save([weight(65, at: Double(code))], as: scaleSource)
      return ["saved", saved]
    case 2:
      let anchor = QueryAnchor(fromValue: Int64(code) % (store.latestAnchor.rawValue + 1))
      let result = try store.anchoredResult(type: .bodyMass, anchor: anchor, limit: code % 4)
      return ["read", result]
    case 3:
      guard let victim else { return ["nothing to delete"] }
      return ["deleted", try store.deleteAsOwner([victim])]
    case 4:
      let saved = try store.save([
        weight(66, at: Double(code), syncID: "id-\(code % 3)", version: Double(code))
      ])
      return ["replaced", saved]
    case 5:
      return ["purged", store.purgeDeletedObjects(keepingNewest: code % 3)]
    case 6:
      let statistics = try store.statistics(
        of: .bodyMass, options: [.discreteAverage, .discreteMax, .mostRecent])
      return ["statistics", statistics.merged]
    default:
      let read = try store.anchoredResult(type: .bodyMass, anchor: store.latestAnchor)
      return ["latest", read]
    }
  }
}

/// Counts reads of the older records.
final class LoadCounter {
  var loads = 0
}
