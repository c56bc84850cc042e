import Foundation
import HealthSim
import Testing

/// A blood-pressure correlation of `systolic`/`diastolic` mmHg at `minute`.
func pressure(_ systolic: Double, _ diastolic: Double, at minute: Double = 0) -> HealthSample {
  HealthSample(
    correlation: .bloodPressure,
    objects: [
      HealthSample(type: .bloodPressureSystolic, value: systolic, start: at(minute)),
      HealthSample(type: .bloodPressureDiastolic, value: diastolic, start: at(minute)),
    ],
    start: at(minute))
}

@Suite("Blood-pressure correlations")
struct CorrelationTests {
  @Test("saving a correlation saves its objects first, each at its own change position")
  func savingSavesObjects() throws {
    let store = makeStore()
    let saved = try store.save([pressure(120, 80)])
    #expect(saved.count == 1)
    let correlation = saved[0]
    let objects = try #require(correlation.objects)
    #expect(objects.map(\.type) == [.bloodPressureSystolic, .bloodPressureDiastolic])
    #expect(objects.allSatisfy { $0.uuid != nil && $0.sourceRevision == store.app })
    #expect(store.allSamples(of: .bloodPressureSystolic) == [objects[0]])
    #expect(store.allSamples(of: .bloodPressureDiastolic) == [objects[1]])
    #expect(store.position(of: objects[0].uuid!) == 1)
    #expect(store.position(of: objects[1].uuid!) == 2)
    #expect(store.position(of: correlation.uuid!) == 3)
    #expect(store.latestAnchor == QueryAnchor(fromValue: 3))
  }

  @Test("anchored and sample queries of a member type return the objects")
  func memberQueries() throws {
    let store = makeStore()
    let correlation = try store.save([pressure(130, 85)])[0]
    let result = try store.anchoredResult(type: .bloodPressureSystolic, anchor: nil)
    #expect(result.samples.map(\.value) == [130])
    #expect(result.samples.map(\.uuid) == [correlation.objects![0].uuid])
    #expect(try store.samples(of: .bloodPressureDiastolic).map(\.value) == [85])
  }

  @Test("a sample query of the correlation type returns correlations with their objects")
  func correlationQuery() throws {
    let store = makeStore()
    try store.save([pressure(120, 80, at: 0), pressure(140, 90, at: 5)])
    let found = try store.samples(
      of: .bloodPressure, sortedBy: [SampleSortDescriptor(.startDate, ascending: false)])
    #expect(found.count == 2)
    #expect(found[0].objects?.map(\.value).sorted() == [90, 140])
    #expect(found[1].objects?.map(\.value).sorted() == [80, 120])
    let anchored = try store.anchoredResult(type: .bloodPressure, anchor: nil)
    #expect(anchored.samples.map { $0.objects?.count } == [2, 2])
  }

  @Test("a correlation holds one systolic and one diastolic sample and no value")
  func invalidCorrelations() throws {
    let store = makeStore()
    let twoSystolic = HealthSample(
      correlation: .bloodPressure,
      objects: [
        HealthSample(type: .bloodPressureSystolic, value: 120, start: at(0)),
        HealthSample(type: .bloodPressureSystolic, value: 121, start: at(0)),
      ], start: at(0))
    let heartRate = HealthSample(
      correlation: .bloodPressure,
      objects: [
        HealthSample(type: .bloodPressureSystolic, value: 120, start: at(0)),
        HealthSample(type: .heartRate, value: 60, start: at(0)),
      ], start: at(0))
    let empty = HealthSample(correlation: .bloodPressure, objects: [], start: at(0))
    let valued = HealthSample(
      uuid: nil, type: .bloodPressure, startDate: at(0), endDate: at(0), value: 3,
      sourceRevision: nil, device: nil, metadata: [:], creationDate: nil, workout: nil,
      objects: pressure(120, 80).objects)
    let quantityWithObjects = HealthSample(
      uuid: nil, type: .heartRate, startDate: at(0), endDate: at(0), value: 60,
      sourceRevision: nil, device: nil, metadata: [:], creationDate: nil, workout: nil,
      objects: [])
    for bad in [twoSystolic, heartRate, empty, valued, quantityWithObjects] {
      #expect { try store.save([bad]) } throws: {
        ($0 as? HealthError)?.code == .errorInvalidArgument
      }
    }
    #expect(store.latestAnchor == .noAnchor)
    #expect(store.liveSampleCount(of: .bloodPressureSystolic) == 0)
  }

  @Test("deleting a correlation deletes its objects too, each leaving a deleted object")
  func deletingDeletesObjects() throws {
    let store = makeStore()
    let correlation = try store.save([pressure(120, 80)])[0]
    let systolic = correlation.objects![0]
    let anchor = store.latestAnchor
    try store.delete([correlation])
    #expect(store.liveSampleCount(of: .bloodPressure) == 0)
    #expect(store.liveSampleCount(of: .bloodPressureSystolic) == 0)
    #expect(store.liveSampleCount(of: .bloodPressureDiastolic) == 0)
    let result = try store.anchoredResult(type: .bloodPressureSystolic, anchor: anchor)
    #expect(result.deletedObjects.map(\.uuid) == [systolic.uuid!])
    #expect(
      try store.anchoredResult(type: .bloodPressure, anchor: anchor).deletedObjects.count == 1)
    #expect(store.deletedObjectCount() == 3)
  }

  @Test("with the knob off, deleting a correlation leaves its objects")
  func deletingWithKnobOff() throws {
    let store = makeStore()
    store.settings.deletingCorrelationDeletesObjects = false
    let correlation = try store.save([pressure(120, 80)])[0]
    #expect(try store.deleteObjects(of: .bloodPressure, predicate: nil) == 1)
    #expect(store.liveSampleCount(of: .bloodPressureSystolic) == 1)
    #expect(store.liveSampleCount(of: .bloodPressure) == 0)
    #expect(store.sample(with: correlation.objects![1].uuid!) != nil)
  }

  @Test("deleting one object leaves the correlation showing the other")
  func deletingAnObject() throws {
    let store = makeStore()
    let correlation = try store.save([pressure(120, 80)])[0]
    try store.delete([correlation.objects![0]])
    let found = try store.samples(of: .bloodPressure)
    #expect(found.map { $0.objects?.map(\.type) } == [[.bloodPressureDiastolic]])
  }

  @Test("permissions are the member types': write needs both, read hides unreadable objects")
  func permissions() throws {
    let store = makeStore()
    try store.save([pressure(125, 82)], as: scaleSource)
    store.setWriteAuthorization(.denied, for: [.bloodPressureDiastolic])
    #expect { try store.save([pressure(120, 80)]) } throws: {
      ($0 as? HealthError)?.code == .errorAuthorizationDenied
    }
    store.setReadAuthorization(.denied, for: [.bloodPressureDiastolic])
    let seen = try store.samples(of: .bloodPressure)
    #expect(seen.map { $0.objects?.map(\.value) } == [[125]])
    store.setReadAuthorization(.denied, for: [.bloodPressureSystolic])
    #expect(try store.samples(of: .bloodPressure).isEmpty)
    #expect {
      try store.requestAuthorization(toShare: [.bloodPressure], read: [])
    } throws: { ($0 as? HealthError)?.code == .errorInvalidArgument }
  }

  @Test("an object saved before can be put in a correlation without saving it twice")
  func reusingASavedObject() throws {
    let store = makeStore()
    let systolic = HealthSample(
      type: .bloodPressureSystolic, value: 118, start: at(0), uuid: store.makeUUID())
    try store.save([systolic])
    let correlation = HealthSample(
      correlation: .bloodPressure,
      objects: [systolic, HealthSample(type: .bloodPressureDiastolic, value: 76, start: at(0))],
      start: at(0))
    let saved = try store.save([correlation])[0]
    #expect(store.liveSampleCount(of: .bloodPressureSystolic) == 1)
    #expect(saved.objects?.first?.uuid == systolic.uuid)
    #expect(store.latestAnchor == QueryAnchor(fromValue: 3))
  }

  @Test("observers of a member type fire when a correlation is saved")
  func observersFire() throws {
    let store = makeStore()
    let probe = try observe(store, type: .bloodPressureDiastolic)
    try store.save([pressure(120, 80)], as: scaleSource)
    store.settle()
    #expect(probe.calls == 1)
  }

  @Test("correlations survive the snapshot and the change feed, deletions included")
  func persistence() throws {
    let store = makeStore()
    var feed: [HealthChange] = []
    store.recorder = { feed.append($0) }
    let first = try store.save([pressure(120, 80, at: 0)])[0]
    try store.save([pressure(135, 88, at: 5)])
    try store.delete([first])
    let decoded = try JSONDecoder().decode(
      HealthSnapshot.self, from: JSONEncoder().encode(store.snapshot()))
    let restored = HealthStore(snapshot: decoded)
    let replayed = HealthStore(clock: epoch)
    for change in feed { replayed.apply(change) }
    for copy in [restored, replayed] {
      #expect(try copy.samples(of: .bloodPressure) == store.samples(of: .bloodPressure))
      #expect(copy.allSamples(of: .bloodPressureSystolic).map(\.value) == [135])
      #expect(copy.deletedObjectCount() == 3)
      #expect(copy.latestAnchor == store.latestAnchor)
    }
  }
}
