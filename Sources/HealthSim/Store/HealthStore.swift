import Foundation

/// The simulated HealthKit database on one device, with one app using it.
///
/// The app's view (authorization applied) is `HealthStoreProtocol`; the rest of the public
/// API is the test harness: other sources writing, the user changing permissions, the
/// device's life cycle, the virtual clock, simulations and persistence.
/// Not thread-safe: use it from one task. Handlers run synchronously.
public final class HealthStore {
  /// The matching key of a sync identifier (Y5 scope).
  struct SyncKey: Hashable {
    let bundleIdentifier: String
    let type: SampleType
    let identifier: String
  }

  var state: HealthSmallState
  /// Where the samples, deleted-object records and small state are kept. Every mutation
  /// goes to it through `HealthSampleStorage.apply(_:)` as the change feed describes it;
  /// every query asks it (see HealthStore+Storage.swift).
  public internal(set) var storage: any HealthSampleStorage
  /// The first error the storage threw, if any; from then on the store answers as empty.
  ///
  /// The store's non-throwing API (facts, lookups, clock, deliveries) cannot report a
  /// storage error when it happens: it records it here and answers nothing after it
  /// rather than answer wrongly. A caller must check this after each command and, when
  /// it is set, discard the command's effects and reopen the storage. Methods that
  /// already throw (saves, deletions, queries, whose handlers get errors) throw it too.
  public internal(set) var storageFailure: (any Error)?
  /// The small state the storage holds.
  var lastStoredState: HealthSmallState?
  var observers: [ObserverQuery] = []
  var liveQueries: [AnchoredQuery] = []
  var collectionQueries: [StatisticsCollectionQuery] = []
  var isPumpingCollections = false
  var lastRecordedState: HealthSmallState
  /// Whether `lastRecordedState` is `lastStoredState`.
  var isRecordedStateStored = true
  var isReplaying = false
  var isRunningEvents = false
  /// While the saves kept during a lock are merged: their observers were noted already.
  var isMergingLockedSaves = false
  /// Records at positions up to this one are not in the storage yet (see
  /// `init(snapshot:olderRecordsThrough:load:)`); 0 once everything is.
  public internal(set) var unloadedThrough: Int64 = 0
  /// Reads the records not in the storage yet; nil once everything is.
  var loadOlderRecords: (() -> [HealthRecord])?
  /// While the older records are not in the storage: those of them that are live samples
  /// with a sync identifier, when the store was opened with them (nil otherwise). With
  /// them, a save with a sync identifier and the deletion of such a sample need nothing
  /// older.
  var olderSynced: [UUID: (sample: HealthSample, position: Int64)]?
  /// The sync keys of `olderSynced`.
  var olderSyncIndex: [SyncKey: UUID] = [:]
  /// Positions of older samples deleted while the older records were not in the storage.
  var removedOlder: Set<Int64> = []

  /// Receives every mutation as a `HealthChange`, so a journal can persist O(1) per change.
  public var recorder: ((HealthChange) -> Void)?

  /// The app used in examples and by default.
  public static let defaultApp = SourceRevision(
    source: HealthSource(name: "weigh", bundleIdentifier: "org.weigh.app"), version: "1.0")

  /// A new store: empty, everything allowed, the app launched in the foreground, unlocked.
  /// Its samples are kept in memory (`InMemorySampleStorage`).
  public convenience init(
    app: SourceRevision = HealthStore.defaultApp, seed: UInt64 = 0, clock: Date
  ) {
    self.init(storage: InMemorySampleStorage(), app: app, seed: seed, clock: clock)
  }

  /// A new store kept in `storage`, which must be empty: everything allowed, the app
  /// launched in the foreground, unlocked. The new small state is written to it at once.
  /// A storage that is not empty, or that cannot be written, sets `storageFailure`.
  public convenience init(
    storage: any HealthSampleStorage, app: SourceRevision = HealthStore.defaultApp,
    seed: UInt64 = 0, clock: Date
  ) {
    self.init(storage: storage, state: HealthSmallState(clock: clock, app: app, seed: seed))
    attempt {
      let last = try storage.lastPosition()
      guard last == 0 else {
        throw HealthStorageError(
          "the storage already holds records up to position \(last); open it with init(storage:)")
      }
    }
    persist([.stateChanged(state)])
    lastStoredState = state
  }

  /// The store kept in `storage`, as it was left: its small state and its records.
  /// Queries do not survive: the app executes its observer query again, as at launch.
  /// - Throws: `HealthStorageError` when the storage holds no small state (a new
  ///   storage: use `init(storage:app:seed:clock:)`), or the storage's own error.
  public convenience init(storage: any HealthSampleStorage) throws {
    guard var state = try storage.smallState() else {
      throw HealthStorageError(
        "the storage holds no health store yet; create one with init(storage:app:seed:clock:)")
    }
    let stored = state
    // A storage written one change at a time may keep a change made after the state it
    // keeps: the next position must follow it all the same.
    state.counter = max(state.counter, try storage.lastPosition())
    self.init(storage: storage, state: state)
    lastStoredState = stored
    isRecordedStateStored = stored == state
  }

  init(storage: any HealthSampleStorage, state: HealthSmallState) {
    self.storage = storage
    self.state = state
    lastRecordedState = state
  }

  // MARK: Harness facts

  /// The virtual clock.
  public var now: Date { state.clock }

  /// The app using the store.
  public var app: SourceRevision { state.app }

  /// The small state (settings, authorization, device, delivery, simulations, clock).
  public var smallState: HealthSmallState { state }

  /// The knobs; changing them is recorded in the change feed.
  public var settings: HealthSettings {
    get { state.settings }
    set {
      let scopeChanged = newValue.syncIdentifierScope != state.settings.syncIdentifierScope
      state.settings = newValue
      // The older samples' sync keys were made under the old scope.
      if scopeChanged { loadHistory() }
      commitState()
    }
  }

  /// The latest change position, as an anchor.
  public var latestAnchor: QueryAnchor { QueryAnchor(fromValue: state.counter) }

  /// Live samples of a type.
  public func liveSampleCount(of type: SampleType) -> Int {
    mergeSavesIfUnlocked()
    loadHistory()
    return read(0) { try storage.counts(of: type).samples }
  }

  /// Deleted-object records still kept, of one type or of all.
  public func deletedObjectCount(of type: SampleType? = nil) -> Int {
    loadHistory()
    return read(0) { try storage.counts(of: type).deletions }
  }

  /// Every live sample of a type in change order, whatever the app may read.
  /// - Complexity: O(n).
  public func allSamples(of type: SampleType) -> [HealthSample] {
    mergeSavesIfUnlocked()
    loadHistory()
    return read([]) {
      try storage.samples(of: type, startingIn: nil, bundle: nil).map(\.sample)
    }
  }

  /// The live samples of a type that start in `range`, in change order, whatever the app
  /// may read: one read of the storage's start-date index (an import looks for what Health
  /// already has around each batch it adds with it).
  /// - Complexity: O(log n + k) for k samples in the range.
  public func allSamples(of type: SampleType, startingIn range: Range<Date>) -> [HealthSample] {
    mergeSavesIfUnlocked()
    loadHistory()
    return read([]) {
      try storage.samples(of: type, startingIn: range, bundle: nil).map(\.sample)
    }
  }

  /// The live sample that starts last among those of `types`, whatever the app may read;
  /// of those starting then, the one saved last. Nil when none is live.
  /// - Complexity: one storage lookup per type.
  public func newestSample(of types: [SampleType] = SampleType.allCases) -> HealthSample? {
    mergeSavesIfUnlocked()
    loadHistory()
    return read(nil) {
      try types.compactMap { try storage.newestSample(of: $0) }.max {
        ($0.sample.startDate, $0.position) < ($1.sample.startDate, $1.position)
      }?.sample
    }
  }

  /// The live samples whose UUID begins with `prefix` (hex digits; case and hyphens do not
  /// matter), whatever the app may read, in UUID order, at most `limit` (0: every one).
  /// - Complexity: one storage lookup of the samples found.
  public func samples(uuidPrefix prefix: String, limit: Int) -> [HealthSample] {
    mergeSavesIfUnlocked()
    loadHistory()
    let digits = prefix.lowercased().replacingOccurrences(of: "-", with: "")
    return read([]) { try storage.samples(uuidPrefix: digits, limit: limit).map(\.sample) }
  }

  /// Every kept deleted-object record of a type in change order.
  /// - Complexity: O(n).
  public func deletedObjectRecords(of type: SampleType) -> [DeletedObjectRecord] {
    loadHistory()
    return read([]) {
      try storage.changes(of: type, after: 0, limit: 0).compactMap {
        if case .deletion(let record, _) = $0 { return record } else { return nil }
      }
    }
  }

  /// The change position a live sample was saved at (its save order), or nil.
  public func position(of uuid: UUID) -> Int64? {
    if let known = olderSynced?[uuid] { return known.position }
    return stored(uuid, loadingHistory: true)?.position
  }

  /// What sits at a change position: a live sample or a kept deleted-object record, or nil
  /// (nothing, or something since deleted or purged). Positions not in the storage yet are
  /// not read for it.
  /// - Complexity: one storage lookup.
  public func record(at position: Int64) -> HealthRecord? {
    read(nil) { try storage.record(at: position) }
  }

  /// The live sample with a UUID.
  /// - Complexity: one storage lookup.
  public func sample(with uuid: UUID) -> HealthSample? {
    if let known = olderSynced?[uuid] { return known.sample }
    return stored(uuid, loadingHistory: true)?.sample
  }

  /// Reseeds the one random generator (`seed <n>`).
  public func seed(_ seed: UInt64) {
    state.generator = SeededGenerator(seed: seed)
    commitState()
  }

  /// A new UUID from the seeded generator, for samples an app creates.
  public func makeUUID() -> UUID {
    defer { commitState() }
    return freshUUID()
  }

  /// A standard normal draw from the seeded generator.
  public func nextGaussian() -> Double {
    defer { commitState() }
    return state.generator.nextGaussian()
  }

  /// A UUID no live sample in the storage has, nor one of `taken` (saves not applied yet).
  /// While older records are not loaded, a clash with one of them is not checked: the
  /// seeded generator makes one about as likely as a random 122-bit collision.
  func freshUUID(avoiding taken: Set<UUID> = []) -> UUID {
    while true {
      let uuid = state.generator.nextUUID()
      if !taken.contains(uuid), stored(uuid) == nil, olderSynced?[uuid] == nil { return uuid }
    }
  }

  // MARK: Change feed

  /// Tells the recorder of a change (the storage has it already).
  func emit(_ change: HealthChange) {
    guard !isReplaying, let recorder else { return }
    recorder(change)
  }

  /// Stores and emits the small state if it changed since it was last stored or emitted.
  func commitState() {
    guard !isReplaying else { return }
    let changed = state != lastStoredState
    if changed {
      lastStoredState = state
      persist([.stateChanged(state)])
    }
    guard let recorder, storageFailure == nil else {
      isRecordedStateStored = isRecordedStateStored && !changed
      return
    }
    // One comparison serves both while the recorder has what the storage has.
    if isRecordedStateStored ? changed : state != lastRecordedState {
      lastRecordedState = state
      recorder(.stateChanged(state))
    }
    isRecordedStateStored = true
  }

  func syncKey(for sample: HealthSample) -> SyncKey? {
    guard let identifier = sample.syncIdentifier, let source = sample.source else { return nil }
    return syncKey(identifier, type: sample.type, source: source)
  }

  func syncKey(_ identifier: String, type: SampleType, source: HealthSource) -> SyncKey {
    let bundle =
      state.settings.syncIdentifierScope == .sourceAndType ? source.bundleIdentifier : ""
    return SyncKey(bundleIdentifier: bundle, type: type, identifier: identifier)
  }
}

/// Records whether an observer handler called its completion; the app may call it from any
/// thread, later than the handler returns.
final class CompletionFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var called = false

  func markCalled() { lock.withLock { called = true } }

  var isCalled: Bool { lock.withLock { called } }
}

/// An observer delivery whose handlers ran and whose completions may still come.
public struct PendingDelivery: @unchecked Sendable {
  /// The type delivered.
  public let type: SampleType
  /// Why it was delivered.
  public let reason: BackgroundDelivery.Reason
  /// When it was delivered.
  public let date: Date
  /// Each handler call: its delivery number and whether it completed.
  var calls: [(number: Int, flag: CompletionFlag)] = []

  init(type: SampleType, reason: BackgroundDelivery.Reason, date: Date) {
    self.type = type
    self.reason = reason
    self.date = date
  }

  /// Whether every handler called its completion.
  public var isComplete: Bool { calls.allSatisfy { $0.flag.isCalled } }
}
