import Foundation

/// How `HealthStore` asks its `HealthSampleStorage`.
///
/// Writes: each mutation is applied as the change it emits (a save, a deletion, a purge,
/// a trim, the small state). Reads: the storage's indexes narrow every query (positions
/// for anchored reads, start dates for date predicates, UUIDs, sync identifiers); what
/// they do not cover (metadata, devices, sources beyond one, the app's read permission)
/// is applied to the rows returned. A storage error is recorded in `storageFailure`.
extension HealthStore {
  // MARK: Errors

  /// Runs `body` unless the storage already failed; records its error. False when it
  /// failed or did not run.
  @discardableResult
  func attempt(_ body: () throws -> Void) -> Bool {
    guard storageFailure == nil else { return false }
    do {
      try body()
      return true
    } catch {
      storageFailure = error
      return false
    }
  }

  /// Applies changes to the storage as one transaction; false when it failed.
  @discardableResult
  func persist(_ changes: [HealthChange]) -> Bool {
    attempt { try storage.apply(changes) }
  }

  /// `persist(_:)`, with the storage's preparations of the samples saved
  /// (`HealthSampleStorage.apply(_:prepared:)`).
  @discardableResult
  func persist(_ changes: [HealthChange], prepared: [(any StoragePreparation)?]) -> Bool {
    guard !prepared.isEmpty else { return persist(changes) }
    return attempt { try storage.apply(changes, prepared: prepared) }
  }

  /// A storage read, or `empty` once the storage has failed.
  func read<Value>(_ empty: Value, _ body: () throws -> Value) -> Value {
    guard storageFailure == nil else { return empty }
    do {
      return try body()
    } catch {
      storageFailure = error
      return empty
    }
  }

  /// Throws the storage's failure, if any, as a HealthKit error.
  func checkStorage() throws(HealthError) {
    if let storageFailure { throw HealthError.storage(storageFailure) }
  }

  // MARK: Lookups

  /// The live sample with `uuid` in the storage. With `loadingHistory`, one not found
  /// there is looked for again after reading the older records, if they are not in yet.
  func stored(_ uuid: UUID, loadingHistory: Bool = false) -> StoredSample? {
    if let found = read(nil, { try storage.sample(uuid: uuid) }) { return found }
    guard loadingHistory, !isHistoryLoaded else { return nil }
    loadHistory()
    return read(nil) { try storage.sample(uuid: uuid) }
  }

  /// Whether a live sample has this UUID, among the records in the storage and the older
  /// synced ones (older others may not be known yet).
  func isKnown(_ uuid: UUID) -> Bool { olderSynced?[uuid] != nil || stored(uuid) != nil }

  /// The live sample that holds a sync key: the newest with its identifier (from its
  /// source, when the scope is per source), or an older synced one.
  func syncedSample(for key: SyncKey) -> HealthSample? {
    let bundle =
      state.settings.syncIdentifierScope == .sourceAndType ? key.bundleIdentifier : nil
    let newest = read([]) {
      try storage.samples(syncIdentifier: key.identifier, type: key.type, bundle: bundle)
    }.last { $0.sample.source != nil }
    if let newest { return newest.sample }
    guard let uuid = olderSyncIndex[key] else { return nil }
    return olderSynced?[uuid]?.sample
  }

  // MARK: Queries

  /// The live samples of `type` that may match `predicate`, in change order: those with its
  /// UUIDs, or those whose start the predicate's dates allow (an end date is not indexed:
  /// with overlap or end-date matching, the storage's longest duration widens the range),
  /// from `bundle` when given. The caller applies the whole predicate.
  func candidates(of type: SampleType, matching predicate: SamplePredicate?, bundle: String?)
    -> [HealthSample]
  {
    let bundle =
      bundle ?? predicate?.sourceBundleIdentifiers.flatMap { $0.count == 1 ? $0.first : nil }
    if let uuids = predicate?.uuids {
      var found: [StoredSample] = []
      for uuid in uuids {
        guard let stored = stored(uuid), stored.sample.type == type,
          bundle == nil || stored.sample.source?.bundleIdentifier == bundle
        else { continue }
        found.append(stored)
      }
      return found.sorted { $0.position < $1.position }.map(\.sample)
    }
    let range = predicate.flatMap { startRange(of: type, for: $0) }
    return read([]) {
      try storage.samples(of: type, startingIn: range, bundle: bundle).map(\.sample)
    }
  }

  /// The start dates a sample matching `predicate` may have; nil when any may match.
  func startRange(of type: SampleType, for predicate: SamplePredicate) -> Range<Date>? {
    guard predicate.startDate != nil || predicate.endDate != nil else { return nil }
    // Every date option needs start < end date: the start is at most the end.
    let upper = predicate.endDate ?? .distantFuture
    var lower = Date.distantPast
    if let start = predicate.startDate {
      if predicate.options.contains(.strictStartDate) {
        lower = start
      } else if let longest = read(nil, { try storage.longestDuration(of: type) }) {
        // A second's margin against rounding in the durations.
        lower = start.addingTimeInterval(-longest - 1)
      }
    }
    return lower..<max(lower, upper)
  }
}

extension HealthError {
  /// The storage failed: the command's effects must be discarded.
  static func storage(_ error: any Error) -> HealthError {
    HealthError(
      .errorDatabaseInaccessible,
      "the health storage failed: \(error); discard this command's changes and reopen the store")
  }
}
