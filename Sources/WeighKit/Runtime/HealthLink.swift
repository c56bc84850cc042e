import Foundation
import HealthSim

/// The simulated Health store as the session holds it: a `HealthStore` over Health's
/// storage (docs/store.md, "Health asks health.sqlite"), which asks the storage for every
/// query and writes each change into the command's transaction as it makes it. Nothing is
/// read up front; the next command after a failed one opens a new store.
final class HealthLink {
  let health: HealthStore
  /// What the store reads and writes through.
  let storage: CommandHealthStorage

  /// Whether Health changed anything since the command's last commit.
  var hasPending: Bool { storage.hasPending }

  /// Why the storage failed, if it did: Health answered without it, so the command's
  /// changes must be dropped.
  var failure: StoreError? { health.storageFailure.map(Self.storeError) }

  /// The app's identity in Health.
  static let app = SourceRevision(
    source: HealthSource(name: "weigh", bundleIdentifier: "org.weigh.app"),
    version: WeighVersion.current)

  /// The Health that `storage` holds, or a new one when it holds no small state.
  init(storage: CommandHealthStorage, seed: UInt64, clock: Date) throws(StoreError) {
    self.storage = storage
    let state = try Session.storageCall { try storage.smallState() }
    if state != nil {
      health = try Session.storageCall { try HealthStore(storage: storage) }
    } else {
      health = HealthStore(storage: storage, app: Self.app, seed: seed, clock: clock)
    }
    if let failure { throw failure }
  }

  /// A storage error as the store's errors say it.
  static func storeError(_ error: any Error) -> StoreError {
    do throws(StoreError) {
      return try Session.storageCall { () throws -> StoreError in throw error }
    } catch {
      return error
    }
  }
}

/// Health's storage as a command's `HealthStore` uses it: reads go to the storage (an
/// empty one until `health.sqlite` exists); the first write since the command's last commit
/// opens the command's transaction and a savepoint in it (`openWrites`), so that what Health
/// writes until the next commit can be undone alone. The small state is kept here and
/// written once per command by the session, because it changes with every event.
final class CommandHealthStorage: HealthSampleStorage {
  /// Where reads and writes go.
  private(set) var base: any HealthSampleStorage
  /// Opens the writes since the last commit: returns the storage to write to.
  private let openWrites: () throws -> any HealthSampleStorage
  /// The small state as of the last commit, when the storage does not hold it yet.
  private var committedState: HealthSmallState?
  /// The small state Health changed to since the last commit.
  private var pendingState: HealthSmallState?
  /// Whether writes since the last commit went to the storage (`openWrites` ran).
  private(set) var isWriting = false
  /// Whether anything changed since the last commit, the small state included.
  private(set) var hasPending = false
  /// One write, as a memory store's undo replays it.
  enum Write {
    case apply([HealthChange])
    case append([HealthRecord])
  }

  /// Whether `writes` keeps what was written since the last commit (what undoing a later
  /// failed step writes again).
  var keepsWrites = false
  /// The most changes and records `writes` keeps: past it they are dropped, and `accept`
  /// says so, so that a command writing a great many (an import of a million samples)
  /// does not hold them all in memory; its caller then keeps nothing to write again.
  var keptChangesLimit = Int.max
  /// What was written since the last commit, with `keepsWrites`.
  private(set) var writes: [Write] = []
  /// How many changes and records `writes` holds.
  private var keptChanges = 0
  /// Whether writes since the last commit were dropped, past `keptChangesLimit`.
  private var writesDropped = false

  /// How many records and samples the reads returned: what shows that a command's cost
  /// does not grow with the history.
  private(set) var rowsRead = 0

  init(
    base: any HealthSampleStorage, committedState: HealthSmallState?,
    openWrites: @escaping () throws -> any HealthSampleStorage
  ) {
    self.base = base
    self.committedState = committedState
    self.openWrites = openWrites
  }

  /// Reads from `storage` from now on (the REPL opens the store again for every command).
  func use(_ storage: any HealthSampleStorage) {
    guard !isWriting else { return }
    base = storage
  }

  /// The command committed: what was written since the last commit is its. Returns the
  /// writes kept (nil when there were more than `keptChangesLimit`) and the small state to
  /// write with the command, when it changed.
  func accept() -> (wrote: Bool, writes: [Write]?, state: HealthSmallState?) {
    defer {
      committedState = pendingState ?? committedState
      pendingState = nil
      isWriting = false
      hasPending = false
      writes = []
      keptChanges = 0
      writesDropped = false
    }
    return (isWriting, writesDropped ? nil : writes, pendingState)
  }

  /// Keeps `write` of `count` changes or records in `writes`, up to `keptChangesLimit`.
  private func keep(_ write: Write, count: Int) {
    guard keepsWrites, !writesDropped else { return }
    keptChanges += count
    guard keptChanges <= keptChangesLimit else {
      writes = []
      writesDropped = true
      return
    }
    writes.append(write)
  }

  private func write(_ body: (any HealthSampleStorage) throws -> Void) throws {
    hasPending = true
    if !isWriting {
      base = try openWrites()
      isWriting = true
    }
    try body(base)
  }

  func apply(_ changes: [HealthChange]) throws {
    try apply(changes, prepared: [])
  }

  /// The preparations go on with the changes when no change is the small state's (an
  /// import's batch of saves); what is kept to write again does without them.
  func apply(_ changes: [HealthChange], prepared: [(any StoragePreparation)?]) throws {
    // Passed on as they are when no change is the small state's (an import's batch of
    // saves): a copy of the list cost a copy of each sample.
    if !changes.contains(where: { if case .stateChanged = $0 { true } else { false } }) {
      guard !changes.isEmpty else { return }
      try write { try $0.apply(changes, prepared: prepared) }
      keep(.apply(changes), count: changes.count)
      return
    }
    var rest: [HealthChange] = []
    for change in changes {
      if case .stateChanged(let state) = change {
        pendingState = state
        hasPending = true
      } else {
        rest.append(change)
      }
    }
    guard !rest.isEmpty else { return }
    try write { try $0.apply(rest) }
    keep(.apply(rest), count: rest.count)
  }

  func append(_ records: [HealthRecord]) throws {
    try write { try $0.append(records) }
    keep(.append(records), count: records.count)
  }

  func smallState() throws -> HealthSmallState? {
    if let state = pendingState ?? committedState { return state }
    return try base.smallState()
  }

  func lastPosition() throws -> Int64 { try base.lastPosition() }

  /// Counts the rows a read returned.
  private func counted<Rows: Collection>(_ rows: Rows) -> Rows {
    rowsRead += rows.count
    return rows
  }

  func record(at position: Int64) throws -> HealthRecord? {
    counted(try base.record(at: position).map { [$0] } ?? []).first
  }

  func records(after position: Int64, limit: Int) throws -> [HealthRecord] {
    counted(try base.records(after: position, limit: limit))
  }

  func changes(of type: SampleType, after anchor: Int64, limit: Int) throws -> [HealthRecord] {
    counted(try base.changes(of: type, after: anchor, limit: limit))
  }

  func samples(of type: SampleType, startingIn range: Range<Date>?, bundle: String?) throws
    -> [StoredSample]
  {
    counted(try base.samples(of: type, startingIn: range, bundle: bundle))
  }

  func sample(uuid: UUID) throws -> StoredSample? {
    counted(try base.sample(uuid: uuid).map { [$0] } ?? []).first
  }

  func liveUUIDs(among uuids: [UUID]) throws -> Set<UUID> {
    counted(try base.liveUUIDs(among: uuids))
  }

  func samples(syncIdentifier: String, type: SampleType, bundle: String?) throws
    -> [StoredSample]
  {
    counted(try base.samples(syncIdentifier: syncIdentifier, type: type, bundle: bundle))
  }

  func newestSample(of type: SampleType) throws -> StoredSample? {
    counted(try base.newestSample(of: type).map { [$0] } ?? []).first
  }

  func samples(uuidPrefix hexPrefix: String, limit: Int) throws -> [StoredSample] {
    counted(try base.samples(uuidPrefix: hexPrefix, limit: limit))
  }

  func statistics(of type: SampleType, boundaries: [Date], bundle: String?) throws
    -> [SampleBucket]
  {
    try base.statistics(of: type, boundaries: boundaries, bundle: bundle)
  }

  func counts(of type: SampleType?) throws -> RecordCounts { try base.counts(of: type) }

  func longestDuration(of type: SampleType) throws -> TimeInterval? {
    try base.longestDuration(of: type)
  }
}
