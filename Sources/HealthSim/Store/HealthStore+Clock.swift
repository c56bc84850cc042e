import Foundation

extension HealthStore {
  /// Moves the clock to `date`, running every scheduled event due by then in time order
  /// (equal times in scheduling order), and returns what happened. A date in the past
  /// only runs what is due now. Nested calls from inside a handler return nothing.
  /// - Complexity: O(e log q) for e events and q queued entries.
  @discardableResult
  public func advance(to date: Date) -> [HealthEvent] {
    guard !isRunningEvents else { return [] }
    isRunningEvents = true
    defer { isRunningEvents = false }
    var events: [HealthEvent] = []
    pumpLiveQueries()
    while let next = state.scheduler.next, next.date <= max(date, now) {
      _ = state.scheduler.pop()
      if next.date > state.clock { state.clock = next.date }
      switch next.action {
      case .delivery(let type): deliver(type, sequence: next.sequence, into: &events)
      case .reading(let name): takeReading(name, sequence: next.sequence, into: &events)
      }
      pumpLiveQueries()
      commitState()
    }
    if date > state.clock { state.clock = date }
    commitState()
    return events
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
