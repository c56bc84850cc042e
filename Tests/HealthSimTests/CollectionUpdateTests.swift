import Foundation
import HealthSim
import Testing

/// Records what a long-running statistics collection query reported.
final class CollectionProbe {
  var initial: [Double?] = []
  var updates: [(changed: Double?, days: [Double?])] = []

  /// Daily averages from `at(-1 day)` through `at(+2 days)`, the window the tests use.
  static func days(_ collection: StatisticsCollection?) -> [Double?] {
    guard let collection else { return [] }
    return collection.enumerateStatistics(from: at(-60 * 24), to: at(60 * 24 * 2))
      .map { $0.averageQuantity()?.value }
  }

  func makeQuery(
    type: SampleType = .bodyMass, predicate: SamplePredicate? = nil, live: Bool = true
  ) -> StatisticsCollectionQuery {
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    let query = StatisticsCollectionQuery(
      quantityType: type, quantitySamplePredicate: predicate,
      options: type.aggregationStyle == .discrete ? .discreteAverage : .cumulativeSum,
      anchorDate: epoch, intervalComponents: DateComponents(day: 1), calendar: utc
    ) { [self] _, collection, _ in
      initial = CollectionProbe.days(collection)
    }
    if live {
      query.statisticsUpdateHandler = { [self] _, statistics, collection, error in
        #expect(error == nil)
        updates.append((statistics?.averageQuantity()?.value, CollectionProbe.days(collection)))
      }
    }
    return query
  }
}

@Suite("Statistics collection query live updates (T9)")
struct CollectionUpdateTests {
  @Test("T9: initial results, then the updated collection after each save and delete")
  func t9UpdatesOnSaveAndDelete() throws {
    let store = makeStore()
    try scaleWrites(store, 70, at: 60)
    let probe = CollectionProbe()
    let query = probe.makeQuery()
    try store.execute(query)
    #expect(probe.initial == [nil, 70, nil, nil])
    #expect(probe.updates.isEmpty)

    let saved = try scaleWrites(store, 74, at: 120)
    #expect(probe.updates.count == 1)
    #expect(probe.updates.last?.changed == 72)
    #expect(probe.updates.last?.days == [nil, 72, nil, nil])

    try scaleWrites(store, 80, at: 60 * 25)
    #expect(probe.updates.count == 2)
    #expect(probe.updates.last?.changed == 80)
    #expect(probe.updates.last?.days == [nil, 72, 80, nil])

    try store.deleteAsOwner([saved.uuid!])
    #expect(probe.updates.count == 3)
    #expect(probe.updates.last?.changed == 70)
    #expect(probe.updates.last?.days == [nil, 70, 80, nil])
  }

  @Test("T9: deleting a day's only sample reports that interval as nil statistics")
  func t9DeleteEmptiesInterval() throws {
    let store = makeStore()
    let only = try scaleWrites(store, 70, at: 60)
    let probe = CollectionProbe()
    try store.execute(probe.makeQuery())
    try store.deleteAsOwner([only.uuid!])
    #expect(probe.updates.count == 1)
    #expect(probe.updates.last?.changed == nil)
    #expect(probe.updates.last?.days == [nil, nil, nil, nil])
  }

  @Test("T9: no update after stop")
  func t9NoneAfterStop() throws {
    let store = makeStore()
    let probe = CollectionProbe()
    let query = probe.makeQuery()
    try store.execute(query)
    try scaleWrites(store, 70, at: 60)
    #expect(probe.updates.count == 1)
    store.stop(query)
    try scaleWrites(store, 71, at: 60)
    store.settle()
    #expect(probe.updates.count == 1)
    #expect(query.isStopped)
  }

  @Test("T9: no update for other types or for samples the predicate excludes")
  func t9NoneForOtherTypes() throws {
    let store = makeStore()
    let probe = CollectionProbe()
    try store.execute(
      probe.makeQuery(predicate: SamplePredicate.samples(withStart: epoch, end: at(60 * 24))))
    try store.save(
      [HealthSample(type: .stepCount, value: 500, start: at(10), end: at(20))], as: otherApp)
    try scaleWrites(store, 90, at: 60 * 30)
    store.settle()
    #expect(probe.updates.isEmpty)
    try scaleWrites(store, 70, at: 60)
    #expect(probe.updates.count == 1)
  }

  @Test("T9: without an update handler the query reports once and stays one-shot")
  func t9NilHandlerUnchanged() throws {
    let store = makeStore()
    try scaleWrites(store, 70, at: 60)
    let probe = CollectionProbe()
    let query = probe.makeQuery(live: false)
    try store.execute(query)
    #expect(probe.initial == [nil, 70, nil, nil])
    try scaleWrites(store, 74, at: 60)
    store.settle()
    #expect(probe.updates.isEmpty)
    #expect(!query.isStopped)
  }

  @Test("T9: updates wait while the app is in the background and arrive in the foreground")
  func t9WaitsForForeground() throws {
    let store = makeStore()
    let probe = CollectionProbe()
    try store.execute(probe.makeQuery())
    store.backgroundApp()
    try scaleWrites(store, 70, at: 60)
    try scaleWrites(store, 72, at: 90)
    store.settle()
    #expect(probe.updates.isEmpty)
    store.foregroundApp()
    store.settle()
    #expect(probe.updates.count == 1)
    #expect(probe.updates.last?.days == [nil, 71, nil, nil])
  }

  @Test("T9: quitting the app stops a live collection query")
  func t9QuitStops() throws {
    let store = makeStore()
    let probe = CollectionProbe()
    let query = probe.makeQuery()
    try store.execute(query)
    store.quitApp()
    store.launchApp()
    try scaleWrites(store, 70, at: 60)
    store.settle()
    #expect(probe.updates.isEmpty)
    #expect(query.isStopped)
  }
}
