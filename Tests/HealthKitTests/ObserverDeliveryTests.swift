import HealthKit
import Testing

/// Observer queries: predicates, stops during a delivery, and the completion contract
/// (O1–O9).
@Suite struct ObserverDeliveryTests {
  let weight = Make.weightType

  func scaleSaves(_ device: SimulatedDevice, _ kg: Double = 80) throws {
    try device.saveAsOtherApp(
      [Make.weight(kg, at: device.now)], name: "Scale", bundleIdentifier: "com.example.scale")
  }

  @Test func aSourcePredicateWakesOnlyForThatSourcesSamples() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      try scaleSaves(device)
      let scale = try #require(
        try await store.sources(of: weight).first { $0.bundleIdentifier == "com.example.scale" })
      let filtered = Locked(0)
      let everything = Locked(0)
      store.execute(
        HKObserverQuery(
          sampleType: weight, predicate: HKQuery.predicateForObjects(from: scale)
        ) { _, completionHandler, _ in
          filtered.increment()
          completionHandler()
        })
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
          everything.increment()
          completionHandler()
        })
      try await store.save(Make.weight(70, at: device.now))
      await device.settle()
      #expect(everything.value == 1)
      #expect(filtered.value == 0)
      try scaleSaves(device, 81)
      await device.settle()
      #expect(everything.value == 2)
      #expect(filtered.value == 1)
      // A deletion of the scale's sample matches too.
      let scaled = try await store.samples(
        of: weight, predicate: HKQuery.predicateForObjects(from: scale))
      try device.deleteAsOwner(scaled.map(\.uuid))
      await device.settle()
      #expect(filtered.value == 2)
    }
  }

  @Test func aDatePredicateIgnoresSamplesOutsideItsInterval() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let today = HKQuery.predicateForSamples(
        withStart: device.now, end: device.now.addingTimeInterval(86_400), options: .strictStartDate
      )
      let calls = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: today) { _, completionHandler, _ in
          calls.increment()
          completionHandler()
        })
      try await store.save(Make.weight(70, at: device.now.addingTimeInterval(-86_400)))
      await device.settle()
      #expect(calls.value == 0)
      try await store.save(Make.weight(70, at: device.now.addingTimeInterval(60)))
      await device.settle()
      #expect(calls.value == 1)
    }
  }

  @Test func aQueryStoppedByAnotherHandlerInTheSameDeliveryDoesNotRun() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let second = Locked(0)
      let later = HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
        second.increment()
        completionHandler()
      }
      let first = Locked(0)
      let stopper = HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
        first.increment()
        store.stop(later)
        completionHandler()
      }
      store.execute(stopper)
      store.execute(later)
      try scaleSaves(device)
      await device.settle()
      #expect(first.value == 1)
      #expect(second.value == 0)
      try scaleSaves(device, 81)
      await device.settle()
      #expect(first.value == 2)
      #expect(second.value == 0)
    }
  }

  @Test func aCompletionCalledFromATaskAfterAsyncWorkCounts() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let imported = Locked<[UUID]>([])
      let anchor = Locked<HKQueryAnchor?>(nil)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, error in
          guard error == nil else { return }
          Task {
            // The app's sync: an anchored read with await, then the completion.
            let descriptor = HKAnchoredObjectQueryDescriptor(
              predicates: [.quantitySample(type: weight)], anchor: anchor.value)
            if let result = try? await descriptor.result(for: store) {
              imported.update { $0 += result.addedSamples.map(\.uuid) }
              anchor.update { $0 = result.newAnchor }
            }
            try? await Task.sleep(nanoseconds: 1_000_000)
            completionHandler()
          }
        })
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      await device.moveAppToBackground()
      try scaleSaves(device)
      await device.settle()
      #expect(imported.value.count == 1)
      #expect(device.observerStatus(for: weight) == .active)
      try scaleSaves(device, 81)
      await device.settle()
      #expect(imported.value.count == 2)
      // No retry follows completed deliveries.
      await device.advance(by: 3600)
      #expect(device.deliveries(for: weight) == 2)
      #expect(device.observerStatus(for: weight) == .active)
    }
  }

  @Test(
    .disabled(
      "fails now and then beside the end-to-end tests (again in a clean-clone CI run on 2026-11-26): the app Task loses its work marker; under investigation"
    ))
  func aTaskThatIsSlowerThanTheGraceStillCompletesInTime() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let completed = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
          Task {
            // Slow work that calls no HealthKit API (a network upload, say), 0.1 s, five
            // times `completionGrace`: the device waits while the app's Task runs.
            try? await Task.sleep(nanoseconds: 100_000_000)
            completed.increment()
            completionHandler()
          }
        })
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      await device.moveAppToBackground()
      try scaleSaves(device)
      await device.settle()
      #expect(completed.value == 1)
      #expect(device.observerStatus(for: weight) == .active)
      await device.advance(by: 3600)
      #expect(device.deliveries(for: weight) == 1)
    }
  }

  @Test func missedCompletionsAreRetriedAfter60Then120SecondsThenStopped() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, _, _ in calls.increment() })
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      await device.moveAppToBackground()
      try scaleSaves(device)
      await device.settle()
      #expect(calls.value == 1)
      #expect(device.observerStatus(for: weight) == .retrying)
      await device.advance(by: 59)
      #expect(calls.value == 1)
      await device.advance(by: 1)
      #expect(calls.value == 2)
      await device.advance(by: 119)
      #expect(calls.value == 2)
      #expect(device.observerStatus(for: weight) == .retrying)
      await device.advance(by: 1)
      #expect(calls.value == 3)
      #expect(device.observerStatus(for: weight) == .stopped)
      // Stopped: later changes wake nothing, however long one waits.
      try scaleSaves(device, 81)
      await device.advance(by: 86_400)
      #expect(calls.value == 3)
      #expect(device.deliveries(for: weight) == 3)
      #expect(device.events.contains { $0.contains("stop") })
    }
  }

  @Test func aSuccessfulDeliveryResetsTheFailureCount() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      // The app misses its completion on calls 1, 3 and 4, and completes the others.
      let calls = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
          calls.increment()
          if ![1, 3, 4].contains(calls.value) { completionHandler() }
        })
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      await device.moveAppToBackground()
      try scaleSaves(device)
      await device.settle()
      await device.advance(by: 60)
      #expect(calls.value == 2)
      #expect(device.observerStatus(for: weight) == .active)
      try scaleSaves(device, 81)
      await device.settle()
      #expect(calls.value == 3)
      // The count starts again: the first retry comes after 60 s, not 240 s.
      await device.advance(by: 60)
      #expect(calls.value == 4)
      await device.advance(by: 120)
      #expect(calls.value == 5)
      // Two consecutive misses, then a success: still delivering.
      #expect(device.observerStatus(for: weight) == .active)
      try scaleSaves(device, 82)
      await device.settle()
      #expect(calls.value == 6)
    }
  }

  @Test func anObserverHearsNothingWithoutChanges() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let calls = Locked(0)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
          calls.increment()
          completionHandler()
        })
      await device.advance(by: 86_400)
      #expect(calls.value == 0)
      try device.saveAsOtherApp(
        [Make.steps(100, from: device.now)], name: "Watch", bundleIdentifier: "com.apple.health")
      await device.settle()
      #expect(calls.value == 0)
    }
  }
}
