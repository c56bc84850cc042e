import HealthKit
import Testing

/// HKMetadataKeySyncIdentifier and HKMetadataKeySyncVersion: replacement by version (Y1–Y6).
@Suite struct SyncIdentifierTests {
  let weight = Make.weightType

  @Test func aHigherVersionReplacesTheSample() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let first = Make.synced(70, at: device.now, id: "entry-1", version: 1)
      try await store.save(first)
      let other = Make.synced(60, at: device.now, id: "entry-2", version: 1)
      try await store.save(other)
      let synced = try await store.changes(of: weight, after: nil)
      let second = Make.synced(70.4, at: device.now, id: "entry-1", version: 2)
      try await store.save(second)
      let change = try await store.changes(of: weight, after: synced.anchor)
      #expect(change.deleted.map(\.uuid) == [first.uuid])
      #expect(change.deleted.first?.metadata?[HKMetadataKeySyncIdentifier] as? String == "entry-1")
      #expect(change.samples.map(\.uuid) == [second.uuid])
      let live = try await store.samples(of: weight)
      #expect(Set(live.map(\.uuid)) == [second.uuid, other.uuid])
      let kept = try #require(live.first { $0.uuid == second.uuid } as? HKQuantitySample)
      #expect(kept.quantity.doubleValue(for: Make.kilogram) == 70.4)
      #expect((kept.metadata?[HKMetadataKeySyncVersion] as? NSNumber)?.intValue == 2)
    }
  }

  @Test(arguments: [1, 2])
  func anEqualOrLowerVersionIsIgnored(version: Int) async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let observed = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
          observed.increment()
          completionHandler()
        })
      let stored = Make.synced(70, at: device.now, id: "entry-1", version: 2)
      try await store.save(stored)
      await device.settle()
      #expect(observed.value == 1)
      let synced = try await store.changes(of: weight, after: nil)
      let stale = Make.synced(99, at: device.now, id: "entry-1", version: version)
      // The save reports success.
      let reported = Locked<(Bool, HKError.Code?)?>(nil)
      store.save(stale) { success, error in reported.update { $0 = (success, .of(error)) } }
      #expect(reported.value?.0 == true)
      #expect(reported.value?.1 == nil)
      await device.settle()
      let change = try await store.changes(of: weight, after: synced.anchor)
      #expect(change.samples.isEmpty && change.deleted.isEmpty)
      // No change position was used and no observer fired.
      #expect(change.anchor == synced.anchor)
      #expect(observed.value == 1)
      let live = try await store.samples(of: weight)
      #expect(live.map(\.uuid) == [stored.uuid])
    }
  }

  @Test func identifiersMatchPerSource() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let mine = Make.synced(70, at: device.now, id: "entry-1", version: 5)
      try await store.save(mine)
      let theirs = Make.synced(71, at: device.now, id: "entry-1", version: 1)
      try device.saveAsOtherApp([theirs], name: "Scale", bundleIdentifier: "com.example.scale")
      let live = try await store.samples(of: weight)
      #expect(Set(live.map(\.uuid)) == [mine.uuid, theirs.uuid])
    }
  }

  @Test func anIdentifierWithoutAVersionIsAnInvalidArgument() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let sample = Make.weight(70, at: device.now, metadata: [HKMetadataKeySyncIdentifier: "x"])
      await #expect(throws: HKError(.errorInvalidArgument)) { try await store.save(sample) }
      let live = try await store.samples(of: weight)
      #expect(live.isEmpty)
    }
  }
}
