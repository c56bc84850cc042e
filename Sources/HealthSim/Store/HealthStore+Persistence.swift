import Foundation

extension HealthStore {
  /// The whole store as a Codable value.
  /// - Complexity: O(n log n).
  public func snapshot() -> HealthSnapshot {
    loadHistory()
    return HealthSnapshot(
      state: state, records: read([]) { try storage.records(after: 0, limit: 0) })
  }

  /// A store restored from a snapshot, kept in memory. Queries do not survive: the app
  /// executes its observer query again, as at launch.
  public convenience init(snapshot: HealthSnapshot) {
    let storage = InMemorySampleStorage()
    self.init(storage: storage, state: snapshot.state)
    attempt { try storage.append(snapshot.records) }
    persist([.stateChanged(state)])
    lastStoredState = state
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
      _ = purge(before: cutoff)
    case .deletedObjectsTrimmed(let keeping):
      _ = trim(keeping: keeping)
    case .stateChanged(let newState):
      let scopeChanged =
        newState.settings.syncIdentifierScope != state.settings.syncIdentifierScope
      // The older samples' sync keys were made under the old scope.
      if scopeChanged { loadHistory() }
      state = newState
      lastRecordedState = newState
      lastStoredState = newState
      isRecordedStateStored = true
      persist([.stateChanged(newState)])
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
  ///
  /// The store keeps its records in an `InMemorySampleStorage`: the newer ones first, and
  /// when the older ones are needed, a new storage with the older ones, then the newer.
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
      // A newer sample with the same identifier replaced it: the storage answers first.
      if olderSyncIndex[key] == nil { olderSyncIndex[key] = uuid }
    }
    self.olderSynced = known
  }

  /// Whether every record is in the storage (always, unless opened with older records
  /// unloaded).
  public var isHistoryLoaded: Bool { loadOlderRecords == nil }

  /// Reads the older records now, if they are not in the storage yet: the store moves to
  /// a new in-memory storage holding the older records, then those it held.
  /// - Complexity: O(n) the first time, O(1) after.
  public func loadHistory() {
    guard let load = loadOlderRecords else { return }
    loadOlderRecords = nil
    let through = unloadedThrough
    let removed = removedOlder
    unloadedThrough = 0
    olderSynced = nil
    olderSyncIndex = [:]
    removedOlder = []
    let newer = read([]) { try storage.records(after: 0, limit: 0) }
    let older = load().filter { $0.position <= through && !removed.contains($0.position) }
    let whole = InMemorySampleStorage()
    attempt {
      try whole.append(older)
      try whole.append(newer)
      if let lastStoredState { try whole.apply([.stateChanged(lastStoredState)]) }
    }
    storage = whole
  }
}
