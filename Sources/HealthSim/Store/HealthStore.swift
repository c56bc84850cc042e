import Foundation

/// The simulated HealthKit database on one device, with one app using it.
///
/// The app's view (authorization applied) is `HealthStoreProtocol`; the rest of the public
/// API is the test harness: other sources writing, the user changing permissions, the
/// device's life cycle, the virtual clock, simulations and persistence.
/// Not thread-safe: use it from one task. Handlers run synchronously.
public final class HealthStore {
  /// Where a live sample sits.
  struct Location {
    let type: SampleType
    let position: Int64
  }

  /// The matching key of a sync identifier (Y5 scope).
  struct SyncKey: Hashable {
    let bundleIdentifier: String
    let type: SampleType
    let identifier: String
  }

  var state: HealthSmallState
  var logs: [SampleLog] = Array(repeating: SampleLog(), count: SampleType.allCases.count)
  var locations: [UUID: Location] = [:]
  var syncIndex: [SyncKey: UUID] = [:]
  var observers: [ObserverQuery] = []
  var liveQueries: [AnchoredQuery] = []
  var collectionQueries: [StatisticsCollectionQuery] = []
  var isPumpingCollections = false
  var lastRecordedState: HealthSmallState
  var isReplaying = false
  var isRunningEvents = false
  /// While the saves kept during a lock are merged: their observers were noted already.
  var isMergingLockedSaves = false
  /// Records at positions up to this one are not in memory yet (see
  /// `init(snapshot:olderRecordsThrough:load:)`); 0 once everything is.
  public internal(set) var unloadedThrough: Int64 = 0
  /// Reads the records not in memory yet; nil once everything is.
  var loadOlderRecords: (() -> [HealthRecord])?
  /// While the older records are not in memory: those of them that are live samples with a
  /// sync identifier, when the store was opened with them (nil otherwise). With them, a
  /// save with a sync identifier and the deletion of such a sample need nothing older.
  var olderSynced: [UUID: (sample: HealthSample, position: Int64)]?
  /// Positions of older samples deleted while the older records were not in memory.
  var removedOlder: Set<Int64> = []

  /// Receives every mutation as a `HealthChange`, so a journal can persist O(1) per change.
  public var recorder: ((HealthChange) -> Void)?

  /// The app used in examples and by default.
  public static let defaultApp = SourceRevision(
    source: HealthSource(name: "weigh", bundleIdentifier: "org.weigh.app"), version: "1.0")

  /// A new store: empty, everything allowed, the app launched in the foreground, unlocked.
  public init(app: SourceRevision = HealthStore.defaultApp, seed: UInt64 = 0, clock: Date) {
    state = HealthSmallState(clock: clock, app: app, seed: seed)
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
      if scopeChanged { rebuildSyncIndex() }
      commitState()
    }
  }

  /// The latest change position, as an anchor.
  public var latestAnchor: QueryAnchor { QueryAnchor(fromValue: state.counter) }

  /// Live samples of a type.
  public func liveSampleCount(of type: SampleType) -> Int {
    mergeSavesIfUnlocked()
    loadHistory()
    return logs[type.ordinal].liveSamples
  }

  /// Deleted-object records still kept, of one type or of all.
  public func deletedObjectCount(of type: SampleType? = nil) -> Int {
    loadHistory()
    guard let type else { return logs.reduce(0) { $0 + $1.deletionRecords } }
    return logs[type.ordinal].deletionRecords
  }

  /// Every live sample of a type in change order, whatever the app may read.
  /// - Complexity: O(n).
  public func allSamples(of type: SampleType) -> [HealthSample] {
    mergeSavesIfUnlocked()
    loadHistory()
    return logs[type.ordinal].items.compactMap {
      if case .sample(let sample) = $0 { return sample } else { return nil }
    }
  }

  /// Every kept deleted-object record of a type in change order.
  public func deletedObjectRecords(of type: SampleType) -> [DeletedObjectRecord] {
    loadHistory()
    return logs[type.ordinal].items.compactMap {
      if case .deletion(let record) = $0 { return record } else { return nil }
    }
  }

  /// The change position a live sample was saved at (its save order), or nil.
  public func position(of uuid: UUID) -> Int64? {
    guard sample(with: uuid) != nil else { return nil }
    return locations[uuid]?.position ?? olderSynced?[uuid]?.position
  }

  /// What sits at a change position: a live sample or a kept deleted-object record, or nil
  /// (nothing, or something since deleted or purged). Positions not in memory yet are not
  /// read for it.
  /// - Complexity: O(log n).
  public func record(at position: Int64) -> HealthRecord? {
    for log in logs {
      guard let index = log.index(of: position) else { continue }
      switch log.items[index] {
      case .sample(let sample): return .sample(sample, position: position)
      case .deletion(let record): return .deletion(record, position: position)
      case .removed: return nil
      }
    }
    return nil
  }

  /// The live sample with a UUID.
  /// - Complexity: O(log n).
  public func sample(with uuid: UUID) -> HealthSample? {
    if let known = olderSynced?[uuid] { return known.sample }
    if locations[uuid] == nil { loadHistory() }
    guard let location = locations[uuid],
      let index = logs[location.type.ordinal].index(of: location.position),
      case .sample(let sample) = logs[location.type.ordinal].items[index]
    else { return nil }
    return sample
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

  /// A UUID no live sample in memory has. While older records are not loaded, a clash
  /// with one of them is not checked: the seeded generator makes one about as likely as
  /// a random 122-bit collision.
  func freshUUID() -> UUID {
    while true {
      let uuid = state.generator.nextUUID()
      if locations[uuid] == nil, olderSynced?[uuid] == nil { return uuid }
    }
  }

  // MARK: Change feed

  func emit(_ change: HealthChange) {
    guard !isReplaying, let recorder else { return }
    recorder(change)
  }

  /// Emits the small state if it changed since the last emission.
  func commitState() {
    guard !isReplaying, let recorder else { return }
    if state != lastRecordedState {
      lastRecordedState = state
      recorder(.stateChanged(state))
    }
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

  func rebuildSyncIndex() {
    loadHistory()
    syncIndex = [:]
    for log in logs {
      for case .sample(let sample) in log.items {
        if let key = syncKey(for: sample) { syncIndex[key] = sample.uuid }
      }
    }
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
