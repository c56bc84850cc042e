import Foundation
import HealthSim
import Testing

@Suite("Persistence: snapshot and change feed")
struct PersistenceTests {
  /// Drives a store through every kind of mutation.
  func exercise(_ store: HealthStore) throws {
    let probe = try observe(store)
    probe.skipCompletions = 1
    try store.startSimulation(
      SimulationDefinition(
        name: "scale", model: .scale(SimulatedScale(startKilograms: 80, noiseKilograms: 0.5)),
        interval: 3600, start: store.now, source: scaleSource.source))
    store.advance(by: 3600 * 5)
    let own = try store.save([weight(70, at: 400, syncID: "weigh-1", version: 1)])
    try store.save([weight(69, at: 400, syncID: "weigh-1", version: 2)])
    try store.delete(
      try store.samples(of: .bodyMass, predicate: .objects(from: [store.app.source])))
    _ = own
    store.backgroundApp()
    store.advance(by: 3600 * 3)
    store.purgeDeletedObjects(keepingNewest: 1)
    store.setReadAuthorization(.denied, for: [.stepCount])
    var settings = store.settings
    settings.retryBackoff = 120
    store.settings = settings
    store.advance(by: 86_400)
    store.purgeDeletedObjects(olderThan: 3600)
  }

  @Test("replaying the change feed onto an empty store reproduces the state")
  func replay() throws {
    let store = makeStore(seed: 3)
    var feed: [HealthChange] = []
    store.recorder = { feed.append($0) }
    try exercise(store)
    #expect(feed.count > 10)
    let copy = makeStore(seed: 3)
    for change in feed { copy.apply(change) }
    #expect(copy.snapshot() == store.snapshot())
    #expect(copy.latestAnchor == store.latestAnchor)
    #expect(
      try copy.anchoredResult(type: .bodyMass, anchor: nil)
        == store.anchoredResult(type: .bodyMass, anchor: nil))
  }

  @Test("the feed is JSON-codable, and a snapshot restores an equal store")
  func snapshotRoundTrip() throws {
    let store = makeStore(seed: 3)
    var feed: [HealthChange] = []
    store.recorder = { feed.append($0) }
    try exercise(store)
    let decoded = try JSONDecoder().decode(
      [HealthChange].self, from: JSONEncoder().encode(feed))
    #expect(decoded == feed)
    let data = try JSONEncoder().encode(store.snapshot())
    let restored = HealthStore(snapshot: try JSONDecoder().decode(HealthSnapshot.self, from: data))
    #expect(restored.snapshot() == store.snapshot())
    try scaleWrites(restored, 75, at: 99_999)
    #expect(restored.latestAnchor.rawValue == store.latestAnchor.rawValue + 1)
  }
}
