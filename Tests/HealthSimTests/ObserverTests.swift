import Foundation
import HealthSim
import Testing

@Suite("Observer queries and background delivery (O1–O21)")
struct ObserverTests {
  @Test("O1: a foreground observer fires at once on any save or delete, with no data")
  func o1FiresOnSaveAndDelete() throws {
    let store = makeStore()
    let probe = try observe(store)
    let sample = try scaleWrites(store, 70)
    #expect(deliveries(store.settle()).map(\.1) == [.change])
    try store.deleteAsOwner([sample.uuid!])
    store.settle()
    try store.save(
      [HealthSample(type: .stepCount, value: 5, start: at(0), end: at(1))], as: otherApp)
    store.settle()
    #expect(probe.calls == 2)
    #expect(store.deliveries() == 2)
  }

  @Test("O2: coming back to the foreground fires once with no change; knob turns it off")
  func o2SpuriousForeground() throws {
    let store = makeStore()
    let probe = try observe(store)
    store.backgroundApp()
    store.foregroundApp()
    #expect(deliveries(store.settle()).map(\.1) == [.foreground])
    var settings = store.settings
    settings.spuriousForegroundFire = false
    store.settings = settings
    store.backgroundApp()
    store.foregroundApp()
    store.settle()
    #expect(probe.calls == 1)
  }

  @Test("O10/O11: in the background a wake happens at once, then at most once per period")
  func o11Frequency() throws {
    let store = makeStore()
    try observe(store, frequency: .hourly)
    store.backgroundApp()
    try scaleWrites(store, 70)
    #expect(deliveries(store.settle()).map(\.0) == [at(0)])
    store.advance(to: at(10))
    try scaleWrites(store, 71, at: 10)
    store.advance(to: at(20))
    try scaleWrites(store, 72, at: 20)
    let events = store.advance(to: at(120))
    #expect(deliveries(events).map(\.0) == [at(60)])
    #expect(store.deliveries() == 2)
    #expect(UpdateFrequency.allCases.map(\.rawValue) == [1, 2, 3, 4])
  }

  @Test("O12: step count is capped at hourly whatever frequency is asked for")
  func o12StepCap() throws {
    let store = makeStore()
    try observe(store, frequency: .immediate, type: .stepCount)
    #expect(store.effectiveFrequency(for: .stepCount) == .hourly)
    store.backgroundApp()
    let steps = { (minute: Double) in
      HealthSample(type: .stepCount, value: 10, start: at(minute - 1), end: at(minute))
    }
    try store.save([steps(1)], as: otherApp)
    store.settle()
    store.advance(to: at(5))
    try store.save([steps(5)], as: otherApp)
    let events = store.advance(to: at(200))
    #expect(deliveries(events).map(\.0) == [at(60)])
  }

  @Test("O18: without the entitlement a background app is never woken")
  func o18Entitlement() throws {
    let store = makeStore()
    var settings = store.settings
    settings.hasBackgroundDeliveryEntitlement = false
    store.settings = settings
    let probe = try observe(store)
    store.backgroundApp()
    try scaleWrites(store, 70)
    store.advance(by: 86_400)
    #expect(probe.calls == 0)
    settings.missingEntitlementFailsEnable = true
    store.settings = settings
    #expect(throws: HealthError.self) {
      try store.enableBackgroundDelivery(for: .bodyMass, frequency: .daily)
    }
  }

  @Test("O19: locked, nothing is delivered and queries fail with 6; unlock delivers pending")
  func o19Locked() throws {
    let store = makeStore()
    let probe = try observe(store)
    store.backgroundApp()
    store.lockDevice()
    try scaleWrites(store, 70)
    store.advance(to: at(30))
    #expect(probe.calls == 0)
    #expect(
      throws: HealthError(
        .errorDatabaseInaccessible, "the device is locked; unlock it to access health data")
    ) {
      try store.anchoredResult(type: .bodyMass, anchor: nil)
    }
    // The app's own save succeeds while locked and waits for the unlock (docs/healthsim.md).
    #expect(try store.save([weight(71)]).count == 1)
    store.unlockDevice()
    #expect(deliveries(store.settle()).map(\.1) == [.unlock])
    #expect(probe.calls == 1)
    #expect(
      try store.anchoredResult(type: .bodyMass, anchor: nil).samples.map(\.value) == [70, 71])
    #expect(deliveries(store.settle()).isEmpty)
  }

  @Test("O20: after a force-quit nothing is delivered until launch; the launch does not fire")
  func o20ForceQuit() throws {
    let store = makeStore()
    let probe = try observe(store)
    store.quitApp()
    try scaleWrites(store, 70)
    store.advance(by: 86_400)
    #expect(probe.calls == 0)
    store.launchApp()
    #expect(store.settle().isEmpty)
    let again = try observe(store)
    try scaleWrites(store, 71, at: 1)
    store.settle()
    #expect(again.calls == 1)
    #expect(probe.calls == 0)
  }

  @Test("O21: a wake with no observer registered in the process is lost")
  func o21Unregistered() throws {
    let store = makeStore()
    try store.enableBackgroundDelivery(for: .bodyMass, frequency: .immediate)
    store.backgroundApp()
    try scaleWrites(store, 70)
    let events = store.settle()
    #expect(events.map(\.kind) == [.deliveryLost(type: .bodyMass)])
    #expect(store.deliveries() == 0)
  }

  @Test("O5–O7: a missing completion is retried after 1 min, then 2 min; success resets")
  func o7Backoff() throws {
    let store = makeStore()
    let probe = try observe(store)
    store.backgroundApp()
    probe.skipCompletions = 2
    try scaleWrites(store, 70)
    var events = store.settle()
    #expect(store.observerState() == .retrying)
    events += store.advance(to: at(10))
    #expect(deliveries(events).map(\.0) == [at(0), at(1), at(3)])
    #expect(deliveries(events).map(\.2) == [false, false, true])
    #expect(store.observerState() == .active)
    #expect(store.smallState.delivery[.bodyMass]?.consecutiveFailures == 0)
  }

  @Test("O6/O8: three failed deliveries stop background delivery until launch and re-enable")
  func o6ThreeStrikes() throws {
    let store = makeStore()
    let probe = try observe(store)
    store.backgroundApp()
    probe.skipCompletions = 3
    try scaleWrites(store, 70)
    let events = store.advance(to: at(60))
    #expect(probe.calls == 3)
    #expect(events.last?.kind == .backgroundDeliveryStopped(type: .bodyMass, failures: 3))
    #expect(store.observerState() == .stopped)
    try scaleWrites(store, 71, at: 60)
    store.advance(by: 3600)
    #expect(probe.calls == 3)
    try store.enableBackgroundDelivery(for: .bodyMass, frequency: .immediate)
    #expect(store.observerState() == .stopped)
    store.launchApp()
    let fresh = try observe(store)
    #expect(store.observerState() == .active)
    store.backgroundApp()
    try scaleWrites(store, 72, at: 200)
    store.settle()
    #expect(fresh.calls == 1)
  }

  @Test("O8 knob: with stopLastsUntilLaunch off, re-enabling alone resumes delivery")
  func o8ResetKnob() throws {
    let store = makeStore()
    var settings = store.settings
    settings.stopLastsUntilLaunch = false
    settings.retryBackoff = 10
    store.settings = settings
    let probe = try observe(store)
    probe.skipCompletions = 3
    try scaleWrites(store, 70)
    store.advance(by: 600)
    #expect(store.observerState() == .stopped)
    try store.enableBackgroundDelivery(for: .bodyMass, frequency: .immediate)
    #expect(store.observerState() == .active)
  }

  @Test("observer states: off, active, off again after stop and disable")
  func observerStates() throws {
    let store = makeStore()
    #expect(store.observerState() == .off)
    let query = ObserverQuery(sampleType: .bodyMass) { _, done, _ in done() }
    try store.execute(query)
    try store.enableBackgroundDelivery(for: .bodyMass, frequency: .daily)
    #expect(store.observerState() == .active)
    store.stop(query)
    try store.disableBackgroundDelivery(for: .bodyMass)
    #expect(store.observerState() == .off)
  }

  @Test("events due now after an action run in order; the scheduler breaks ties by insertion")
  func schedulerOrder() {
    var scheduler = Scheduler()
    scheduler.schedule(.reading("b"), at: at(5))
    scheduler.schedule(.reading("a"), at: at(1))
    scheduler.schedule(.reading("c"), at: at(5))
    scheduler.schedule(.delivery(.bodyMass), at: at(1))
    var order: [Scheduler.Action] = []
    while let entry = scheduler.pop() { order.append(entry.action) }
    #expect(order == [.reading("a"), .delivery(.bodyMass), .reading("b"), .reading("c")])
  }
}
