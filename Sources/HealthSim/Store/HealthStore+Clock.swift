import Foundation

extension HealthStore {
  /// Moves the clock to `date`, running every scheduled event due by then in time order
  /// (equal times in scheduling order), and returns what happened. A date in the past
  /// only runs what is due now. Nested calls from inside a handler return nothing.
  /// - Complexity: O(e log q) for e events and q queued entries.
  @discardableResult
  public func advance(to date: Date) -> [HealthEvent] {
    guard !isRunningEvents else { return [] }
    var events: [HealthEvent] = []
    while let step = runNextEvent(until: date) {
      events += step.events
      if let pending = step.pending { events += finishDelivery(pending) }
    }
    finishAdvance(to: date)
    return events
  }

  /// Runs the next scheduled event due by `date` (or now, for a date in the past), moving
  /// the clock to it; nil when none is due, or from inside a handler. A delivery's
  /// completion contract is left to the caller (`finishDelivery`), who may first wait for
  /// completions the app calls later; until then nothing else runs. Finish with
  /// `finishAdvance(to:)`.
  public func runNextEvent(until date: Date) -> (events: [HealthEvent], pending: PendingDelivery?)?
  {
    guard !isRunningEvents else { return nil }
    isRunningEvents = true
    defer { isRunningEvents = false }
    pumpLiveQueries()
    guard let next = state.scheduler.next, next.date <= max(date, now) else { return nil }
    _ = state.scheduler.pop()
    if next.date > state.clock { state.clock = next.date }
    var events: [HealthEvent] = []
    var pending: PendingDelivery?
    switch next.action {
    case .delivery(let type): pending = beginDelivery(type, sequence: next.sequence, into: &events)
    case .reading(let name): takeReading(name, sequence: next.sequence, into: &events)
    }
    pumpLiveQueries()
    commitState()
    return (events, pending)
  }

  /// Ends an advance driven by `runNextEvent(until:)`: moves the clock to `date` when that
  /// is later, and delivers to live queries.
  public func finishAdvance(to date: Date) {
    if date > state.clock { state.clock = date }
    pumpLiveQueries()
    commitState()
  }

  /// Moves the clock forward by `seconds` (`advance <duration>`).
  @discardableResult
  public func advance(by seconds: TimeInterval) -> [HealthEvent] {
    advance(to: now.addingTimeInterval(seconds))
  }

  /// Runs the events due now, e.g. the delivery a save just caused; call after each action.
  @discardableResult
  public func settle() -> [HealthEvent] { advance(to: now) }

  /// Sets the clock (`clock <instant>`) without running events; later events run at the
  /// next `advance` or `settle`.
  public func setClock(_ date: Date) {
    state.clock = date
    commitState()
  }
}
