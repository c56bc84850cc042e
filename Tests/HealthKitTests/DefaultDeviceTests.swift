import HealthKit
import Testing

/// Plain app code with no setup runs on the shared default device: Health available,
/// prompts allowed, the wall clock, deliveries without `settle()`.
@Suite struct DefaultDeviceTests {
  @Test func plainAppCodeSavesReadsAndIsObserved() async throws {
    // Nothing binds a device: this is the code an app ships.
    #expect(HKHealthStore.isHealthDataAvailable())
    let store = HKHealthStore()
    let type = HKQuantityType(.bloodGlucose)
    try await store.requestAuthorization(toShare: [type], read: [type])
    #expect(store.authorizationStatus(for: type) == .sharingAuthorized)
    let marker = UUID().uuidString
    let heard = Locked(0)
    let observer = HKObserverQuery(
      sampleType: type, predicate: HKQuery.predicateForObjects(withMetadataKey: marker)
    ) { _, completionHandler, _ in
      heard.increment()
      completionHandler()
    }
    store.execute(observer)
    defer { store.stop(observer) }
    let now = Date()
    let sample = HKQuantitySample(
      type: type, quantity: HKQuantity(unit: HKUnit(from: "mg/dL"), doubleValue: 95), start: now,
      end: now, metadata: [marker: true])
    try await store.save(sample)
    let read = try await store.samples(
      of: type, predicate: HKQuery.predicateForObjects(with: [sample.uuid]))
    #expect(read.map(\.uuid) == [sample.uuid])
    #expect(abs(read[0].startDate.timeIntervalSince(now)) < 1e-3)
    // The shared device delivers by itself; wait for it without touching the device.
    for _ in 0..<2000 where heard.value == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
    #expect(heard.value == 1)
  }
}
