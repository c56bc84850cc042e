import Foundation
import HealthSim
import Testing

@Suite("Object identity: UUIDs given at creation, saved once")
struct IdentityTests {
  @Test("saving an object already saved succeeds and changes nothing, observers stay quiet")
  func resavingIsANoOp() throws {
    let store = makeStore()
    let probe = try observe(store)
    let sample = HealthSample(type: .bodyMass, value: 70, start: at(0), uuid: store.makeUUID())
    let stored = try store.save([sample])
    store.settle()
    #expect(probe.calls == 1)
    let anchor = store.latestAnchor
    #expect(try store.save([sample]).isEmpty)
    // The object as read back (writer and creation date set) is the same object.
    #expect(try store.save(stored).isEmpty)
    store.settle()
    #expect(probe.calls == 1)
    #expect(store.latestAnchor == anchor)
    #expect(store.liveSampleCount(of: .bodyMass) == 1)
    #expect(try store.anchoredResult(type: .bodyMass, anchor: anchor).changes.isEmpty)
  }

  @Test("a batch with a saved object and a new one saves only the new one")
  func mixedBatch() throws {
    let store = makeStore()
    let first = HealthSample(type: .bodyMass, value: 70, start: at(0), uuid: store.makeUUID())
    try store.save([first])
    let second = HealthSample(type: .bodyMass, value: 71, start: at(1), uuid: store.makeUUID())
    let saved = try store.save([first, second])
    #expect(saved.map(\.uuid) == [second.uuid])
    #expect(store.latestAnchor == QueryAnchor(fromValue: 2))
  }

  @Test("a different object reusing a saved UUID fails with 3")
  func reusedUUIDFails() throws {
    let store = makeStore()
    let uuid = store.makeUUID()
    try store.save([HealthSample(type: .bodyMass, value: 70, start: at(0), uuid: uuid)])
    for other in [
      HealthSample(type: .bodyMass, value: 70.5, start: at(0), uuid: uuid),
      HealthSample(type: .bodyMass, value: 70, start: at(1), uuid: uuid),
      HealthSample(type: .bloodGlucose, value: 70, start: at(0), uuid: uuid),
    ] {
      #expect { try store.save([other]) } throws: {
        ($0 as? HealthError)?.code == .errorInvalidArgument
      }
    }
    #expect(store.latestAnchor == QueryAnchor(fromValue: 1))
  }

  @Test("deleting a just-saved object by the app's own copy deletes it")
  func deletingTheAppsCopy() throws {
    let store = makeStore()
    let sample = HealthSample(type: .bodyMass, value: 70, start: at(0), uuid: store.makeUUID())
    try store.save([sample])
    #expect(sample.sourceRevision == nil && sample.creationDate == nil)
    try store.delete([sample])
    #expect(store.liveSampleCount(of: .bodyMass) == 0)
    let result = try store.anchoredResult(type: .bodyMass, anchor: nil)
    #expect(result.deletedObjects.map(\.uuid) == [sample.uuid!])
  }

  @Test("saving a saved correlation again changes nothing")
  func resavingACorrelation() throws {
    let store = makeStore()
    let correlation = HealthSample(
      correlation: .bloodPressure,
      objects: [
        HealthSample(
          type: .bloodPressureSystolic, value: 120, start: at(0), uuid: store.makeUUID()),
        HealthSample(
          type: .bloodPressureDiastolic, value: 80, start: at(0), uuid: store.makeUUID()),
      ], start: at(0), uuid: store.makeUUID())
    try store.save([correlation])
    let anchor = store.latestAnchor
    #expect(try store.save([correlation]).isEmpty)
    #expect(store.latestAnchor == anchor)
    #expect(store.liveSampleCount(of: .bloodPressureSystolic) == 1)
  }

  @Test("an observer query executed while Health is unavailable reports code 1 once")
  func observerWhileUnavailable() throws {
    let store = makeStore()
    store.setHealthDataAvailable(false)
    var errors: [HealthError?] = []
    let query = ObserverQuery(sampleType: .bodyMass) { _, completion, error in
      errors.append(error)
      completion()
    }
    try store.execute(query)
    #expect(errors.map { $0?.code } == [.errorHealthDataUnavailable])
    #expect(query.isStopped)
    #expect(store.observerState() == .off)
    store.setHealthDataAvailable(true)
    try scaleWrites(store, 70)
    store.settle()
    #expect(errors.count == 1)
    #expect(throws: HealthError.self) { try store.execute(query) }
  }
}
