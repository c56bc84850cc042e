import HealthKit
import Testing

/// The device's life: lock (O19) and force-quit and relaunch (O20, O21).
@Suite struct DeviceLifeTests {
  let weight = Make.weightType

  /// Registers the app's observer and background delivery, as an app does at launch.
  func register(_ store: HKHealthStore, counting calls: Locked<Int>) async throws {
    store.execute(
      HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
        calls.increment()
        completionHandler()
      })
    try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
  }

  func otherAppSaves(_ device: SimulatedDevice, _ kg: Double = 80) throws {
    try device.saveAsOtherApp(
      [Make.weight(kg, at: device.now)], name: "Scale", bundleIdentifier: "com.example.scale")
  }

  @Test func queriesFailWhileLockedWithDatabaseInaccessible() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      try await store.save(Make.weight(70, at: device.now))
      device.lockDevice()
      await #expect(throws: HKError(.errorDatabaseInaccessible)) {
        _ = try await store.samples(of: weight)
      }
      do {
        _ = try await store.changes(of: weight, after: nil)
        Issue.record("the anchored query succeeded while locked")
      } catch {
        #expect((error as NSError).code == 6)
      }
      await #expect(throws: HKError(.errorDatabaseInaccessible)) {
        _ = try await store.statistics(of: weight, options: .discreteAverage)
      }
      await device.unlockDevice()
      #expect(try await store.samples(of: weight).count == 1)
    }
  }

  @Test func savesWhileLockedSucceedAndAreMergedAtUnlock() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = Locked(0)
      try await register(store, counting: calls)
      let synced = try await store.changes(of: weight, after: nil)
      device.lockDevice()
      let sample = Make.weight(70, at: device.now)
      try await store.save(sample)
      await device.advance(by: 60)
      #expect(calls.value == 0)
      await device.unlockDevice()
      #expect(calls.value == 1)
      let batch = try await store.changes(of: weight, after: synced.anchor)
      #expect(batch.samples.map(\.uuid) == [sample.uuid])
    }
  }

  @Test func observersDoNotFireWhileLockedAndFireAtUnlock() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = Locked(0)
      try await register(store, counting: calls)
      await device.moveAppToBackground()
      device.lockDevice()
      try otherAppSaves(device)
      try otherAppSaves(device, 81)
      await device.advance(by: 3600)
      #expect(calls.value == 0)
      #expect(device.deliveries(for: weight) == 0)
      await device.unlockDevice()
      // One wake covers both changes.
      #expect(calls.value == 1)
      #expect(device.deliveries(for: weight) == 1)
      #expect(device.observerStatus(for: weight) == .active)
    }
  }

  @Test func aForceQuitAppHearsNothingUntilLaunched() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let before = Locked(0)
      try await register(store, counting: before)
      let synced = try await store.changes(of: weight, after: nil)
      device.quitApp()
      try otherAppSaves(device)
      await device.advance(by: 3600)
      try otherAppSaves(device, 81)
      await device.advance(by: 86_400)
      #expect(before.value == 0)
      #expect(device.deliveries(for: weight) == 0)
      // The launch itself fires nothing, and the old process's query is gone for good.
      device.launchApp()
      await device.settle()
      #expect(before.value == 0)
      #expect(device.deliveries(for: weight) == 0)
      // The new process registers again and reads what it missed with its stored anchor.
      let relaunched = HKHealthStore()
      let after = Locked(0)
      try await register(relaunched, counting: after)
      let missed = try await relaunched.changes(of: weight, after: synced.anchor)
      #expect(missed.samples.count == 2)
      // Background delivery resumes.
      await device.moveAppToBackground()
      let woke = after.value
      try otherAppSaves(device, 82)
      await device.settle()
      #expect(after.value == woke + 1)
      #expect(before.value == 0)
      #expect(device.observerStatus(for: weight) == .active)
    }
  }

  @Test func aStoppedObserverIsNotRevivedByALaunch() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = Locked(0)
      let query = HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
        calls.increment()
        completionHandler()
      }
      store.execute(query)
      store.stop(query)
      store.stop(query)
      try otherAppSaves(device)
      await device.settle()
      #expect(calls.value == 0)
      device.quitApp()
      device.launchApp()
      try otherAppSaves(device, 81)
      await device.settle()
      #expect(calls.value == 0)
    }
  }
}
