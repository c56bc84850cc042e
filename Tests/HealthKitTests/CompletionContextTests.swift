import HealthKit
import Testing

/// Where apps call an observer's completion from: the main queue, the main actor.
@Suite struct CompletionContextTests {
  let weight = Make.weightType

  @Test func completionFromTheMainQueue() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
          DispatchQueue.main.async {
            calls.increment()
            completionHandler()
          }
        })
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      await device.moveAppToBackground()
      try device.saveAsOtherApp(
        [Make.weight(80, at: device.now)], name: "Scale", bundleIdentifier: "com.example.scale")
      await device.settle()
      #expect(calls.value == 1)
      #expect(device.observerStatus(for: weight) == .active)
    }
  }

  @Test func completionFromTheMainActor() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
          Task { @MainActor in
            calls.increment()
            completionHandler()
          }
        })
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      await device.moveAppToBackground()
      try device.saveAsOtherApp(
        [Make.weight(80, at: device.now)], name: "Scale", bundleIdentifier: "com.example.scale")
      await device.settle()
      #expect(calls.value == 1)
      #expect(device.observerStatus(for: weight) == .active)
    }
  }
}
