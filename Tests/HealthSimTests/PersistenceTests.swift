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

@Suite("The generator's state as JSON")
struct GeneratorCodingTests {
  @Test("the state survives JSON exactly, as text, and older numeric states still decode")
  func exactRoundTrip() throws {
    var generator = SeededGenerator(seed: 42)
    _ = generator.next()
    let data = try JSONEncoder().encode(generator)
    let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object.values.allSatisfy { ($0 as? String)?.count == 16 })
    var back = try JSONDecoder().decode(SeededGenerator.self, from: data)
    #expect(back == generator)
    #expect((0..<4).map { _ in back.next() } == (0..<4).map { _ in generator.next() })

    let numeric = Data(#"{"s0":1,"s1":2,"s2":18446744073709551615,"s3":4}"#.utf8)
    var old = try JSONDecoder().decode(SeededGenerator.self, from: numeric)
    let text = Data(#"{"s0":"1","s1":"2","s2":"ffffffffffffffff","s3":"4"}"#.utf8)
    var new = try JSONDecoder().decode(SeededGenerator.self, from: text)
    #expect(old.next() == new.next())
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        SeededGenerator.self, from: Data(#"{"s0":"x","s1":"2","s2":"3","s3":"4"}"#.utf8))
    }
  }
}

@Suite("Records by change position")
struct RecordAtPositionTests {
  @Test("a position holds its live sample, its deletion record, or nothing once gone")
  func recordAtPosition() throws {
    let store = makeStore()
    let first = try scaleWrites(store, 70, at: 0)
    let second = try scaleWrites(store, 71, at: 1)
    try store.deleteAsOwner([first.uuid!])
    #expect(store.record(at: 2) == .sample(second, position: 2))
    #expect(store.record(at: 1) == nil)
    guard case .deletion(let record, 3)? = store.record(at: 3) else {
      Issue.record("expected the deletion record at position 3")
      return
    }
    #expect(record.uuid == first.uuid)
    store.purgeDeletedObjects()
    #expect(store.record(at: 3) == nil)
    #expect(store.record(at: 99) == nil)
  }
}
