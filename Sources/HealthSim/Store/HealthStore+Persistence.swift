import Foundation

extension HealthStore {
  /// The whole store as a Codable value.
  /// - Complexity: O(n log n).
  public func snapshot() -> HealthSnapshot {
    var records: [HealthRecord] = []
    for log in logs {
      for (position, item) in zip(log.positions, log.items) {
        switch item {
        case .sample(let sample): records.append(.sample(sample, position: position))
        case .deletion(let record): records.append(.deletion(record, position: position))
        case .removed: break
        }
      }
    }
    records.sort { $0.position < $1.position }
    return HealthSnapshot(state: state, records: records)
  }

  /// A store restored from a snapshot. Queries do not survive: the app executes its
  /// observer query again, as at launch.
  public convenience init(snapshot: HealthSnapshot) {
    self.init(app: snapshot.state.app, clock: snapshot.state.clock)
    isReplaying = true
    state = snapshot.state
    for record in snapshot.records {
      switch record {
      case .sample(let sample, let position): insertSample(sample, position: position)
      case .deletion(let deleted, let position):
        logs[deleted.type.ordinal].append(.deletion(deleted), at: position)
      }
    }
    state.counter = snapshot.state.counter
    isReplaying = false
    lastRecordedState = state
  }

  /// Replays one change from the feed, e.g. from a journal on load. Replaying a store's
  /// feed in order onto a new store with the same app reproduces its state.
  public func apply(_ change: HealthChange) {
    isReplaying = true
    defer { isReplaying = false }
    switch change {
    case .sampleSaved(let sample, let position):
      insertSample(sample, position: position)
    case .sampleDeleted(let uuid, let position, let date):
      removeSample(uuid, position: position, date: date)
    case .deletedObjectsPurged(let cutoff):
      _ = purge(before: cutoff)
    case .deletedObjectsTrimmed(let keeping):
      _ = trim(keeping: keeping)
    case .stateChanged(let newState):
      let scopeChanged =
        newState.settings.syncIdentifierScope != state.settings.syncIdentifierScope
      state = newState
      lastRecordedState = newState
      if scopeChanged { rebuildSyncIndex() }
    }
  }
}
