import HealthSim

/// What one sync does to the app's log (docs/language.md, "Commands"), worked out from
/// Health's anchored changes and the log as it is, without touching either: the session
/// commits `changes` (and keeps `undo` to revert them).
struct SyncPlan {
  /// The entries to put or remove, by entry number.
  private(set) var changes: [StoreChange] = []
  /// What reverts `changes`.
  private(set) var undo: [StoreChange] = []
  private(set) var imported = 0
  private(set) var removed = 0
  private(set) var skipped = 0

  /// Plans the sync of `found` (in Health's order) into `log` (ordered by number), whose
  /// Health links `index` holds; new entries are numbered from `nextID`. With `dedup`
  /// `fuzzy`, a sample also matches an unlinked entry within a minute and 0.1 lb.
  ///
  /// Samples the app wrote itself, or that an entry links already, are skipped; a deleted
  /// sample removes the entry it came from, and only unlinks a manual entry.
  init(
    changes found: [AnchoredChange], log: [Entry], index: HealthUUIDIndex, dedup: DedupMode,
    nextID firstID: Int
  ) throws(Diagnostic) {
    // Entries this sync changes (nil: removed), over the untouched log.
    var overlay: [Int: Entry?] = [:]
    var linked: [String: Int?] = [:]
    func entry(_ id: Int) -> Entry? {
      if let changed = overlay[id] { return changed }
      return Session.find(id, in: log)
    }
    func owner(of uuid: String) -> Int? {
      if let changed = linked[uuid] { return changed }
      return index.entryByUUID[uuid]
    }
    var nextID = firstID
    let ownBundle = HealthLink.app.source.bundleIdentifier
    let tolerance = 0.1 * MassUnit.lb.kilograms
    for change in found {
      switch change {
      case .added(let sample, _):
        guard let uuid = sample.uuid?.uuidString,
          sample.source?.bundleIdentifier != ownBundle, owner(of: uuid) == nil
        else {
          skipped += 1
          continue
        }
        let instant = sample.startInstant
        if dedup == .fuzzy,
          let match = (log.map(\.id) + overlay.keys).compactMap(entry).filter({
            $0.healthUUID == nil && abs($0.instant - instant) <= 60
              && abs($0.kilograms - sample.value) <= tolerance + 1e-9
          }).min(by: { $0.id < $1.id })
        {
          var updated = match
          updated.healthUUID = uuid
          overlay[match.id] = updated
          linked[uuid] = match.id
          skipped += 1
          continue
        }
        guard Entry.isValidNumber(nextID) else {
          throw Diagnostic(
            "the log has used every entry number up to \(ValueLimits.entryNumber.upperBound); nothing was synced"
          )
        }
        overlay[nextID] = Entry(
          id: nextID, instant: instant, kilograms: sample.value, origin: .health,
          source: sample.source?.name ?? "Health", healthUUID: uuid)
        linked[uuid] = nextID
        nextID += 1
        imported += 1
      case .deleted(let object, _):
        let uuid = object.uuid.uuidString
        guard let id = owner(of: uuid), let current = entry(id) else { continue }
        linked[uuid] = .some(nil)
        if current.origin == .health {
          overlay[id] = .some(nil)
          removed += 1
        } else {
          // Sync never removes a manual entry; it only forgets the link.
          var unlinked = current
          unlinked.healthUUID = nil
          overlay[id] = unlinked
        }
      }
    }
    for (id, after) in overlay.sorted(by: { $0.key < $1.key }) {
      let before = Session.find(id, in: log)
      if let after {
        changes.append(.putEntry(after))
        undo.append(before.map(StoreChange.putEntry) ?? .removeEntry(id: id))
      } else if let before {
        changes.append(.removeEntry(id: id))
        undo.append(.putEntry(before))
      }
    }
  }
}
