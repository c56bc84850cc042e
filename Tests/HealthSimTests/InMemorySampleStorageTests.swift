import Foundation
import HealthSim
import PropertyBased
import Testing

/// `InMemorySampleStorage`, fed the change feed a `HealthStore` records one command at a
/// time, holds what the store holds and answers its queries as the store does.
@Suite struct InMemorySampleStorageTests {
  /// `sample` as a store keeps it: with a UUID and the scale as its source.
  func stored(_ sample: HealthSample) -> HealthSample {
    HealthSample(
      uuid: UUID(), type: sample.type, startDate: sample.startDate, endDate: sample.endDate,
      value: sample.value, sourceRevision: scaleSource, device: nil, metadata: sample.metadata,
      creationDate: epoch, workout: nil)
  }

  /// One command on `store`: saves (some with sync identifiers, so some replace), deletions,
  /// purges and trims, the clock moving.
  func command(_ code: Int, on store: HealthStore) throws {
    let live = store.allSamples(of: .bodyMass)
    switch code % 7 {
    case 0 where !live.isEmpty:
      try store.deleteAsOwner([live[code % live.count].uuid!])
    case 1:
      try store.save([
        weight(70, at: Double(code % 500), syncID: "id-\(code % 3)", version: Double(code))
      ])
    case 2 where code % 3 == 0:
      store.purgeDeletedObjects(olderThan: Double(code % 4) * 60)
    case 2:
      store.purgeDeletedObjects(keepingNewest: code % 5)
    case 3:
      _ = store.advance(by: Double(code % 90) * 60)
    default:
      try store.save(
        (0...(code % 3)).map { weight(60 + Double(code % 30), at: Double(code % 500 + $0)) },
        as: scaleSource)
    }
  }

  @Test func theFeedOfAnyHistoryGivesTheStoresAnswers() async {
    await propertyCheck(count: 100, input: Gen.int(in: 0...10_000).array(of: 0...40)) { codes in
      failingOnThrow {
        let store = makeStore()
        var pending: [HealthChange] = []
        store.recorder = { pending.append($0) }
        let storage = InMemorySampleStorage()
        for code in codes {
          try command(code, on: store)
          try storage.apply(pending)
          pending = []
        }
        let snapshot = store.snapshot()
        #expect(try storage.records(after: 0, limit: 0) == snapshot.records)
        #expect(try storage.smallState() ?? snapshot.state == snapshot.state)
        #expect(try storage.lastPosition() <= snapshot.state.counter)
        let counts = try storage.counts(of: .bodyMass)
        #expect(counts.samples == store.liveSampleCount(of: .bodyMass))
        #expect(counts.deletions == store.deletedObjectCount(of: .bodyMass))
        for sample in store.allSamples(of: .bodyMass) {
          let stored = try storage.sample(uuid: sample.uuid!)
          #expect(stored?.sample == sample)
          #expect(stored?.position == store.position(of: sample.uuid!))
        }
        #expect(
          try storage.changes(of: .bodyMass, after: 0, limit: 0).map(\.position)
            == snapshot.records.map(\.position))
        // The start-date index finds what a scan of every sample finds.
        let every = try storage.samples(of: .bodyMass, startingIn: nil, bundle: nil)
        for (index, code) in codes.enumerated() {
          let lower = at(Double(code % 520) - 10)
          let range = lower..<lower.addingTimeInterval(Double(index % 6) * 300)
          let bundle = code % 2 == 0 ? nil : scaleSource.source.bundleIdentifier
          #expect(
            try storage.samples(of: .bodyMass, startingIn: range, bundle: bundle)
              == every.filter {
                range.contains($0.sample.startDate)
                  && (bundle == nil || $0.sample.source?.bundleIdentifier == bundle)
              })
        }
        for identifier in ["id-0", "id-1", "id-2"] {
          let newest = try storage.samples(
            syncIdentifier: identifier, type: .bodyMass,
            bundle: HealthStore.defaultApp.source.bundleIdentifier)
          #expect(
            newest.last?.sample
              == store.allSamples(of: .bodyMass).last { $0.syncIdentifier == identifier })
        }
      }
    }
  }

  @Test func aRefusedChangeLeavesEverythingAsItWas() throws {
    let storage = InMemorySampleStorage()
    let first = stored(weight(70))
    try storage.apply([.sampleSaved(first, position: 1)])
    let second = stored(weight(71))
    let third = stored(weight(72))
    #expect(throws: HealthStorageError.positionNotAfter(change: 1, position: 1, last: 2)) {
      try storage.apply([.sampleSaved(second, position: 2), .sampleSaved(third, position: 1)])
    }
    #expect(throws: HealthStorageError.duplicateUUID(change: 1, uuid: first.uuid!)) {
      try storage.apply([.sampleSaved(second, position: 2), .sampleSaved(first, position: 3)])
    }
    #expect(throws: HealthStorageError.noLiveSample(change: 0, uuid: second.uuid!)) {
      try storage.apply([.sampleDeleted(uuid: second.uuid!, position: 2, date: epoch)])
    }
    // A UUID twice among saves alone (the check without its set of the batch's UUIDs is
    // taken only when no UUID repeats), and deleted twice after its save in one apply.
    #expect(throws: HealthStorageError.duplicateUUID(change: 2, uuid: second.uuid!)) {
      try storage.apply([
        .sampleSaved(second, position: 2), .sampleSaved(third, position: 3),
        .sampleSaved(second, position: 4),
      ])
    }
    #expect(try storage.records(after: 0, limit: 0) == [.sample(first, position: 1)])
    #expect(try storage.lastPosition() == 1)
    #expect(try storage.counts(of: nil) == RecordCounts(samples: 1, deletions: 0))
    #expect(throws: HealthStorageError.noLiveSample(change: 2, uuid: second.uuid!)) {
      try storage.apply([
        .sampleSaved(second, position: 2),
        .sampleDeleted(uuid: second.uuid!, position: 3, date: epoch),
        .sampleDeleted(uuid: second.uuid!, position: 4, date: epoch),
      ])
    }
    #expect(try storage.counts(of: nil) == RecordCounts(samples: 1, deletions: 0))
  }

  @Test func statisticsAddByStartDateInEachInterval() throws {
    let storage = InMemorySampleStorage()
    let values: [(Double, Double)] = [(0, 70), (30, 72), (59, 71), (60, 80), (200, 90)]
    try storage.apply(
      values.enumerated().map { index, pair in
        .sampleSaved(
          stored(weight(pair.1, at: pair.0)),
          position: Int64(index + 1))
      })
    let hours = (0...2).map { at(Double($0) * 60) }
    let buckets = try storage.statistics(of: .bodyMass, boundaries: hours, bundle: nil)
    #expect(buckets.map(\.count) == [3, 1])
    #expect(buckets.map(\.sum) == [213, 80])
    #expect(buckets.map(\.minimum) == [70, 80])
    #expect(buckets.map(\.maximum) == [72, 80])
    #expect(
      try storage.statistics(of: .bodyMass, boundaries: hours, bundle: "other").map(\.count) == [
        0, 0,
      ])
    #expect(throws: HealthStorageError.self) {
      try storage.statistics(of: .bodyMass, boundaries: [hours[1], hours[0]], bundle: nil)
    }
  }
}
