import Foundation

extension HealthStore {
  /// The whole store as a Codable value.
  /// - Complexity: O(n log n).
  public func snapshot() -> HealthSnapshot {
    loadHistory()
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
      loadHistory()
      removeSample(uuid, position: position, date: date)
    case .deletedObjectsPurged(let cutoff):
      loadHistory()
      _ = purge(before: cutoff)
    case .deletedObjectsTrimmed(let keeping):
      loadHistory()
      _ = trim(keeping: keeping)
    case .stateChanged(let newState):
      let scopeChanged =
        newState.settings.syncIdentifierScope != state.settings.syncIdentifierScope
      state = newState
      lastRecordedState = newState
      if scopeChanged { rebuildSyncIndex() }
    }
  }

  /// A store restored from the newest part of its history: `snapshot` holds the small
  /// state and the records after position `through`; `load` returns the others (those at
  /// `through` or before, in position order) and is called once, the first time something
  /// needs them. Anchored queries from an anchor at or after `through`, and saves of new
  /// samples without a UUID or sync identifier, never do: a store reopened this way
  /// answers an incremental sync at a cost that grows with the changes, not the history.
  ///
  /// `olderSynced`, when given, are the older records that are live samples with a sync
  /// identifier (others are ignored): with them, saves with sync identifiers (replacing
  /// one of those) and deleting one of those need no older record either.
  public convenience init(
    snapshot: HealthSnapshot, olderRecordsThrough through: Int64,
    olderSynced: [HealthRecord]? = nil, load: @escaping () -> [HealthRecord]
  ) {
    self.init(snapshot: snapshot)
    guard through > 0 else { return }
    unloadedThrough = through
    loadOlderRecords = load
    guard let olderSynced else { return }
    var known: [UUID: (sample: HealthSample, position: Int64)] = [:]
    for case .sample(let sample, let position) in olderSynced where position <= through {
      guard let key = syncKey(for: sample), let uuid = sample.uuid else { continue }
      known[uuid] = (sample, position)
      // A newer sample with the same identifier would have replaced it.
      if syncIndex[key] == nil { syncIndex[key] = uuid }
    }
    self.olderSynced = known
  }

  /// Whether every record is in memory (always, unless opened with older records unloaded).
  public var isHistoryLoaded: Bool { loadOlderRecords == nil }

  /// Reads the older records now, if they are not in memory yet.
  /// - Complexity: O(n) the first time, O(1) after.
  public func loadHistory() {
    guard let load = loadOlderRecords else { return }
    loadOlderRecords = nil
    let through = unloadedThrough
    let removed = removedOlder
    unloadedThrough = 0
    olderSynced = nil
    removedOlder = []
    let newer = logs
    logs = Array(repeating: SampleLog(), count: SampleType.allCases.count)
    let wasReplaying = isReplaying
    isReplaying = true
    defer { isReplaying = wasReplaying }
    let newerKeys = syncIndex
    for record in load() where record.position <= through && !removed.contains(record.position) {
      switch record {
      case .sample(let sample, let position): insertSample(sample, position: position)
      case .deletion(let deleted, let position):
        logs[deleted.type.ordinal].append(.deletion(deleted), at: position)
      }
    }
    // A newer sample holding a sync identifier replaced any older one with it.
    syncIndex.merge(newerKeys) { _, newer in newer }
    for (ordinal, log) in newer.enumerated() {
      for (position, item) in zip(log.positions, log.items) {
        logs[ordinal].append(item, at: position)
      }
    }
  }
}
