import Foundation

/// `HealthSampleStorage` in memory: one `SampleLog` per type, as `HealthStore` keeps them,
/// with a UUID index and a sync identifier index. The reference that other storages are
/// tested against; nothing survives the process.
///
/// A date range (and statistics) reads a per-type index of live samples' start dates.
public final class InMemorySampleStorage: HealthSampleStorage {
  /// The sync identifier of live samples of one type.
  private struct SyncName: Hashable {
    let type: SampleType
    let identifier: String
  }

  /// A live sample's place in the start-date index.
  private struct StartEntry: Comparable {
    let start: Date
    let position: Int64

    static func < (lhs: StartEntry, rhs: StartEntry) -> Bool {
      (lhs.start, lhs.position) < (rhs.start, rhs.position)
    }
  }

  private var logs = Array(repeating: SampleLog(), count: SampleType.allCases.count)
  /// Per type, the live samples by start date (then position).
  private var starts = Array(repeating: [StartEntry](), count: SampleType.allCases.count)
  private var locations: [UUID: (type: SampleType, position: Int64)] = [:]
  private var syncNames: [SyncName: [UUID]] = [:]
  private var state: HealthSmallState?
  private var last: Int64 = 0
  /// The longest duration of any sample ever held, per type (by ordinal): it never shrinks.
  private var longest = [TimeInterval](repeating: 0, count: SampleType.allCases.count)

  /// An empty storage.
  public init() {}

  /// A storage holding what this one holds now, changed independently of it afterwards
  /// (its collections are shared until either is written): what a caller keeps to undo
  /// changes it may have to drop.
  public func copy() -> InMemorySampleStorage {
    let copy = InMemorySampleStorage()
    copy.logs = logs
    copy.starts = starts
    copy.locations = locations
    copy.syncNames = syncNames
    copy.state = state
    copy.last = last
    copy.longest = longest
    return copy
  }

  // MARK: Writing

  public func apply(_ changes: [HealthChange]) throws {
    // The small state alone, as a store applies it after most commands: nothing to check.
    if changes.count == 1, case .stateChanged(let newState) = changes[0] {
      state = newState
      return
    }
    try check(changes)
    for change in changes {
      switch change {
      case .sampleSaved(let sample, let position): insert(.sample(sample, position: position))
      case .sampleDeleted(let uuid, let position, let date): delete(uuid, at: position, date: date)
      case .deletedObjectsPurged(let cutoff):
        _ = SampleLog.purgeDeletions(in: &logs, before: cutoff)
      case .deletedObjectsTrimmed(let keeping):
        _ = SampleLog.trimDeletions(in: &logs, keeping: keeping)
      case .stateChanged(let newState): state = newState
      }
    }
  }

  public func append(_ records: [HealthRecord]) throws {
    try check(
      records.map {
        switch $0 {
        case .sample(let sample, let position): .sampleSaved(sample, position: position)
        // A deleted-object record takes a position, as a deletion of nothing live.
        case .deletion(let record, let position):
          .sampleDeleted(uuid: record.uuid, position: position, date: record.deletionDate)
        }
      }, deletionsAreRecords: true)
    for record in records { insert(record) }
  }

  /// Throws at the first change that breaks the rules of `apply`, before anything changes.
  /// With `deletionsAreRecords`, a deletion is an appended record: it needs no live sample.
  private func check(_ changes: [HealthChange], deletionsAreRecords: Bool = false) throws {
    var position = last
    // Saves (and records) alone with no UUID twice, as a batch of new samples: each is live
    // only if `locations` has it, so `liveNow` is not kept (its look-up and insert were two
    // hashes a sample).
    let savesAlone = deletionsAreRecords || !changes.contains(where: \.isDeletion)
    let tracksLive = !savesAlone || !DistinctUUIDs.areDistinct(changes.compactMap(\.savedUUID))
    var liveNow: [UUID: Bool] = [:]
    func isLive(_ uuid: UUID) -> Bool {
      tracksLive ? liveNow[uuid] ?? (locations[uuid] != nil) : locations[uuid] != nil
    }
    func take(_ next: Int64, _ index: Int) throws {
      guard next > position else {
        throw HealthStorageError.positionNotAfter(change: index, position: next, last: position)
      }
      position = next
    }
    for (index, change) in changes.enumerated() {
      switch change {
      case .sampleSaved(let sample, let next):
        guard let uuid = sample.uuid else { throw HealthStorageError.missingUUID(change: index) }
        guard !isLive(uuid) else {
          throw HealthStorageError.duplicateUUID(change: index, uuid: uuid)
        }
        try take(next, index)
        if tracksLive { liveNow[uuid] = true }
      case .sampleDeleted(let uuid, let next, _):
        if !deletionsAreRecords {
          guard isLive(uuid) else {
            throw HealthStorageError.noLiveSample(change: index, uuid: uuid)
          }
          liveNow[uuid] = false
        }
        try take(next, index)
      case .deletedObjectsPurged, .deletedObjectsTrimmed, .stateChanged:
        break
      }
    }
  }

  private func insert(_ record: HealthRecord) {
    switch record {
    case .sample(let sample, let position):
      let uuid = sample.uuid!
      logs[sample.type.ordinal].append(.sample(sample), at: position)
      locations[uuid] = (sample.type, position)
      insertStart(StartEntry(start: sample.startDate, position: position), type: sample.type)
      longest[sample.type.ordinal] = max(
        longest[sample.type.ordinal], sample.endDate.timeIntervalSince(sample.startDate))
      if let identifier = sample.syncIdentifier {
        syncNames[SyncName(type: sample.type, identifier: identifier), default: []].append(uuid)
      }
    case .deletion(let deleted, let position):
      logs[deleted.type.ordinal].append(.deletion(deleted), at: position)
    }
    last = max(last, record.position)
  }

  private func delete(_ uuid: UUID, at position: Int64, date: Date) {
    guard let location = locations.removeValue(forKey: uuid),
      case .sample(let sample) = logs[location.type.ordinal].remove(at: location.position)
    else { return }
    let entry = StartEntry(start: sample.startDate, position: location.position)
    let index = firstStart(notBefore: entry, type: sample.type)
    if index < starts[sample.type.ordinal].count, starts[sample.type.ordinal][index] == entry {
      starts[sample.type.ordinal].remove(at: index)
    }
    if let identifier = sample.syncIdentifier {
      let name = SyncName(type: sample.type, identifier: identifier)
      syncNames[name]?.removeAll { $0 == uuid }
      if syncNames[name]?.isEmpty == true { syncNames[name] = nil }
    }
    insert(.deletion(DeletedObjectRecord(deleting: sample, at: date), position: position))
    logs[sample.type.ordinal].compactIfSparse()
  }

  /// Adds a live sample to the start-date index.
  /// - Complexity: O(1) for a sample starting after every other, else O(log n) to find its
  ///   place and a move of the later entries.
  private func insertStart(_ entry: StartEntry, type: SampleType) {
    if let last = starts[type.ordinal].last, entry < last {
      starts[type.ordinal].insert(entry, at: firstStart(notBefore: entry, type: type))
    } else {
      starts[type.ordinal].append(entry)
    }
  }

  /// The index of the first entry of the start-date index not before `entry`.
  /// - Complexity: O(log n).
  private func firstStart(notBefore entry: StartEntry, type: SampleType) -> Int {
    let entries = starts[type.ordinal]
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle] < entry { low = middle + 1 } else { high = middle }
    }
    return low
  }

  // MARK: Reading

  public func smallState() throws -> HealthSmallState? { state }

  public func lastPosition() throws -> Int64 { last }

  public func record(at position: Int64) throws -> HealthRecord? {
    for log in logs {
      if let index = log.index(of: position) { return log.record(atIndex: index) }
    }
    return nil
  }

  public func records(after position: Int64, limit: Int) throws -> [HealthRecord] {
    var all: [HealthRecord] = []
    for log in logs {
      for index in log.firstIndex(after: position)..<log.count {
        if let record = log.record(atIndex: index) { all.append(record) }
      }
    }
    all.sort { $0.position < $1.position }
    return limit > 0 ? Array(all.prefix(limit)) : all
  }

  public func changes(of type: SampleType, after anchor: Int64, limit: Int) throws
    -> [HealthRecord]
  {
    let log = logs[type.ordinal]
    var result: [HealthRecord] = []
    var index = log.firstIndex(after: anchor)
    while index < log.count, limit <= 0 || result.count < limit {
      if let record = log.record(atIndex: index) { result.append(record) }
      index += 1
    }
    return result
  }

  public func samples(of type: SampleType, startingIn range: Range<Date>?, bundle: String?)
    throws -> [StoredSample]
  {
    let log = logs[type.ordinal]
    var result: [StoredSample] = []
    guard let range else {
      for (position, item) in zip(log.positions, log.items) {
        guard case .sample(let sample) = item,
          bundle == nil || sample.source?.bundleIdentifier == bundle
        else { continue }
        result.append(StoredSample(sample: sample, position: position))
      }
      return result
    }
    let entries = starts[type.ordinal]
    var index = firstStart(
      notBefore: StartEntry(start: range.lowerBound, position: .min), type: type)
    var positions: [Int64] = []
    while index < entries.count, entries[index].start < range.upperBound {
      positions.append(entries[index].position)
      index += 1
    }
    for position in positions.sorted() {
      guard let slot = log.index(of: position), case .sample(let sample) = log.items[slot],
        bundle == nil || sample.source?.bundleIdentifier == bundle
      else { continue }
      result.append(StoredSample(sample: sample, position: position))
    }
    return result
  }

  public func sample(uuid: UUID) throws -> StoredSample? {
    guard let location = locations[uuid],
      let index = logs[location.type.ordinal].index(of: location.position),
      case .sample(let sample) = logs[location.type.ordinal].items[index]
    else { return nil }
    return StoredSample(sample: sample, position: location.position)
  }

  /// The last entry of the type's start-date index.
  /// - Complexity: O(1).
  public func newestSample(of type: SampleType) throws -> StoredSample? {
    guard let newest = starts[type.ordinal].last,
      let index = logs[type.ordinal].index(of: newest.position),
      case .sample(let sample) = logs[type.ordinal].items[index]
    else { return nil }
    return StoredSample(sample: sample, position: newest.position)
  }

  /// - Complexity: O(n): every live UUID is compared (no ordered UUID index in memory).
  public func samples(uuidPrefix hexPrefix: String, limit: Int) throws -> [StoredSample] {
    guard UUID.range(withHexPrefix: hexPrefix) != nil else { return [] }
    let found = locations.keys.map { ($0, $0.compactHex) }.filter { $0.1.hasPrefix(hexPrefix) }
      .sorted { $0.1 < $1.1 }
    return try (limit > 0 ? Array(found.prefix(limit)) : found).compactMap {
      try sample(uuid: $0.0)
    }
  }

  public func samples(syncIdentifier: String, type: SampleType, bundle: String?) throws
    -> [StoredSample]
  {
    let uuids = syncNames[SyncName(type: type, identifier: syncIdentifier)] ?? []
    return try uuids.compactMap { try sample(uuid: $0) }
      .filter { bundle == nil || $0.sample.source?.bundleIdentifier == bundle }
      .sorted { $0.position < $1.position }
  }

  public func statistics(of type: SampleType, boundaries: [Date], bundle: String?) throws
    -> [SampleBucket]
  {
    var (buckets, span) = try SampleBucket.emptyBuckets(between: boundaries)
    guard let span else { return buckets }
    for stored in try samples(of: type, startingIn: span, bundle: bundle) {
      guard let index = SampleBucket.index(of: stored.sample.startDate, in: boundaries) else {
        continue
      }
      buckets[index].add(stored.sample.value)
    }
    return buckets
  }

  public func longestDuration(of type: SampleType) throws -> TimeInterval? {
    longest[type.ordinal]
  }

  public func counts(of type: SampleType?) throws -> RecordCounts {
    let chosen = type.map { [logs[$0.ordinal]] } ?? logs
    return RecordCounts(
      samples: chosen.reduce(0) { $0 + $1.liveSamples },
      deletions: chosen.reduce(0) { $0 + $1.deletionRecords })
  }
}

extension HealthChange {
  /// Whether this is a deletion of a live sample.
  fileprivate var isDeletion: Bool {
    if case .sampleDeleted = self { return true }
    return false
  }

  /// The UUID of the sample this saves, if it is a save.
  fileprivate var savedUUID: UUID? {
    if case .sampleSaved(let sample, _) = self { return sample.uuid }
    return nil
  }
}
