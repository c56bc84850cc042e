import HealthKit
import Testing

/// Plain app code, with no simulator setup, runs on the shared device: wall clock, Allow
/// to every prompt, deliveries by themselves.
@Suite struct DefaultDeviceTests {
  @Test func plainAppCodeSavesReadsAndIsObservedWithoutSetup() async throws {
    let store = HKHealthStore()
    #expect(HKHealthStore.isHealthDataAvailable())
    let steps = HKQuantityType(.stepCount)
    try await store.requestAuthorization(toShare: [steps], read: [steps])
    #expect(store.authorizationStatus(for: steps) == .sharingAuthorized)

    let marker = UUID().uuidString
    let observed = Counter()
    let query = HKObserverQuery(
      sampleType: steps,
      predicate: HKQuery.predicateForObjects(withMetadataKey: "test", allowedValues: [marker])
    ) { _, completionHandler, _ in
      Task {
        await observed.increment()
        completionHandler()
      }
    }
    store.execute(query)
    defer { store.stop(query) }

    let now = Date()
    let sample = HKQuantitySample(
      type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 1200),
      start: now.addingTimeInterval(-600), end: now, metadata: ["test": marker])
    try await store.save(sample)
    let found = try await HKSampleQueryDescriptor(
      predicates: [
        .quantitySample(type: steps, predicate: HKQuery.predicateForObject(with: sample.uuid))
      ],
      sortDescriptors: []
    ).result(for: store)
    #expect(found.map(\.uuid) == [sample.uuid])
    #expect(found.first?.quantity.doubleValue(for: .count()) == 1200)
    #expect(found.first?.sourceRevision.source == HKSource.default())

    for _ in 0..<200 where await observed.value == 0 {
      try await Task.sleep(nanoseconds: 5_000_000)
    }
    #expect(await observed.value == 1)
  }
}
