import HealthKit
import Testing

/// An app's shared store, created once at first use, as many apps keep it.
enum SharedHealth {
  static let store = HKHealthStore()
}

/// Patterns real apps use: nested callback queries, calls from many Tasks at once,
/// workouts through anchored queries, several types in one descriptor.
@Suite struct AppPatternTests {
  let weight = Make.weightType

  func scaleSaves(_ device: SimulatedDevice, _ kg: Double = 80) throws {
    try device.saveAsOtherApp(
      [Make.weight(kg, at: device.now)], name: "Scale", bundleIdentifier: "com.example.scale")
  }

  @Test(arguments: 0..<4)
  func aSharedStoreFollowsEachTestsDevice(index: Int) async throws {
    let device = SimulatedDevice(seed: UInt64(index))
    try await device.run {
      let store = SharedHealth.store
      #expect(store.device === device)
      for kg in 0...index { try await store.save(Make.weight(70 + Double(kg), at: device.now)) }
      let calls = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
          calls.increment()
          completionHandler()
        })
      try scaleSaves(device)
      await device.settle()
      #expect(calls.value == 1)
      #expect(try await store.samples(of: weight).count == index + 2)
    }
    // A store given a device keeps it everywhere.
    let pinned = HKHealthStore(device: device)
    let other = SimulatedDevice()
    other.run { #expect(pinned.device === device) }
  }

  @Test func anObserverCompletesFromANestedSampleQueryHandler() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let latest = Locked<Double?>(nil)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, error in
          guard error == nil else {
            completionHandler()
            return
          }
          let query = HKSampleQuery(
            sampleType: weight, predicate: nil, limit: 1,
            sortDescriptors: [
              NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)
            ]
          ) { _, samples, _ in
            let kg = (samples?.first as? HKQuantitySample)?.quantity.doubleValue(for: Make.kilogram)
            latest.update { $0 = kg }
            completionHandler()
          }
          store.execute(query)
        })
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      await device.moveAppToBackground()
      try scaleSaves(device, 81.5)
      await device.settle()
      #expect(latest.value == 81.5)
      #expect(device.observerStatus(for: weight) == .active)
      await device.advance(by: 600)
      #expect(device.deliveries(for: weight) == 1)
    }
  }

  @Test func anAppSavingFromItsOwnObserverIsWokenForItsOwnSave() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
          calls.increment()
          // The first wake writes a derived sample back; that save wakes the app again.
          if calls.value == 1 {
            store.save(Make.weight(70, at: device.now)) { _, _ in completionHandler() }
          } else {
            completionHandler()
          }
        })
      try scaleSaves(device)
      await device.settle()
      #expect(calls.value == 2)
      #expect(try await store.samples(of: weight).count == 2)
    }
  }

  @Test func manyTasksSavingAndReadingAtOnce() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
          calls.increment()
          completionHandler()
        })
      let start = device.now
      let saved = try await withThrowingTaskGroup(of: UUID.self) { group in
        for index in 0..<64 {
          group.addTask {
            let sample = Make.weight(
              60 + Double(index) / 10, at: start.addingTimeInterval(Double(index)))
            try await store.save(sample)
            _ = try await store.samples(of: weight, limit: 1)
            _ = try await store.changes(of: weight, after: nil, limit: 5)
            return sample.uuid
          }
        }
        return try await group.reduce(into: Set<UUID>()) { $0.insert($1) }
      }
      #expect(saved.count == 64)
      let all = try await store.changes(of: weight, after: nil)
      #expect(Set(all.samples.map(\.uuid)) == saved)
      await device.settle()
      // However the saves interleaved, each change was heard and nothing is left pending.
      #expect(calls.value >= 1)
      let heard = calls.value
      await device.advance(by: 3600)
      #expect(calls.value == heard)
    }
  }

  @Test func workoutsThroughAnAnchoredQueryAndTheirDeletion() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let type = HKObjectType.workoutType()
      let run = HKWorkout(
        activityType: .running, start: device.now, end: device.now.addingTimeInterval(1200))
      let yoga = HKWorkout(
        activityType: .yoga, start: device.now, end: device.now.addingTimeInterval(1800))
      try await store.save([run, yoga])
      let first = try await store.changes(of: type, after: nil)
      let workouts = first.samples.compactMap { $0 as? HKWorkout }
      #expect(workouts.map(\.uuid) == [run.uuid, yoga.uuid])
      #expect(workouts.map(\.workoutActivityType) == [.running, .yoga])
      #expect(workouts.first?.duration == 1200)
      try await store.delete(run)
      let next = try await store.changes(of: type, after: first.anchor)
      #expect(next.deleted.map(\.uuid) == [run.uuid])
      // Workouts and body mass keep separate histories.
      #expect(try await store.changes(of: weight, after: nil).samples.isEmpty)
    }
  }

  @Test func oneDescriptorOverTwoTypes() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let start = device.now
      let mass = Make.weight(70, at: start.addingTimeInterval(60))
      let walk = Make.steps(500, from: start)
      try await store.save([mass, walk])
      let descriptor = HKSampleQueryDescriptor(
        predicates: [.sample(type: weight), .sample(type: Make.stepType)],
        sortDescriptors: [SortDescriptor(\.startDate)])
      let samples = try await descriptor.result(for: store)
      #expect(samples.map(\.uuid) == [walk.uuid, mass.uuid])
      #expect(samples.map(\.sampleType) == [Make.stepType, weight])
    }
  }

  @Test func aSyncIdentifierPredicateFindsDeletionsToo() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let kept = Make.synced(70, at: device.now, id: "keep", version: 1)
      let gone = Make.synced(71, at: device.now, id: "gone", version: 1)
      try await store.save([kept, gone])
      try await store.delete(gone)
      let predicate = HKQuery.predicateForObjects(
        withMetadataKey: HKMetadataKeySyncIdentifier, allowedValues: ["gone"])
      let batch = try await store.changes(of: weight, predicate: predicate, after: nil)
      #expect(batch.samples.isEmpty)
      #expect(batch.deleted.map(\.uuid) == [gone.uuid])
    }
  }
}
