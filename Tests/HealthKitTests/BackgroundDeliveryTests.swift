import HealthKit
import Testing

/// enableBackgroundDelivery: frequencies, the foreground, disabling (O2, O10–O16).
@Suite struct BackgroundDeliveryTests {
  let weight = Make.weightType
  let steps = Make.stepType

  func observe(_ store: HKHealthStore, _ type: HKSampleType, predicate: NSPredicate? = nil)
    -> Locked<Int>
  {
    let calls = Locked(0)
    store.execute(
      HKObserverQuery(sampleType: type, predicate: predicate) { _, completionHandler, _ in
        calls.increment()
        completionHandler()
      })
    return calls
  }

  func scaleSaves(_ device: SimulatedDevice, _ kg: Double = 80) throws {
    try device.saveAsOtherApp(
      [Make.weight(kg, at: device.now)], name: "Scale", bundleIdentifier: "com.example.scale")
  }

  @Test func hourlyDeliveryWakesAtMostOnceAnHourAndCoversEveryChange() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = observe(store, weight)
      try await store.enableBackgroundDelivery(for: weight, frequency: .hourly)
      await device.moveAppToBackground()
      try scaleSaves(device)
      await device.settle()
      #expect(calls.value == 1)
      await device.advance(by: 600)
      try scaleSaves(device, 81)
      await device.advance(by: 600)
      try scaleSaves(device, 82)
      await device.advance(by: 2399)
      #expect(calls.value == 1)
      await device.advance(by: 1)
      #expect(calls.value == 2)
      await device.advance(by: 86_400)
      #expect(calls.value == 2)
    }
  }

  @Test func stepCountIsCappedAtHourly() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = observe(store, steps)
      try await store.enableBackgroundDelivery(for: steps, frequency: .immediate)
      await device.moveAppToBackground()
      for minute in 0..<3 {
        try device.saveAsOtherApp(
          [Make.steps(100, from: device.now)], name: "Watch", bundleIdentifier: "com.apple.health")
        await device.advance(by: 60)
        #expect(calls.value == 1, "minute \(minute)")
      }
      await device.advance(by: 3600)
      #expect(calls.value == 2)
    }
  }

  @Test func withoutBackgroundDeliveryABackgroundAppHearsAtItsReturn() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = observe(store, weight)
      await device.moveAppToBackground()
      try scaleSaves(device)
      await device.advance(by: 86_400)
      #expect(calls.value == 0)
      await device.bringAppToForeground()
      #expect(calls.value == 1)
    }
  }

  @Test func returningToTheForegroundFiresEveryObserverOnce() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let all = observe(store, weight)
      let nothingMatches = observe(
        store, weight, predicate: HKQuery.predicateForObjects(with: [UUID()]))
      await device.moveAppToBackground()
      await device.bringAppToForeground()
      // Spurious, with nothing changed (O2): the app must treat it as "maybe changed".
      #expect(all.value == 1)
      #expect(nothingMatches.value == 1)
      await device.bringAppToForeground()
      #expect(all.value == 1)
    }
  }

  @Test func disablingBackgroundDeliveryStopsBackgroundWakes() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = observe(store, weight)
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      await device.moveAppToBackground()
      try scaleSaves(device)
      await device.settle()
      #expect(calls.value == 1)
      let disabled = Locked<Bool?>(nil)
      store.disableBackgroundDelivery(for: weight) { success, _ in disabled.update { $0 = success }
      }
      #expect(disabled.value == true)
      try scaleSaves(device, 81)
      await device.advance(by: 86_400)
      #expect(calls.value == 1)
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      try await store.disableAllBackgroundDelivery()
      try scaleSaves(device, 82)
      await device.advance(by: 86_400)
      #expect(calls.value == 1)
    }
  }

  @Test func afterAStopEnablingAgainNeedsALaunch() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, _, _ in calls.increment() })
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      await device.moveAppToBackground()
      try scaleSaves(device)
      await device.advance(by: 600)
      #expect(device.observerStatus(for: weight) == .stopped)
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      #expect(device.observerStatus(for: weight) == .stopped)
      // The user opens the app; it registers again and completes from now on.
      device.launchApp()
      let relaunched = HKHealthStore()
      let after = observe(relaunched, weight)
      try await relaunched.enableBackgroundDelivery(for: weight, frequency: .immediate)
      #expect(device.observerStatus(for: weight) == .active)
      await device.moveAppToBackground()
      let woke = after.value
      try scaleSaves(device, 81)
      await device.settle()
      #expect(after.value == woke + 1)
      #expect(calls.value == 3)
    }
  }
}
