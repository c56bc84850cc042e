import Foundation

extension HealthStore {
  // MARK: The app's view

  /// Enables background delivery of a type at a frequency (enableBackgroundDelivery).
  /// Step count is capped at hourly silently. After a stop, this re-enables only once the
  /// app has been launched since (O8 knob).
  public func enableBackgroundDelivery(for type: SampleType, frequency: UpdateFrequency)
    throws(HealthError)
  {
    defer { commitState() }
    guard state.device.isHealthDataAvailable else { throw HealthError.unavailable }
    guard !type.isCorrelation else {
      throw HealthError(
        .errorInvalidArgument,
        "background delivery is not supported for \(type.rawValue); enable it for its member types")
    }
    if !state.settings.hasBackgroundDeliveryEntitlement,
      state.settings.missingEntitlementFailsEnable
    {
      throw HealthError(
        .errorAuthorizationDenied,
        "the app lacks the background-delivery entitlement; turn the entitlement on")
    }
    var delivery = state.delivery[type] ?? BackgroundDelivery()
    if delivery.isStopped, delivery.launchedSinceStop || !state.settings.stopLastsUntilLaunch {
      delivery.isStopped = false
      delivery.consecutiveFailures = 0
    }
    delivery.frequency = frequency
    state.delivery[type] = delivery
  }

  /// Disables background delivery of a type.
  public func disableBackgroundDelivery(for type: SampleType) throws(HealthError) {
    defer { commitState() }
    guard state.device.isHealthDataAvailable else { throw HealthError.unavailable }
    guard var delivery = state.delivery[type] else { return }
    delivery.frequency = nil
    delivery.consecutiveFailures = 0
    if delivery.scheduled?.reason == .retry { delivery.scheduled = nil }
    state.delivery[type] = delivery
  }

  /// Disables background delivery of every type.
  public func disableAllBackgroundDelivery() throws(HealthError) {
    for type in state.delivery.keys.sorted() { try disableBackgroundDelivery(for: type) }
  }

  /// Runs a query once (HKHealthStore.execute). Executing a query twice, or an anchored
  /// query with an update handler and a limit, is an invalid argument (HealthKit raises).
  public func execute(_ query: HealthQuery) throws(HealthError) {
    defer { commitState() }
    guard !query.isExecuted else {
      throw HealthError(.errorInvalidArgument, "a query runs only once; create a new query")
    }
    query.isExecuted = true
    try query.start(on: self)
  }

  /// Stops a query; it calls no handler again. Stopping twice does nothing.
  public func stop(_ query: HealthQuery) {
    query.isStopped = true
    observers.removeAll { $0 === query }
    liveQueries.removeAll { $0 === query }
    collectionQueries.removeAll { $0 === query }
  }

  func register(observer query: ObserverQuery) {
    observers.append(query)
    if state.delivery[query.sampleType] == nil {
      state.delivery[query.sampleType] = BackgroundDelivery()
    }
  }

  func register(liveQuery query: AnchoredQuery) { liveQueries.append(query) }

  func register(collectionQuery query: StatisticsCollectionQuery) {
    collectionQueries.append(query)
  }

  // MARK: Harness facts

  /// The observer as the `observer` fact shows it.
  public func observerState(for type: SampleType = .bodyMass) -> ObserverState {
    let live = observers.contains { $0.sampleType == type }
    guard let delivery = state.delivery[type], delivery.frequency != nil || live else {
      return .off
    }
    if delivery.isStopped { return .stopped }
    if delivery.scheduled?.reason == .retry { return .retrying }
    return .active
  }

  /// How many times the app's observer handler ran for a type.
  public func deliveries(for type: SampleType = .bodyMass) -> Int {
    state.delivery[type]?.deliveries ?? 0
  }

  /// The frequency actually used: the requested one, capped per type (O12), and at
  /// hourly for every type on watchOS (O14).
  public func effectiveFrequency(for type: SampleType) -> UpdateFrequency? {
    guard let requested = state.delivery[type]?.frequency else { return nil }
    var cap = state.settings.frequencyCaps[type] ?? .immediate
    if state.settings.platform == .watchOS { cap = max(cap, .hourly) }
    return max(requested, cap)
  }

  /// Background wakes left today under the watchOS budget; nil on iOS (no budget).
  public var remainingBackgroundWakes: Int? {
    guard state.settings.platform == .watchOS else { return nil }
    let used = state.wakeBudget.map { $0.day == WakeBudget.day(of: now) ? $0.wakes : 0 } ?? 0
    return max(0, state.settings.watchBackgroundBudgetPerDay - used)
  }

  // MARK: Harness: the app's life cycle

  /// The user launches the app: a new process with no queries, in the foreground. The
  /// launch does not fire observers; the app re-registers them itself (O21).
  public func launchApp() {
    stopAllQueries()
    state.device.isAppRunning = true
    state.device.isAppInForeground = true
    for type in state.delivery.keys {
      state.delivery[type]!.isPending = false
      state.delivery[type]!.scheduled = nil
      state.delivery[type]!.launchedSinceStop = true
    }
    commitState()
  }

  /// The device and the app's life cycle: locked, running, in the foreground.
  public var device: DeviceState { state.device }

  /// The user force-quits the app: nothing is delivered until the next launch (O20).
  public func quitApp() {
    stopAllQueries()
    state.device.isAppRunning = false
    state.device.isAppInForeground = false
    for type in state.delivery.keys { state.delivery[type]!.scheduled = nil }
    commitState()
  }

  /// The app moves to the background.
  public func backgroundApp() {
    guard state.device.isAppRunning else { return }
    state.device.isAppInForeground = false
    for type in state.delivery.keys.sorted() { requestDelivery(type, reason: .change) }
    commitState()
  }

  /// The app comes to the foreground; from the background it fires observers once even
  /// with nothing changed (O2 knob). A quit app is launched instead.
  public func foregroundApp() {
    guard state.device.isAppRunning else {
      launchApp()
      return
    }
    let wasBackground = !state.device.isAppInForeground
    state.device.isAppInForeground = true
    guard wasBackground, !state.device.isLocked, state.device.isHealthDataAvailable else {
      commitState()
      return
    }
    for type in state.delivery.keys.sorted()
    where observers.contains(where: { $0.sampleType == type }) {
      if state.settings.spuriousForegroundFire || state.delivery[type]!.isPending {
        scheduleDelivery(type, reason: .foreground, at: now)
      }
    }
    commitState()
  }

  /// The device locks: no deliveries, queries fail with code 6, and saves are kept aside
  /// until unlock (HealthStore+Locked.swift).
  public func lockDevice() {
    state.device.isLocked = true
    commitState()
  }

  /// The device unlocks: pending changes are delivered (O19).
  public func unlockDevice() {
    state.device.isLocked = false
    mergeSavesMadeWhileLocked()
    for type in state.delivery.keys.sorted() { requestDelivery(type, reason: .unlock) }
    commitState()
  }

  private func stopAllQueries() {
    for query in observers { query.isStopped = true }
    for query in liveQueries { query.isStopped = true }
    for query in collectionQueries { query.isStopped = true }
    observers = []
    liveQueries = []
    collectionQueries = []
  }

  // MARK: Delivery rules

  /// Samples of `type` were saved or deleted.
  func noteChange(_ type: SampleType) {
    guard state.delivery[type] != nil else { return }
    state.delivery[type]!.isPending = true
    requestDelivery(type, reason: .change)
  }

  /// Schedules a delivery of pending changes when the rules allow one.
  func requestDelivery(_ type: SampleType, reason: BackgroundDelivery.Reason) {
    guard let delivery = state.delivery[type], delivery.isPending else { return }
    let device = state.device
    guard device.isHealthDataAvailable, device.isAppRunning, !device.isLocked else { return }
    if device.isAppInForeground {
      guard observers.contains(where: { $0.sampleType == type }) else { return }
      scheduleDelivery(type, reason: reason, at: now)
      return
    }
    guard let frequency = effectiveFrequency(for: type),
      state.settings.hasBackgroundDeliveryEntitlement, !delivery.isStopped,
      delivery.scheduled == nil
    else { return }
    var date = now
    if let lastWake = delivery.lastWake, now.timeIntervalSince(lastWake) < frequency.period {
      date = lastWake.addingTimeInterval(frequency.period)
    }
    scheduleDelivery(type, reason: reason, at: date)
  }

  /// Puts a delivery in the scheduler unless one at or before `date` is already there.
  func scheduleDelivery(_ type: SampleType, reason: BackgroundDelivery.Reason, at date: Date) {
    if let scheduled = state.delivery[type]?.scheduled, scheduled.date <= date { return }
    let sequence = state.scheduler.schedule(.delivery(type), at: date)
    state.delivery[type, default: BackgroundDelivery()].scheduled = BackgroundDelivery.Scheduled(
      date: date, sequence: sequence, reason: reason)
  }

  /// Runs a scheduled delivery: calls every observer handler of the type, then applies
  /// the completion contract (O5–O8) at once.
  func deliver(_ type: SampleType, sequence: UInt64, into events: inout [HealthEvent]) {
    guard let pending = beginDelivery(type, sequence: sequence, into: &events) else { return }
    events += finishDelivery(pending)
  }

  /// Calls every observer handler of the type whose predicate matches a pending change,
  /// and returns the delivery, whose completions may still come (from another thread, in
  /// an app's Task); `finishDelivery` applies the completion contract. Nil when nothing
  /// was called.
  func beginDelivery(_ type: SampleType, sequence: UInt64, into events: inout [HealthEvent])
    -> PendingDelivery?
  {
    guard let scheduled = state.delivery[type]?.scheduled, scheduled.sequence == sequence else {
      return nil
    }
    state.delivery[type]!.scheduled = nil
    let device = state.device
    guard device.isHealthDataAvailable, device.isAppRunning, !device.isLocked else { return nil }
    let delivery = state.delivery[type]!
    if !device.isAppInForeground {
      guard delivery.frequency != nil, state.settings.hasBackgroundDeliveryEntitlement,
        !delivery.isStopped
      else { return nil }
      guard takeBackgroundWake() else {
        // Over today's watchOS budget: the changes stay pending for the next day.
        scheduleDelivery(
          type, reason: scheduled.reason, at: WakeBudget.startOfNextDay(after: now))
        return nil
      }
      state.delivery[type]!.lastWake = now
    }
    let registered = observers.filter { $0.sampleType == type && !$0.isStopped }
    state.delivery[type]!.isPending = false
    guard !registered.isEmpty else {
      if !device.isAppInForeground {
        events.append(HealthEvent(date: now, kind: .deliveryLost(type: type)))
      }
      return nil
    }
    // An observer with a predicate hears only of changes it matches; a foreground return
    // fires every observer (O2).
    let queries = registered.filter {
      $0.predicate == nil || $0.hasMatchingChange || scheduled.reason == .foreground
    }
    for query in registered { query.hasMatchingChange = false }
    var pending = PendingDelivery(type: type, reason: scheduled.reason, date: now)
    for query in queries {
      // A handler earlier in this delivery may have stopped a later query.
      guard !query.isStopped else { continue }
      state.delivery[type]!.deliveries += 1
      let flag = CompletionFlag()
      pending.calls.append((state.delivery[type]!.deliveries, flag))
      query.updateHandler(query, { flag.markCalled() }, nil)
    }
    return pending.calls.isEmpty ? nil : pending
  }

  /// Applies the completion contract to a delivery begun by `beginDelivery`: a handler
  /// that has not called its completion by now failed (O5–O8). Returns the delivery's
  /// events, dated when it began.
  public func finishDelivery(_ pending: PendingDelivery) -> [HealthEvent] {
    defer { commitState() }
    var events: [HealthEvent] = []
    for (number, flag) in pending.calls {
      events.append(
        HealthEvent(
          date: pending.date,
          kind: .delivered(
            type: pending.type, number: number, reason: pending.reason,
            completed: flag.isCalled)))
    }
    applyCompletionContract(pending.type, completed: pending.isComplete, into: &events)
    return events
  }

  /// Counts a background wake against the watchOS daily budget; false when none is left.
  /// On iOS every wake is allowed and nothing is counted.
  private func takeBackgroundWake() -> Bool {
    guard let remaining = remainingBackgroundWakes else { return true }
    guard remaining > 0 else { return false }
    let today = WakeBudget.day(of: now)
    var budget = state.wakeBudget ?? WakeBudget(day: today, wakes: 0)
    if budget.day != today { budget = WakeBudget(day: today, wakes: 0) }
    budget.wakes += 1
    state.wakeBudget = budget
    return true
  }

  private func applyCompletionContract(
    _ type: SampleType, completed: Bool, into events: inout [HealthEvent]
  ) {
    var delivery = state.delivery[type]!
    guard delivery.frequency != nil, !delivery.isStopped else { return }
    if completed {
      delivery.consecutiveFailures = 0
      state.delivery[type] = delivery
      return
    }
    delivery.consecutiveFailures += 1
    delivery.isPending = true
    let failures = delivery.consecutiveFailures
    if failures >= state.settings.maximumFailedDeliveries {
      delivery.isStopped = true
      delivery.launchedSinceStop = false
      delivery.scheduled = nil
      state.delivery[type] = delivery
      events.append(
        HealthEvent(date: now, kind: .backgroundDeliveryStopped(type: type, failures: failures)))
      return
    }
    let delay =
      state.settings.retryBackoff
      * pow(state.settings.retryBackoffMultiplier, Double(failures - 1))
    let date = now.addingTimeInterval(delay)
    let sequence = state.scheduler.schedule(.delivery(type), at: date)
    delivery.scheduled = BackgroundDelivery.Scheduled(
      date: date, sequence: sequence, reason: .retry)
    state.delivery[type] = delivery
    events.append(
      HealthEvent(date: now, kind: .retryScheduled(type: type, at: date, failures: failures)))
  }

  /// Calls long-running anchored queries' update handlers with their deltas (A17, A19).
  func pumpLiveQueries() {
    pumpCollectionQueries()
    let device = state.device
    guard !liveQueries.isEmpty, device.isAppRunning, device.isAppInForeground else { return }
    for query in liveQueries where !query.isStopped {
      guard let handler = query.activeUpdateHandler,
        let result = try? anchoredResult(
          type: query.sampleType, predicate: query.predicate, anchor: query.currentAnchor),
        !result.changes.isEmpty
      else { continue }
      query.currentAnchor = result.newAnchor
      handler(query, result.samples, result.deletedObjects, result.newAnchor, nil)
    }
  }

  /// Marks long-running collection queries whose type and predicate match a saved or
  /// deleted sample, then delivers to them at once.
  func noteCollectionChanges(_ samples: [HealthSample]) {
    markObserverMatches(samples)
    guard !collectionQueries.isEmpty else { return }
    for sample in samples {
      for query in collectionQueries
      where !query.isStopped && query.sampleType == sample.type
        && (query.predicate?.matches(sample) ?? true)
      {
        query.pendingChangeDate = sample.startDate
      }
    }
    pumpCollectionQueries()
  }

  /// Marks observers with a predicate that a saved or deleted sample matches, so their
  /// next delivery calls them.
  private func markObserverMatches(_ samples: [HealthSample]) {
    for query in observers where query.predicate != nil && !query.hasMatchingChange {
      query.hasMatchingChange = samples.contains {
        $0.type == query.sampleType && query.predicate!.matches($0)
      }
    }
  }

  /// Calls collection queries' update handlers with their recomputed collections (T9).
  /// Like anchored update handlers, they run only while the app is in the foreground and
  /// the store is readable; otherwise the update waits. A change a handler makes itself
  /// is delivered at the next pump (`settle`), not recursively.
  func pumpCollectionQueries() {
    let device = state.device
    guard !isPumpingCollections, !collectionQueries.isEmpty, device.isAppRunning,
      device.isAppInForeground
    else { return }
    isPumpingCollections = true
    defer { isPumpingCollections = false }
    for query in collectionQueries where !query.isStopped {
      guard let handler = query.activeUpdateHandler, let changed = query.pendingChangeDate,
        let collection = try? query.compute(on: self)
      else { continue }
      query.pendingChangeDate = nil
      handler(query, collection.statistics(for: changed), collection, nil)
    }
  }
}
