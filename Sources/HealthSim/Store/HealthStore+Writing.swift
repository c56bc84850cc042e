import Foundation

extension HealthStore {
  // MARK: Harness writes

  /// Saves samples as another app or device would (`health add`): no app permission applies.
  /// Returns the samples as stored; ignored stale sync versions are left out.
  /// - Complexity: O(k log n) for k samples.
  @discardableResult
  public func save(_ samples: [HealthSample], as revision: SourceRevision) throws(HealthError)
    -> [HealthSample]
  {
    defer { commitState() }
    let saved = try write(samples, revision: revision)
    try checkStorage()
    return saved
  }

  /// Saves samples whose own checks passed when they were made (`CheckedSample`), as
  /// `save(_:as:)` saves them: the same result, without checking each one's content again.
  /// An import makes them on its reading thread, so the saving thread does not. What the
  /// storage prepared of each (`CheckedSample.preparation`) goes back to it with the saved
  /// sample (`HealthSampleStorage.apply(_:prepared:)`).
  @discardableResult
  public func save(_ samples: [CheckedSample], as revision: SourceRevision) throws(HealthError)
    -> [HealthSample]
  {
    defer { commitState() }
    let preparations =
      samples.contains { $0.preparation != nil } ? samples.map(\.preparation) : []
    let saved = try write(
      samples.map(\.sample), revision: revision, contentChecked: true,
      preparations: preparations)
    try checkStorage()
    return saved
  }

  /// Deletes samples as their owning source would (`health delete`); returns how many.
  @discardableResult
  public func deleteAsOwner(_ uuids: [UUID]) throws(HealthError) -> Int {
    defer { commitState() }
    try checkExisting(uuids)
    let count = remove(uuids)
    try checkStorage()
    return count
  }

  /// Drops deleted-object records (`health purge`): all, or those deleted more than
  /// `age` seconds ago. Returns how many were dropped.
  @discardableResult
  public func purgeDeletedObjects(olderThan age: TimeInterval? = nil) -> Int {
    let cutoff = age.map { now.addingTimeInterval(-$0) }
    let dropped = purge(before: cutoff)
    if dropped > 0 { emit(.deletedObjectsPurged(before: cutoff)) }
    commitState()
    return dropped
  }

  /// Drops all but the newest `count` deleted-object records. Returns how many were dropped.
  @discardableResult
  public func purgeDeletedObjects(keepingNewest count: Int) -> Int {
    let dropped = trim(keeping: count)
    if dropped > 0 { emit(.deletedObjectsTrimmed(keeping: count)) }
    commitState()
    return dropped
  }

  // MARK: The app's writes

  /// Saves samples as the app (HKHealthStore.save): permission checks, then `save(_:as:)`.
  /// While the device is locked the save succeeds and is merged at unlock (see
  /// `keepForUnlock`); the samples returned then already have their UUIDs.
  @discardableResult
  public func save(_ samples: [HealthSample]) throws(HealthError) -> [HealthSample] {
    defer { commitState() }
    guard state.device.isHealthDataAvailable else { throw HealthError.unavailable }
    for type in Set(samples.flatMap(\.type.permissionTypes)).sorted() { try checkWrite(type) }
    if state.device.isLocked { return try keepForUnlock(samples) }
    let saved = try write(samples, revision: state.app)
    try checkStorage()
    return saved
  }

  /// Deletes samples the app saved; another source's sample fails with code 4 (D1 knob).
  public func delete(_ samples: [HealthSample]) throws(HealthError) {
    defer { commitState() }
    try checkAccess()
    for type in Set(samples.flatMap(\.type.permissionTypes)).sorted() { try checkWrite(type) }
    let uuids = samples.compactMap(\.uuid)
    try checkExisting(uuids)
    for uuid in uuids
    where sample(with: uuid)?.source?.bundleIdentifier
      != state.app.source.bundleIdentifier
    {
      throw HealthError(
        state.settings.foreignDeleteError,
        "sample \(uuid.uuidString) belongs to another source; an app may delete only its own samples"
      )
    }
    remove(uuids)
    try checkStorage()
  }

  /// Deletes the app's own samples of a type that match (deleteObjects(of:predicate:)).
  @discardableResult
  public func deleteObjects(of type: SampleType, predicate: SamplePredicate?) throws(HealthError)
    -> Int
  {
    defer { commitState() }
    try checkAccess()
    for permission in type.permissionTypes { try checkWrite(permission) }
    mergeSavesIfUnlocked()
    loadHistory()
    let bundle = state.app.source.bundleIdentifier
    let uuids = candidates(of: type, matching: predicate, bundle: bundle).filter {
      $0.source?.bundleIdentifier == bundle && (predicate?.matches($0) ?? true)
    }.compactMap(\.uuid)
    let count = remove(uuids)
    try checkStorage()
    return count
  }

  // MARK: Checks

  func checkAccess() throws(HealthError) {
    guard state.device.isHealthDataAvailable else { throw HealthError.unavailable }
    guard !state.device.isLocked else { throw HealthError.locked }
    mergeSavesIfUnlocked()
  }

  func checkWrite(_ type: SampleType) throws(HealthError) {
    switch state.authorization.writeDecision(for: type) {
    case .authorized: return
    case .denied:
      throw HealthError(
        .errorAuthorizationDenied,
        "writing \(type.rawValue) is denied; allow it in Health's settings for the app")
    case .notDetermined:
      throw HealthError(
        .errorAuthorizationNotDetermined,
        "writing \(type.rawValue) is not determined; request authorization first")
    }
  }

  func checkExisting(_ uuids: [UUID]) throws(HealthError) {
    mergeSavesIfUnlocked()
    if !uuids.allSatisfy(isKnown) { loadHistory() }
    for uuid in uuids where !isKnown(uuid) {
      throw HealthError(
        .errorInvalidArgument,
        "no sample with uuid \(uuid.uuidString); it may already be deleted")
    }
  }

  /// Checks a batch for a save: with `contentChecked`, the batch's samples (not their
  /// objects) passed `checkContent` already (they come from `CheckedSample`s).
  func validate(_ samples: [HealthSample], contentChecked: Bool = false) throws(HealthError) {
    var seen = Set<UUID>()
    for sample in samples {
      try validate(sample, seen: &seen, contentChecked: contentChecked)
      if sample.type.isCorrelation {
        try validateObjects(of: sample)
        for member in sample.objects ?? [] where !isAlreadySaved(member) {
          try validate(member, seen: &seen)
        }
      } else if sample.hasObjects {
        throw HealthError(
          .errorInvalidArgument,
          "only correlations hold objects; save the \(sample.type.rawValue) sample without them")
      }
    }
  }

  /// Checks one sample (not its objects) for a save; `seen` collects the batch's UUIDs.
  /// With `contentChecked` (a `CheckedSample`'s), only what depends on the store is checked.
  private func validate(
    _ sample: HealthSample, seen: inout Set<UUID>, contentChecked: Bool = false
  ) throws(HealthError) {
    if let uuid = sample.uuid, stored(uuid) != nil || !seen.insert(uuid).inserted {
      throw HealthError(
        .errorInvalidArgument,
        "a sample with uuid \(uuid.uuidString) already exists; save a new sample with a new uuid")
    }
    if !contentChecked { try Self.checkContent(of: sample) }
  }

  /// The checks of a sample for a save that read nothing of the store, in `validate`'s order
  /// after its UUID's: the same for a sample whatever the store and whichever thread asks
  /// (`CheckedSample` makes them once, off the saving thread).
  static func checkContent(of sample: HealthSample) throws(HealthError) {
    // The metadata read once (most samples of an import have none, and each read of a
    // sample's field is a retain and a release).
    let metadata = sample.metadata
    if !metadata.isEmpty {
      let identifier = metadata[MetadataKey.syncIdentifier]
      let version = metadata[MetadataKey.syncVersion]
      if (identifier != nil) != (version != nil) {
        throw HealthError(
          .errorInvalidArgument,
          identifier != nil
            ? "a sync identifier needs a sync version; add HKMetadataKeySyncVersion"
            : "a sync version needs a sync identifier; add HKMetadataKeySyncIdentifier")
      }
      if identifier != nil, identifier?.stringValue == nil || version?.numberValue == nil {
        throw HealthError(
          .errorInvalidArgument, "the sync identifier must be a string and the version a number")
      }
      if let number = version?.numberValue, !number.isFinite {
        throw HealthError(.errorInvalidArgument, "the sync version must be a finite number")
      }
      // A stored store writes metadata as JSON, which has no NaN or infinity: such a value
      // would be lost on disk while memory kept it, so neither takes it.
      if let key = Self.nonFiniteMetadataKey(in: metadata) {
        throw HealthError(
          .errorInvalidArgument,
          "the metadata value of \(key) is not a finite number; give a number")
      }
    }
    if sample.endDate < sample.startDate {
      throw HealthError(.errorInvalidArgument, "the end date is before the start date; swap them")
    }
    if !sample.value.isFinite || sample.value < 0 {
      throw HealthError(
        .errorInvalidArgument, "the value \(sample.value) is not a valid \(sample.type.rawValue)")
    }
    let workout = sample.workout
    if (sample.type == .workout) != (workout != nil) {
      throw HealthError(
        .errorInvalidArgument, "workout samples need workout details, and only they")
    }
    if let problem = workout?.problem {
      throw HealthError(.errorInvalidArgument, problem)
    }
    if sample.type.canonicalUnit.dimension == .fraction, sample.value > 1 {
      throw HealthError(
        .errorInvalidArgument,
        "\(sample.type.rawValue) \(sample.value) is more than 1; a percentage is a fraction (0.25 is 25 %)"
      )
    }
    if sample.type.isCorrelation, sample.value != 0 {
      throw HealthError(
        .errorInvalidArgument, "a correlation has no value of its own; give its value as 0")
    }
  }

  /// The first key (in key order) whose value is a number or date that is not finite.
  static func nonFiniteMetadataKey(in metadata: Metadata) -> String? {
    func isFinite(_ value: MetadataValue) -> Bool {
      switch value {
      case .number(let number): number.isFinite
      case .date(let date): date.timeIntervalSinceReferenceDate.isFinite
      case .string, .bool: true
      }
    }
    guard metadata.values.contains(where: { !isFinite($0) }) else { return nil }
    return metadata.keys.sorted().first { metadata[$0].map(isFinite) == false }
  }

  // MARK: Primitives

  /// Validates the whole batch, then applies it: all or nothing (S6). A sample already
  /// saved (the same UUID and content) is left as it is, as a device does, and is not in
  /// the result; a correlation's objects are saved with it, before it.
  /// `createdAt` is the creation date of the samples, now unless given.
  /// With `contentChecked`, the batch's samples passed `checkContent` (`CheckedSample`);
  /// `preparations` (empty, or one for each of `batch`) go to the storage with the plain
  /// samples saved from them (`HealthSampleStorage.apply(_:prepared:)`).
  func write(
    _ batch: [HealthSample], revision: SourceRevision, createdAt: Date? = nil,
    contentChecked: Bool = false, preparations: [(any StoragePreparation)?] = []
  ) throws(HealthError) -> [HealthSample] {
    mergeSavesIfUnlocked()
    let created = createdAt ?? now
    // A given UUID is checked against every sample ever saved; so is a sync identifier,
    // unless the older samples that have one are known.
    if batch.contains(where: {
      $0.uuid != nil || $0.hasObjects
        || (olderSynced == nil && $0.metadata[MetadataKey.syncIdentifier] != nil)
    }) {
      loadHistory()
    }
    // Only a sample with a UUID can be saved already (an import's samples have none: the
    // batch is kept as it is, not copied sample by sample).
    let samples = batch.contains { $0.uuid != nil } ? batch.filter { !isAlreadySaved($0) } : batch
    // The preparations go with the samples while none was left out.
    let prepared = samples.count == batch.count ? preparations : []
    try validate(samples, contentChecked: contentChecked)
    var claimed: [SyncKey: Double] = [:]
    var plans: [SyncKey?] = []
    var keep: [Bool] = []
    plans.reserveCapacity(samples.count)
    keep.reserveCapacity(samples.count)
    for sample in samples {
      guard let identifier = sample.syncIdentifier, let version = sample.syncVersion else {
        plans.append(nil)
        keep.append(true)
        continue
      }
      let key = syncKey(identifier, type: sample.type, source: revision.source)
      let stored = claimed[key] ?? syncedSample(for: key)?.syncVersion
      if let stored, version <= stored {
        if state.settings.staleSyncVersion == .fail {
          throw HealthError(
            .errorInvalidArgument,
            "sync version \(version) is not higher than the stored \(stored); raise the version")
        }
        plans.append(nil)
        keep.append(false)
        continue
      }
      claimed[key] = version
      plans.append(key)
      keep.append(true)
    }
    var saved: [HealthSample] = []
    saved.reserveCapacity(samples.count)
    var changed = Set<SampleType>()
    var lastChanged: SampleType?
    // The samples `noteCollectionChanges` looks at: none while no collection query and no
    // observer with a predicate would look (each was a copy of a saved sample).
    let noted = !collectionQueries.isEmpty || observers.contains { $0.predicate != nil }
    var touched: [HealthSample] = []
    // Plain samples are applied together, one storage call for the batch (each call costs
    // about 6,000 instructions around its inserts, on disk); a sample with a sync identifier
    // or objects first applies those pending, since its replacement and objects read the
    // storage.
    var pending = PendingSaves(preparations: prepared)
    pending.reserveCapacity(samples.count)
    // When every sample kept is plain, nothing is written before the loop ends, so the new
    // UUIDs `freshUUID(avoiding:)` would draw one by one can be drawn first and the storage
    // asked about all of them in one read: taken ones are skipped in order, as it skips
    // them, and past the drawn ones it draws on (the generator's sequence is the same).
    var drawn: [UUID] = []
    var drawnLive = Set<UUID>()
    var nextDrawn = 0
    // Whether every drawn UUID is free as drawn: none live, none older synced, no two alike
    // and none given in the batch (then none is asked about again, and the pending saves
    // keep no set of their UUIDs: two hashes a sample saved).
    var drawnAreFree = false
    let allPlain = samples.indices.allSatisfy {
      !keep[$0] || (plans[$0] == nil && !samples[$0].hasObjects)
    }
    if allPlain {
      let needed = samples.indices.count { keep[$0] && samples[$0].uuid == nil }
      if needed > 1 {
        // Drawn from a copy of the generator, stored back once (an access to `state` is
        // checked for exclusivity at run time).
        var generator = state.generator
        drawn.reserveCapacity(needed)
        for _ in 0..<needed { drawn.append(generator.nextUUID()) }
        state.generator = generator
        drawnLive = read([]) { try storage.liveUUIDs(among: drawn) }
        drawnAreFree =
          drawnLive.isEmpty && needed == samples.count
          && (olderSynced.map { older in !drawn.contains { older[$0] != nil } } ?? true)
          && DistinctUUIDs.areDistinct(drawn)
      }
    }
    if !drawnAreFree { pending.tracksUUIDs() }
    // The change counter of plain samples is kept here and stored in `state` before any
    // other sample and at the end (each access to the store's `state` is checked for
    // exclusivity at run time: two a sample, 130 instructions).
    var counter = state.counter
    for (index, sample) in samples.enumerated() where keep[index] {
      let isPlain = plans[index] == nil && !sample.hasObjects
      if !isPlain {
        state.counter = counter
        apply(&pending)
      }
      if let key = plans[index], let old = syncedSample(for: key)?.uuid {
        for doomed in removalOrder(of: [old]) {
          if let replaced = self.sample(with: doomed) {
            touched.append(replaced)
            changed.insert(replaced.type)
          }
          removeSample(doomed, position: state.counter + 1, date: now)
        }
      }
      var objects: [HealthSample]?
      if let members = sample.objects {
        objects = members.map { member in
          if let uuid = member.uuid, isAlreadySaved(member), let live = self.sample(with: uuid) {
            return live
          }
          let stored = member.saved(
            uuid: member.uuid ?? freshUUID(), revision: revision, at: created)
          insertSample(stored, position: state.counter + 1)
          touched.append(stored)
          changed.insert(stored.type)
          return stored
        }
      }
      // The sample's UUID: its own, or the next drawn one that is free, or a fresh one. (Not
      // a local function: the variables it captured were checked for exclusivity at run
      // time, six times a sample.)
      let uuid: UUID
      if let given = sample.uuid {
        uuid = given
      } else if drawnAreFree, nextDrawn < drawn.count {
        uuid = drawn[nextDrawn]
        nextDrawn += 1
      } else {
        var free: UUID?
        while free == nil, nextDrawn < drawn.count {
          let next = drawn[nextDrawn]
          nextDrawn += 1
          if !pending.uuids.contains(next), !drawnLive.contains(next), olderSynced?[next] == nil {
            free = next
          }
        }
        if let free {
          uuid = free
        } else {
          pending.tracksUUIDs()
          uuid = freshUUID(avoiding: pending.uuids)
        }
      }
      let stored = sample.saved(
        uuid: uuid, revision: revision, at: created, objects: objects)
      if isPlain {
        counter += 1
        pending.add(stored, position: counter, sample: index)
      } else {
        insertSample(stored, position: state.counter + 1)
        counter = state.counter
      }
      saved.append(stored)
      if noted { touched.append(stored) }
      // A run of one type is noted once (a set insertion hashed each sample's type).
      if sample.type != lastChanged {
        changed.insert(sample.type)
        lastChanged = sample.type
      }
    }
    state.counter = counter
    apply(&pending)
    if !isMergingLockedSaves {
      for type in changed.sorted() { noteChange(type) }
    }
    noteCollectionChanges(touched)
    return saved
  }

  /// Deletes live samples, leaving deleted-object records; returns how many of `uuids`
  /// were deleted. Deleting a correlation also deletes its objects (see `removalOrder`).
  @discardableResult
  func remove(_ uuids: [UUID]) -> Int {
    mergeSavesIfUnlocked()
    if !uuids.allSatisfy(isKnown) { loadHistory() }
    var changed = Set<SampleType>()
    var touched: [HealthSample] = []
    var count = 0
    let asked = Set(uuids)
    for uuid in removalOrder(of: uuids) {
      guard let removed = olderSynced?[uuid]?.sample ?? stored(uuid)?.sample else { continue }
      touched.append(removed)
      removeSample(uuid, position: state.counter + 1, date: now)
      changed.insert(removed.type)
      if asked.contains(uuid) { count += 1 }
    }
    for type in changed.sorted() { noteChange(type) }
    noteCollectionChanges(touched)
    return count
  }

  /// Applies the pending saves as one transaction and emits them; empties `pending`.
  private func apply(_ pending: inout PendingSaves) {
    guard !pending.changes.isEmpty else { return }
    defer { pending = PendingSaves(preparations: pending.batchPreparations) }
    guard persist(pending.changes, prepared: pending.preparations) else { return }
    guard !isReplaying, recorder != nil else { return }
    for change in pending.changes { emit(change) }
  }

  func insertSample(_ sample: HealthSample, position: Int64) {
    state.counter = max(state.counter, position)
    guard persist([.sampleSaved(sample, position: position)]) else { return }
    emit(.sampleSaved(sample, position: position))
  }

  func removeSample(_ uuid: UUID, position: Int64, date: Date) {
    let deleted: Bool
    if let known = olderSynced?.removeValue(forKey: uuid) {
      // An older sample not in the storage yet: loading them later leaves it out, and
      // its deleted-object record is added as a record, since there is nothing to delete.
      removedOlder.insert(known.position)
      if let key = syncKey(for: known.sample), olderSyncIndex[key] == uuid {
        olderSyncIndex[key] = nil
      }
      let record = DeletedObjectRecord(deleting: known.sample, at: date)
      deleted = attempt { try storage.append([.deletion(record, position: position)]) }
    } else if stored(uuid) != nil {
      deleted = persist([.sampleDeleted(uuid: uuid, position: position, date: date)])
    } else {
      return
    }
    state.counter = max(state.counter, position)
    guard deleted else { return }
    emit(.sampleDeleted(uuid: uuid, position: position, date: date))
  }

  /// Drops deleted-object records deleted before `cutoff` (all when nil); returns how many.
  func purge(before cutoff: Date?) -> Int {
    loadHistory()
    let before = deletedObjectCount()
    guard before > 0, persist([.deletedObjectsPurged(before: cutoff)]) else { return 0 }
    return before - deletedObjectCount()
  }

  /// Drops all but the newest `count` deleted-object records; returns how many.
  func trim(keeping count: Int) -> Int {
    loadHistory()
    let before = deletedObjectCount()
    guard before > max(count, 0), persist([.deletedObjectsTrimmed(keeping: count)]) else {
      return 0
    }
    return before - deletedObjectCount()
  }
}

/// The saves of a `write` not applied yet, and their UUIDs (which a new UUID must avoid,
/// since the storage does not have them yet) once asked to track them.
private struct PendingSaves {
  var changes: [HealthChange] = []
  /// The storage's preparations of the batch's samples (`write`'s `preparations`), empty
  /// when none was given.
  let batchPreparations: [(any StoragePreparation)?]
  /// The index in the batch of the first change's sample; the changes are the samples from
  /// it on, one after the other, while `inOrder` holds (an import's plain samples always
  /// are): their preparations are then a slice of the batch's, with no array built a save.
  private var firstSample = 0
  private var inOrder = true

  init(preparations: [(any StoragePreparation)?] = []) {
    batchPreparations = preparations
  }

  /// What the storage prepared of each change's sample (`HealthSampleStorage.apply(_:prepared:)`):
  /// none unless the changes are the batch's samples in order.
  var preparations: [(any StoragePreparation)?] {
    guard inOrder, !changes.isEmpty, firstSample + changes.count <= batchPreparations.count
    else { return [] }
    if firstSample == 0, changes.count == batchPreparations.count { return batchPreparations }
    return Array(batchPreparations[firstSample..<firstSample + changes.count])
  }
  /// The UUIDs of `changes`, kept only after `tracksUUIDs()`: a batch whose drawn UUIDs are
  /// known free (`write`) never asks, and hashed each UUID twice for nothing.
  private(set) var uuids: Set<UUID> = []
  private var isTracking = false

  /// Room for `count` saves: a batch of an import is 10,000, and growing the set rehashed
  /// every UUID in it at each doubling.
  mutating func reserveCapacity(_ count: Int) {
    changes.reserveCapacity(count)
  }

  /// From now on `uuids` holds the UUIDs of every pending save.
  mutating func tracksUUIDs() {
    guard !isTracking else { return }
    isTracking = true
    uuids.reserveCapacity(changes.capacity)
    for case .sampleSaved(let sample, _) in changes {
      if let uuid = sample.uuid { uuids.insert(uuid) }
    }
  }

  /// Adds the save of `sample` at `position`, made from the batch's sample at `index`.
  mutating func add(_ sample: HealthSample, position: Int64, sample index: Int) {
    if changes.isEmpty {
      firstSample = index
    } else if index != firstSample + changes.count {
      inOrder = false
    }
    changes.append(.sampleSaved(sample, position: position))
    if isTracking, let uuid = sample.uuid { uuids.insert(uuid) }
  }
}
