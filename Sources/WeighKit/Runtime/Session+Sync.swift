import Foundation
import HealthSim

/// The app's sync with Health: the anchored import (planned by ``SyncPlan``), `sync push`
/// and autopush.
extension Session {
  /// The anchored import from Health (docs/language.md, "Commands"); one transaction.
  func runSync(fromScratch: Bool) throws(Diagnostic) -> SyncReport {
    var health = try health()
    let from = fromScratch ? 0 : app.anchor ?? 0
    if from < health.unloadedThrough { health = try self.health() }
    if observer.faults.failSyncs > 0 {
      observer.faults.failSyncs -= 1
      throw Diagnostic(
        "sync failed (fault sync fail): nothing was imported and the anchor stays at \(app.anchor ?? 0)"
      )
    }
    var anchor = fromScratch ? nil : app.anchor.map(QueryAnchor.init(fromValue:))
    // The log is read inside a function of its own so that no reference to the table is
    // alive at the commit: one would make the store copy the whole table to change it.
    let found = try syncChanges(health, anchor: &anchor)
    var (changes, undo) = (found.changes, found.undo)
    let (imported, removed, skipped) = (found.imported, found.removed, found.skipped)
    let oldApp = app
    var newApp = app
    newApp.anchor = anchor?.rawValue ?? 0
    // Whatever the app has seen so far was saved at or before Health's latest position.
    if newApp.linkedThrough != AppDocument.linksAnywhere {
      newApp.linkedThrough = health.latestAnchor.rawValue
    }
    // Health's clock: during `advance` it is the time of the delivery that runs this sync.
    newApp.lastSync = Instant.seconds(of: health.now)
    newApp.syncCount += 1
    changes.append(.set(.app, to: newApp.json))
    undo.append(.set(.app, to: oldApp.json))
    try commit(changes, undo: UndoStep(description: "sync", changes: undo))
    return SyncReport(
      imported: imported, removed: removed, skipped: skipped, anchor: newApp.anchor ?? 0)
  }

  /// What a sync changes in the log, from `anchor` on; advances `anchor`.
  private func syncChanges(_ health: HealthStore, anchor: inout QueryAnchor?) throws(Diagnostic)
    -> (changes: [StoreChange], undo: [StoreChange], imported: Int, removed: Int, skipped: Int)
  {
    // Health's changes first: whether the log must be read at all depends on them.
    var found: [AnchoredChange] = []
    while true {
      let result: AnchoredQueryResult
      do throws(HealthError) {
        result = try health.anchoredResult(type: .bodyMass, anchor: anchor, limit: Self.syncPage)
      } catch {
        throw Self.healthFailure(error, doing: "answer the anchored query")
      }
      found += result.changes
      anchor = result.newAnchor
      if result.changes.count < Self.syncPage { break }
    }
    let ownBundle = HealthLink.app.source.bundleIdentifier
    let linkedThrough = app.linkedThrough ?? AppDocument.linksAnywhere
    // A deletion names a sample an entry may link; so may a sample saved before
    // `linkedThrough`; fuzzy matching compares with every entry. Otherwise the new samples
    // are only added, and the log is not read: the sync costs what changed.
    let readsLog = found.contains { change in
      switch change {
      case .deleted: return true
      case .added(let sample, let position):
        return sample.source?.bundleIdentifier != ownBundle
          && (app.dedup == .fuzzy || position.rawValue <= linkedThrough)
      }
    }
    let original = readsLog ? try entries() : []
    if readsLog, healthIndex == nil { healthIndex = HealthUUIDIndex(original) }
    let index = readsLog ? healthIndex! : HealthUUIDIndex([])
    let plan = try SyncPlan(
      changes: found, log: original, index: index, dedup: app.dedup, nextID: nextEntryID)
    return (plan.changes, plan.undo, plan.imported, plan.removed, plan.skipped)
  }

  /// Samples per page of the anchored query.
  static let syncPage = 500

  /// `sync push`: writes manual entries Health lacks or has an older revision of, and
  /// deletes the samples of deleted pushed entries.
  func push() throws(Diagnostic) -> PushReport {
    let pending = try entries().filter(\.waitsForPush)
    return try push(pending, deleting: app.pendingDeletes) { error, deleting in
      Self.healthFailure(
        error, doing: deleting ? "delete the samples of deleted entries" : "save the entries")
    }
  }

  /// Writes `pending` (manual entries waiting for a push) to Health, and deletes the
  /// samples with the UUIDs in `deletions` (from `app.pendingDeletes`). `refused` makes the
  /// error when Health refuses to save (false) or to delete (true); nothing is committed then.
  private func push(
    _ pending: [Entry], deleting deletions: [String],
    refused: (HealthError, _ deleting: Bool) -> Diagnostic
  ) throws(Diagnostic) -> PushReport {
    // Health reads older samples itself if a sync identifier or a deletion needs them.
    let health = try health()
    let samples = pending.map { entry in
      HealthSample(
        type: .bodyMass, value: entry.kilograms,
        start: Date(seconds: entry.instant),
        metadata: [
          MetadataKey.wasUserEntered: .number(1),
          MetadataKey.syncIdentifier: .string("weigh-\(entry.id)"),
          MetadataKey.syncVersion: .number(Double(entry.revision)),
        ])
    }
    var saved: [HealthSample] = []
    if !samples.isEmpty {
      do throws(HealthError) { saved = try health.save(samples) } catch {
        throw refused(error, false)
      }
    }
    var toDelete: [HealthSample] = []
    for uuid in deletions {
      if let id = UUID(uuidString: uuid), let sample = health.sample(with: id) {
        toDelete.append(sample)
      }
    }
    if !toDelete.isEmpty {
      do throws(HealthError) { try health.delete(toDelete) } catch {
        throw refused(error, true)
      }
    }
    var changes: [StoreChange] = []
    var (added, updated) = (0, 0)
    for (entry, sample) in zip(pending, saved) {
      if entry.pushedUUID == nil { added += 1 } else { updated += 1 }
      var pushed = entry
      pushed.pushedUUID = sample.uuid?.uuidString
      pushed.pushedRevision = entry.revision
      changes.append(.putEntry(pushed))
    }
    var newApp = app
    newApp.pendingDeletes.removeAll { deletions.contains($0) }
    changes.append(.set(.app, to: newApp.json))
    try commit(changes, undo: nil)
    return PushReport(added: added, updated: updated, deleted: deletions.count)
  }

  /// After `log`, `edit`, `delete` or `undo` with `set autopush on`: writes `entry` to
  /// Health (as it is now, or its deletion), and nothing else that waits.
  ///
  /// When Health refuses (write not authorized, data unavailable), the command fails with
  /// an error that starts with `done` (`logged #3`): its own change stays committed, and
  /// the entry, or its sample's deletion, waits for `sync push`.
  func autopushIfOn(_ entry: Entry, deleted: Bool = false, done: String) throws(Diagnostic)
    -> ResultItem?
  {
    guard app.autopush else { return nil }
    let pending = !deleted && entry.waitsForPush ? [entry] : []
    let deletions = deleted ? entry.pushedUUID.map { [$0] } ?? [] : []
    guard !pending.isEmpty || !deletions.isEmpty else { return nil }
    var report = try push(pending, deleting: deletions) { error, deleting in
      Diagnostic(
        deleting
          ? "\(done), but Health refused to delete its sample: \(Self.describe(error)); the sample is deleted at the next sync push"
          : "\(done), but Health refused to save it: \(Self.describe(error)); the entry is kept and waits for sync push"
      )
    }
    report.trigger = .autopush
    return .push(report)
  }

  /// Writes the `app` document.
  func saveApp(_ document: AppDocument) throws(Diagnostic) {
    try commit([.set(.app, to: document.json)], undo: nil)
  }
}
