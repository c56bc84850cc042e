import Foundation
import HealthSim
import Testing

@Suite("Anchored queries (A1–A22)")
struct AnchoredQueryTests {
  @Test("A4: the anchor wraps a strictly increasing store-wide counter and is Codable")
  func a4AnchorIsCounter() throws {
    let store = makeStore()
    let first = try scaleWrites(store, 70)
    try store.save(
      [HealthSample(type: .stepCount, value: 10, start: at(0), end: at(5))], as: otherApp)
    try store.deleteAsOwner([first.uuid!])
    #expect(store.latestAnchor == QueryAnchor(fromValue: 3))
    let data = try JSONEncoder().encode(store.latestAnchor)
    #expect(try JSONDecoder().decode(QueryAnchor.self, from: data) == store.latestAnchor)
  }

  @Test("A2: a nil anchor returns every live sample and every kept deleted-object record")
  func a2NilAnchor() throws {
    let store = makeStore()
    let a = try scaleWrites(store, 70, at: 0)
    try scaleWrites(store, 71, at: 1)
    try store.deleteAsOwner([a.uuid!])
    let result = try store.anchoredResult(type: .bodyMass, anchor: nil)
    #expect(result.samples.map(\.value) == [71])
    #expect(result.deletedObjects.map(\.uuid) == [a.uuid!])
    #expect(result.newAnchor == QueryAnchor(fromValue: 3))
  }

  @Test("A1/A5: only changes after the anchor; reusing it with no changes gives nothing")
  func a1a5AfterAnchor() throws {
    let store = makeStore()
    try scaleWrites(store, 70)
    let first = try store.anchoredResult(type: .bodyMass, anchor: nil)
    try scaleWrites(store, 71, at: 1)
    let second = try store.anchoredResult(type: .bodyMass, anchor: first.newAnchor)
    #expect(second.samples.map(\.value) == [71])
    let third = try store.anchoredResult(type: .bodyMass, anchor: second.newAnchor)
    let again = try store.anchoredResult(type: .bodyMass, anchor: second.newAnchor)
    #expect(third.changes.isEmpty && again.changes.isEmpty)
  }

  @Test("A13/A14: the limit counts samples and deletions together; 0 is no limit; paging")
  func a13Limit() throws {
    let store = makeStore()
    let samples = try (0..<5).map { try scaleWrites(store, 70 + Double($0), at: Double($0)) }
    try store.deleteAsOwner([samples[1].uuid!, samples[3].uuid!])
    let all = try store.anchoredResult(type: .bodyMass, anchor: nil, limit: 0)
    #expect(all.changes.count == 5)
    var anchor: QueryAnchor? = nil
    var paged: [AnchoredChange] = []
    while true {
      let page = try store.anchoredResult(type: .bodyMass, anchor: anchor, limit: 2)
      #expect(page.changes.count <= 2)
      if page.changes.isEmpty { break }
      paged += page.changes
      anchor = page.newAnchor
    }
    #expect(paged == all.changes)
  }

  @Test("A15: results come in change order, not date order, interleaved, cut at the limit")
  func a15ChangeOrder() throws {
    let store = makeStore()
    let late = try scaleWrites(store, 70, at: 100)
    try scaleWrites(store, 71, at: 0)
    try store.deleteAsOwner([late.uuid!])
    try scaleWrites(store, 72, at: 50)
    let result = try store.anchoredResult(type: .bodyMass, anchor: .noAnchor, limit: 2)
    #expect(result.changes.count == 2)
    guard case .added(let first, _) = result.changes[0],
      case .deleted(let gone, let anchor) = result.changes[1]
    else {
      Issue.record("expected a sample then a deletion, got \(result.changes)")
      return
    }
    #expect(first.value == 71)
    #expect(gone.uuid == late.uuid)
    #expect(result.newAnchor == anchor)
  }

  @Test(
    "A6: with nothing returned, newAnchor is the input anchor (0 for nil), or the latest position by knob"
  )
  func a6EmptyAnchor() throws {
    let store = makeStore()
    #expect(try store.anchoredResult(type: .bodyMass, anchor: nil).newAnchor == .noAnchor)
    try store.save([HealthSample(type: .bloodGlucose, value: 100, start: at(0))], as: otherApp)
    let given = QueryAnchor(fromValue: 0)
    #expect(try store.anchoredResult(type: .bodyMass, anchor: given).newAnchor == given)
    var settings = store.settings
    settings.emptyResultAnchor = .latestPosition
    store.settings = settings
    #expect(try store.anchoredResult(type: .bodyMass, anchor: given).newAnchor.rawValue == 1)
  }

  @Test("A9: the predicate filters deleted-object records by their kept type and dates")
  func a9PredicateOnDeletions() throws {
    let store = makeStore()
    let early = try scaleWrites(store, 70, at: 0)
    let late = try scaleWrites(store, 71, at: 600)
    try store.deleteAsOwner([early.uuid!, late.uuid!])
    let predicate = SamplePredicate.samples(withStart: at(500), end: at(700))
    let result = try store.anchoredResult(type: .bodyMass, predicate: predicate, anchor: nil)
    #expect(result.deletedObjects.map(\.uuid) == [late.uuid!])
    #expect(try store.anchoredResult(type: .stepCount, anchor: nil).changes.isEmpty)
  }

  @Test("A10: a deleted object keeps only the UUID and the sync identifier and version")
  func a10DeletedObjectMetadata() throws {
    let store = makeStore()
    var metadata = weight(70, syncID: "weigh-1", version: 2).metadata
    metadata[MetadataKey.wasUserEntered] = .bool(true)
    metadata["Withings User Identifier"] = .string("42")
    let saved = try store.save(
      [HealthSample(type: .bodyMass, value: 70, start: at(0), metadata: metadata)])[0]
    try store.delete([saved])
    let deleted = try store.anchoredResult(type: .bodyMass, anchor: nil).deletedObjects
    #expect(deleted.count == 1)
    #expect(deleted[0].uuid == saved.uuid)
    #expect(
      deleted[0].metadata == [
        MetadataKey.syncIdentifier: .string("weigh-1"), MetadataKey.syncVersion: .number(2),
      ])
  }

  @Test("A11: purged deleted-object records vanish; a stale anchor then misses the deletion")
  func a11Purge() throws {
    let store = makeStore()
    let old = try scaleWrites(store, 70)
    let anchor = try store.anchoredResult(type: .bodyMass, anchor: nil).newAnchor
    try store.deleteAsOwner([old.uuid!])
    store.advance(by: 86_400 * 2)
    let recent = try scaleWrites(store, 71, at: 1)
    try store.deleteAsOwner([recent.uuid!])
    #expect(store.purgeDeletedObjects(olderThan: 86_400) == 1)
    #expect(store.deletedObjectCount() == 1)
    let result = try store.anchoredResult(type: .bodyMass, anchor: anchor)
    #expect(result.deletedObjects.map(\.uuid) == [recent.uuid!])
    #expect(store.purgeDeletedObjects(keepingNewest: 0) == 1)
    #expect(try store.anchoredResult(type: .bodyMass, anchor: anchor).changes.isEmpty)
  }

  @Test("A17–A19: an update handler needs no limit, is fixed at execute, and gets deltas")
  func a17UpdateHandler() throws {
    let store = makeStore()
    let limited = AnchoredQuery(type: .bodyMass, anchor: nil, limit: 5) { _, _, _, _, _ in }
    limited.updateHandler = { _, _, _, _, _ in }
    #expect(throws: HealthError.self) { try store.execute(limited) }

    var initial: [Double] = []
    var updates: [[Double]] = []
    var anchors: [QueryAnchor] = []
    let query = AnchoredQuery(type: .bodyMass, anchor: nil) { _, samples, _, _, _ in
      initial = samples?.map(\.value) ?? []
    }
    query.updateHandler = { _, samples, _, anchor, _ in
      updates.append(samples?.map(\.value) ?? [])
      anchors.append(anchor!)
    }
    try scaleWrites(store, 70)
    try store.execute(query)
    query.updateHandler = { _, _, _, _, _ in Issue.record("set after execute must not apply") }
    try scaleWrites(store, 71, at: 1)
    store.settle()
    try scaleWrites(store, 72, at: 2)
    store.settle()
    #expect(initial == [70])
    #expect(updates == [[71], [72]])
    #expect(anchors.map(\.rawValue) == [2, 3])
  }

  @Test("A22: a query executes once; stop silences every later handler call")
  func a22ExecuteOnceAndStop() throws {
    let store = makeStore()
    var calls = 0
    let query = ObserverQuery(sampleType: .bodyMass) { _, completion, _ in
      calls += 1
      completion()
    }
    try store.execute(query)
    #expect(throws: HealthError.self) { try store.execute(query) }
    try scaleWrites(store, 70)
    store.settle()
    store.stop(query)
    store.stop(query)
    try scaleWrites(store, 71, at: 1)
    store.settle()
    #expect(calls == 1)
  }
}
