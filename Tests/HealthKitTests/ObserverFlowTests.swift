import HealthKit
import Testing

/// Counts from any task.
actor Counter {
  private(set) var value = 0
  func increment() { value += 1 }
}

@Suite struct ObserverFlowTests {
  let weight = HKQuantityType(.bodyMass)

  func sample(_ kg: Double, at date: Date) -> HKQuantitySample {
    HKQuantitySample(
      type: weight, quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: kg),
      start: date, end: date)
  }

  @Test func anObserverMayCompleteFromATaskAfterAsyncWork() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      try await store.requestAuthorization(toShare: [weight], read: [weight])
      let synced = Counter()
      let query = HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
        Task {
          await synced.increment()
          completionHandler()
        }
      }
      store.execute(query)
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      try await store.save(sample(70, at: device.now))
      await device.settle()
      #expect(await synced.value == 1)
      #expect(device.deliveries(for: weight) == 1)
      #expect(device.observerStatus(for: weight) == .active)
    }
  }

  @Test func aMissedCompletionIsRetriedWithBackoffThenStops() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let query = HKObserverQuery(sampleType: weight, predicate: nil) { _, _, _ in }
      store.execute(query)
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      await device.moveAppToBackground()
      try await store.save(sample(70, at: device.now))
      await device.settle()
      #expect(device.observerStatus(for: weight) == .retrying)
      await device.advance(by: 60)
      #expect(device.deliveries(for: weight) == 2)
      await device.advance(by: 120)
      #expect(device.deliveries(for: weight) == 3)
      #expect(device.observerStatus(for: weight) == .stopped)
    }
  }

  @Test func savingTheSameObjectTwiceKeepsOneSampleAndDeletingItFindsIt() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let object = sample(70, at: device.now)
      try await store.save(object)
      try await store.save(object)
      let results = try await readAll(store)
      #expect(results.map(\.uuid) == [object.uuid])
      try await store.delete(object)
      #expect(try await readAll(store).isEmpty)
    }
  }

  func readAll(_ store: HKHealthStore) async throws -> [HKSample] {
    try await withCheckedThrowingContinuation { continuation in
      let query = HKSampleQuery(
        sampleType: weight, predicate: nil, limit: HKObjectQueryNoLimit,
        sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)]
      ) { _, samples, error in
        if let error {
          continuation.resume(throwing: error)
        } else {
          continuation.resume(returning: samples ?? [])
        }
      }
      store.execute(query)
    }
  }
}
