import Foundation
import HealthSim

extension UpdateFrequency {
  /// The word the language uses (`observe on hourly`).
  var word: String {
    switch self {
    case .immediate: "immediate"
    case .hourly: "hourly"
    case .daily: "daily"
    case .weekly: "weekly"
    }
  }

  init?(word: String) {
    switch word {
    case "immediate": self = .immediate
    case "hourly": self = .hourly
    case "daily": self = .daily
    case "weekly": self = .weekly
    default: return nil
    }
  }
}

extension Session {
  /// The simulated Health store with its whole history, loaded from the store the first
  /// time a command needs it.
  func health() throws(Diagnostic) -> HealthStore {
    let health = try recentHealth()
    if !health.isHistoryLoaded {
      // Read here, where a damaged table can be reported; Health then takes the rows read.
      do throws(StoreError) { _ = try store.rows(HealthRecordCodec.self) } catch {
        throw Self.diagnostic(for: error)
      }
      health.loadHistory()
    }
    try completeSyncIndexIfRead()
    return health
  }

  /// Whether the `health-sync` table holds every live sample with a sync identifier: it
  /// was kept since Health began, or rebuilt since Health's files were last edited outside
  /// weigh (opening a store forgets the index then).
  var isSyncIndexTrusted: Bool {
    store.documents[HealthLink.syncIndexDocument] == .bool(true)
  }

  /// A store from before the `health-sync` table was kept gets it once Health's whole
  /// history has been read for some other reason.
  func completeSyncIndexIfRead() throws(Diagnostic) {
    guard !isSyncIndexTrusted, let healthLink,
      healthLink.health.isHistoryLoaded, store.documents["health"] != nil
    else { return }
    do throws(StoreError) {
      healthLink.completeSyncIndex(indexed: try store.rows(HealthSyncIndexCodec.self))
    } catch {
      throw Self.diagnostic(for: error)
    }
  }

  /// The simulated Health store, perhaps without the records the app has already synced:
  /// for commands that read only what is new or add new samples, so that their cost does
  /// not grow with the history. Health reads the rest itself if it needs it after all.
  func recentHealth() throws(Diagnostic) -> HealthStore {
    if let healthLink { return healthLink.health }
    let state =
      store.documents["health"].flatMap {
        DocumentCoding.decode(HealthSmallState.self, from: $0)
      } ?? memoryHealthState
    // Everything up to the app's anchor stays on disk until needed.
    let through = state == nil ? 0 : max(0, min(app.anchor ?? 0, state!.counter))
    let records: [HealthRecord]
    var synced: [HealthRecord]?
    do throws(StoreError) {
      records =
        through > 0
        // checked: positions stay below 2^53; Int and Int64 have one width
        ? try store.rows(HealthRecordCodec.self, after: Int(through))
        : try store.rows(HealthRecordCodec.self)
      if through > 0, isSyncIndexTrusted {
        synced = try store.rows(HealthSyncIndexCodec.self)
      }
    } catch {
      throw Self.diagnostic(for: error)
    }
    // The store as it is when Health needs the older records: the REPL opens a new one
    // for every command.
    let link = HealthLink(
      records: records, state: state, seed: seed, clock: Date(seconds: now),
      olderThrough: through, olderSynced: synced,
      loadOlder: { [unowned self] () throws(StoreError) in
        try self.store.rows(HealthRecordCodec.self)
      })
    healthLink = link
    let health = link.health
    // The app registers its observer whenever it starts: before catching up, so that the
    // deliveries that fall due meanwhile reach it, as background launches would have.
    func registerAppObserver() {
      if let word = app.observing, let frequency = UpdateFrequency(word: word) {
        try? registerObserver(frequency)
      }
    }
    if virtualNow == nil, state != nil, !health.simulations.isEmpty {
      registerAppObserver()
      // A session reopened on the wall clock first catches up on what fell due meanwhile.
      let report = health.catchUp(until: Date(seconds: now), limit: Self.catchUpLimit)
      printEvents(report.events)
      if report.due > 0 {
        let skipped = report.skipped > 0 ? " (\(report.skipped) older ones skipped)" : ""
        emitLine(
          "caught up: \(report.written) readings from simulations while weigh was closed\(skipped)")
      }
    } else {
      if health.now < Date(seconds: now) { health.setClock(Date(seconds: now)) }
      registerAppObserver()
    }
    return health
  }

  /// How many readings a reopened session writes at most when it catches up.
  static let catchUpLimit = 1000

  /// Runs the Health events that fell due up to now, prints them, and commits what Health
  /// changed. Called after every command.
  func settleHealth() {
    guard let healthLink else { return }
    let events = healthLink.health.advance(to: Date(seconds: now))
    printEvents(events)
    do throws(Diagnostic) { try completeSyncIndexIfRead() } catch { report(error) }
    if healthLink.hasPending {
      do throws(Diagnostic) { try commit([], undo: nil) } catch { fail(error) }
    }
  }

  /// One timestamped line per Health event.
  func printEvents(_ events: [HealthEvent]) {
    for event in events {
      let time = zone.secondText(Instant.seconds(of: event.date))
      switch event.kind {
      case .sampleWritten(let simulation, let sample):
        emitLine("\(time) \(simulation) wrote \(describe(sample))")
      case .writeFailed(let simulation, let error):
        emitLine("\(time) \(simulation) could not write: \(Self.describe(error))")
      case .simulationStopped(let simulation, let type, let value):
        let measure: Measure = type == .bodyMass ? .mass : type == .bloodGlucose ? .glucose : .steps
        emitLine(
          "\(time) \(simulation) stopped: its next reading would be \(DisplayUnit.formatNumber(value, decimals: 2)) \(measure.unit), and \(measure.noun) must be \(measure.rangeText)"
        )
      case .delivered(_, let number, let reason, let completed):
        let note = handlerNotes.isEmpty ? "" : ": " + handlerNotes.removeFirst()
        emitLine(
          "\(time) delivery #\(number) (\(reason.rawValue))\(note)"
            + (completed ? "" : "; completion not called"))
      case .deliveryLost:
        emitLine("\(time) wake lost: no observer query registered")
      case .retryScheduled(_, let at, let failures):
        let retryTime = zone.secondText(Instant.seconds(of: at))
        emitLine(
          "\(time) retry scheduled at \(retryTime) after \(failures) failed \(failures == 1 ? "delivery" : "deliveries")"
        )
      case .backgroundDeliveryStopped(_, let failures):
        emitLine("\(time) background delivery stopped after \(failures) failed deliveries")
      }
    }
  }

  /// `70.2 kg Withings`, `105 mg/dL CGM`, `8000 steps Phone`.
  func describe(_ sample: HealthSample) -> String {
    "\(describeValue(sample)) \(TerminalText.field(sample.source?.name ?? "unknown source"))"
  }

  func describeValue(_ sample: HealthSample) -> String {
    switch sample.type {
    case .bodyMass: format(sample.value)
    case .bloodGlucose: "\(DisplayUnit.formatNumber(sample.value, decimals: 0)) mg/dL"
    case .stepCount: "\(DisplayUnit.formatNumber(sample.value, decimals: 0)) steps"
    case .activeEnergyBurned: "\(DisplayUnit.formatNumber(sample.value, decimals: 0)) kcal"
    case .appleExerciseTime: "\(DisplayUnit.formatNumber(sample.value, decimals: 0)) min exercise"
    case .workout:
      "\(sample.workout.map { $0.activityType.rawValue } ?? "workout") \(DisplayUnit.formatNumber(sample.value, decimals: 1)) min"
    case .height: "\(DisplayUnit.formatNumber(sample.value, decimals: 2)) m height"
    case .bodyMassIndex: "BMI \(DisplayUnit.formatNumber(sample.value, decimals: 1))"
    case .bodyFatPercentage:
      "\(DisplayUnit.formatNumber(sample.value * 100, decimals: 1)) % body fat"
    case .leanBodyMass: "\(format(sample.value)) lean body mass"
    case .basalEnergyBurned: "\(DisplayUnit.formatNumber(sample.value, decimals: 0)) kcal basal"
    case .distanceWalkingRunning:
      "\(DisplayUnit.formatNumber(sample.value / 1000, decimals: 2)) km walking and running"
    case .heartRate: "\(DisplayUnit.formatNumber(sample.value, decimals: 0)) count/min heart rate"
    case .bloodPressureSystolic:
      "\(DisplayUnit.formatNumber(sample.value, decimals: 0)) mmHg systolic"
    case .bloodPressureDiastolic:
      "\(DisplayUnit.formatNumber(sample.value, decimals: 0)) mmHg diastolic"
    case .bloodPressure: "blood pressure \(bloodPressureText(sample.objects ?? []))"
    }
  }

  /// `120/80 mmHg` from a correlation's objects; a missing value shows as `?`.
  private func bloodPressureText(_ objects: [HealthSample]) -> String {
    func value(_ type: SampleType) -> String {
      objects.first { $0.type == type }.map { DisplayUnit.formatNumber($0.value, decimals: 0) }
        ?? "?"
    }
    return "\(value(.bloodPressureSystolic))/\(value(.bloodPressureDiastolic)) mmHg"
  }

  /// A Health error as the app sees it: `authorization denied (code 4)`.
  static func describe(_ error: HealthError) -> String {
    "\(error.message) (code \(error.code.rawValue), \(error.code))"
  }

  /// A Health error as a command's failure.
  static func healthFailure(_ error: HealthError, doing what: String) -> Diagnostic {
    Diagnostic("Health refused to \(what): \(describe(error))")
  }

  // MARK: The app's observer

  /// Runs the observer query for body mass and enables background delivery.
  func registerObserver(_ frequency: UpdateFrequency) throws(Diagnostic) {
    let health = try recentHealth()
    let query = ObserverQuery(sampleType: .bodyMass) { [unowned self] _, completion, error in
      var note: String
      if let error {
        note = "observer error: \(Self.describe(error))"
      } else if !self.app.syncOnLaunch {
        note = "sync is off"
      } else {
        do throws(Diagnostic) {
          note = "sync " + (try self.runSync(fromScratch: false))
        } catch {
          note = "sync failed: \(error.message)"
        }
      }
      self.handlerNotes.append(note)
      if self.skipCompletions > 0 {
        self.skipCompletions -= 1
        return
      }
      completion()
    }
    // Background delivery first: when Health refuses it, nothing has changed yet, and the
    // query that was running keeps running.
    do throws(HealthError) {
      try health.enableBackgroundDelivery(for: .bodyMass, frequency: frequency)
      try health.execute(query)
    } catch {
      health.stop(query)
      throw Self.healthFailure(error, doing: "register the observer")
    }
    if let observerQuery { health.stop(observerQuery) }
    observerQuery = query
  }

  // MARK: The app's sync

  /// The anchored import from Health (HEALTHKIT.md "The app's sync"); one transaction.
  func runSync(fromScratch: Bool) throws(Diagnostic) -> String {
    var health = try recentHealth()
    let from = fromScratch ? 0 : app.anchor ?? 0
    if from < health.unloadedThrough { health = try self.health() }
    if failSyncs > 0 {
      failSyncs -= 1
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
    changes.append(.setDocument(name: "app", value: newApp.json))
    undo.append(.setDocument(name: "app", value: oldApp.json))
    try commit(changes, undo: UndoStep(description: "sync", changes: undo))
    return "imported \(imported), removed \(removed), skipped \(skipped) (anchor \(newApp.anchor!))"
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
          && (app.dedup == "fuzzy" || position.rawValue <= linkedThrough)
      }
    }
    let original = readsLog ? try entries() : []
    if readsLog, healthIndex == nil { healthIndex = HealthUUIDIndex(original) }
    let index = readsLog ? healthIndex! : HealthUUIDIndex([])
    // Entries this sync changes (nil: removed), over the untouched log.
    var overlay: [Int: Entry?] = [:]
    var linked: [String: Int?] = [:]
    func entry(_ id: Int) -> Entry? {
      if let changed = overlay[id] { return changed }
      return Self.find(id, in: original)
    }
    func owner(of uuid: String) -> Int? {
      if let changed = linked[uuid] { return changed }
      return index.entryByUUID[uuid]
    }
    var nextID = nextEntryID
    var (imported, removed, skipped) = (0, 0, 0)
    let tolerance = 0.1 * MassUnit.lb.kilograms
    for change in found {
      switch change {
      case .added(let sample, _):
        let uuid = sample.uuid!.uuidString
        let instant = sample.startInstant
        if sample.source?.bundleIdentifier == HealthLink.app.source.bundleIdentifier
          || owner(of: uuid) != nil
        {
          skipped += 1
          continue
        }
        if app.dedup == "fuzzy",
          let match = (original.map(\.id) + overlay.keys).compactMap(entry).filter({
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
    var changes: [StoreChange] = []
    var undo: [StoreChange] = []
    for id in overlay.keys.sorted() {
      let before = Self.find(id, in: original)
      if let after = overlay[id]! {
        changes.append(.putEntry(after))
        undo.append(before.map(StoreChange.putEntry) ?? .removeEntry(id: id))
      } else if let before {
        changes.append(.removeEntry(id: id))
        undo.append(.putEntry(before))
      }
    }
    return (changes, undo, imported, removed, skipped)
  }

  /// Samples per page of the anchored query.
  static let syncPage = 500

  /// `sync push`: writes manual entries Health lacks or has an older revision of, and
  /// deletes the samples of deleted pushed entries.
  func push() throws(Diagnostic) -> String {
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
  ) throws(Diagnostic) -> String {
    // Health reads older samples itself if a sync identifier or a deletion needs them.
    let health = try recentHealth()
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
    changes.append(.setDocument(name: "app", value: newApp.json))
    try commit(changes, undo: nil)
    return "pushed \(added) new, \(updated) updated, \(deletions.count) deleted"
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
    let result = try push(pending, deleting: deletions) { error, deleting in
      Diagnostic(
        deleting
          ? "\(done), but Health refused to delete its sample: \(Self.describe(error)); the sample is deleted at the next sync push"
          : "\(done), but Health refused to save it: \(Self.describe(error)); the entry is kept and waits for sync push"
      )
    }
    return .message("autopush: " + result)
  }

  /// Writes the `app` document.
  func saveApp(_ document: AppDocument) throws(Diagnostic) {
    try commit([.setDocument(name: "app", value: document.json)], undo: nil)
  }
}

extension Date {
  /// The instant `seconds` after 1970-01-01T00:00:00Z.
  init(seconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(seconds)) }
}
