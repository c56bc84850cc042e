import Foundation

extension HealthStore {
  /// Keeps the app's save for the unlock (docs/healthsim.md, "Resolved ambiguities": a save while locked succeeds, and
  /// its samples take their change positions, and wake observers, at unlock).
  ///
  /// The batch is checked now, as any save is, and its samples get their UUIDs, writer
  /// and creation date now; observers of their types have changes pending, delivered
  /// after the unlock. Saving again an object already saved or kept changes nothing.
  func keepForUnlock(_ batch: [HealthSample]) throws(HealthError) -> [HealthSample] {
    if batch.contains(where: { $0.uuid != nil || $0.objects != nil }) { loadHistory() }
    let samples = batch.filter { !isAlreadySaved($0) && !isKeptForUnlock($0) }
    try validate(samples)
    let kept = Set(keptUUIDs())
    for sample in samples {
      for uuid in ([sample] + (sample.objects ?? [])).compactMap(\.uuid)
      where kept.contains(uuid) {
        throw HealthError(
          .errorInvalidArgument,
          "a sample with uuid \(uuid.uuidString) already exists; save a new sample with a new uuid")
      }
    }
    let stored = samples.map { sample in
      let objects = sample.objects?.map { object in
        if let uuid = object.uuid, isAlreadySaved(object), let live = self.sample(with: uuid) {
          return live
        }
        return object.saved(uuid: object.uuid ?? freshUUID(), revision: state.app, at: now)
      }
      return sample.saved(
        uuid: sample.uuid ?? freshUUID(), revision: state.app, at: now, objects: objects)
    }
    guard !stored.isEmpty else { return [] }
    state.lockedSaves =
      (state.lockedSaves ?? []) + [
        LockedSave(samples: stored, revision: state.app, date: now)
      ]
    let types = stored.flatMap { [$0.type] + ($0.objects ?? []).map(\.type) }
    for type in Set(types).sorted() { noteChange(type) }
    return stored
  }

  /// Writes the saves kept while the device was locked into the store, in the order the
  /// app made them: each sample takes its change position now. Observers already have
  /// these changes pending (since the save), so they are not noted again. A kept batch
  /// the store can no longer take (a stale sync version under `staleSyncVersion = .fail`,
  /// or a UUID another source used meanwhile) is dropped, as a device drops what it
  /// cannot merge.
  ///
  /// `unlockDevice` calls this before it schedules the deliveries; every read and write
  /// after an unlock calls it too, so nothing waits longer than the first access.
  func mergeSavesMadeWhileLocked() {
    guard !isReplaying, let kept = state.lockedSaves else { return }
    state.lockedSaves = nil
    isMergingLockedSaves = true
    defer { isMergingLockedSaves = false }
    for save in kept {
      _ = try? write(save.samples, revision: save.revision, createdAt: save.date)
    }
    commitState()
  }

  /// Merges the kept saves when the device is unlocked (see `mergeSavesMadeWhileLocked`).
  func mergeSavesIfUnlocked() {
    guard state.lockedSaves != nil, !state.device.isLocked else { return }
    mergeSavesMadeWhileLocked()
  }

  /// Whether `sample` is kept for the unlock as it is (the same UUID and content).
  func isKeptForUnlock(_ sample: HealthSample) -> Bool {
    guard let uuid = sample.uuid, let kept = state.lockedSaves else { return false }
    return kept.contains { save in
      save.samples.contains { $0.uuid == uuid && $0.hasSameContent(as: sample) }
    }
  }

  /// The UUIDs of the kept samples and their objects.
  func keptUUIDs() -> [UUID] {
    (state.lockedSaves ?? []).flatMap(\.samples).flatMap { [$0] + ($0.objects ?? []) }
      .compactMap(\.uuid)
  }
}
