import Foundation
import HealthSim

/// One run of the interpreter: the app's state, the clock, and where output goes.
///
/// The REPL and the script runner both drive a session; it never touches the terminal.
public final class Session {
  public let options: SessionOptions
  /// The open store. In the REPL it is closed between commands (see `releaseStore`), and a
  /// new one is opened for each command.
  var store: Store
  /// While `store` is closed until the next command (the REPL between commands): what the
  /// session knew of it.
  var released: ReleasedStore?
  /// Whether `store` is closed until the next command.
  var isStoreReleased: Bool { released != nil }
  let sink: OutputSink
  var renderer: DiagnosticRenderer

  var settings: Settings
  var app: AppDocument
  /// The clock and the time zone.
  var clock: SessionClock
  var seed: UInt64
  /// The unit and the output format chosen for this session.
  var display: DisplayChoices

  /// The results `expect` reads.
  var memory = ResultMemory()
  /// While a command runs: what the session itself produced meanwhile (Health's events),
  /// shown with the command's result. Nil between commands, when it is shown at once.
  var collected: CommandResult?
  /// What `undo` can revert.
  var undo = UndoHistory()
  /// The script runner's state: the scripts being run, a `repeat` block's budget.
  var script = ScriptState()
  /// The simulated Health store, once a command needed it.
  var healthLink: HealthLink?
  /// Where Health's samples and small state are kept, and what commits or undoes a
  /// command's Health writes.
  var persistence = HealthPersistence()
  /// Whether the store holds a Health (a state in its storage, or the memory store's).
  var hasStoredHealth: Bool {
    persistence.memoryState != nil || persistence.unwrittenState != nil
      || (try? storedHealthState()).flatMap { $0 } != nil
  }
  /// Entry numbers by the Health UUID they hold, once a sync needed it; kept up to date
  /// by `commit`, so an incremental sync costs what changed, not the whole log.
  var healthIndex: HealthUUIDIndex?
  /// The last `import … types …`: the most samples it held at once, and its batches.
  var lastHealthImport: (mostHeld: Int, batches: Int)?
  /// The page cache the last `import … types …` set for health.sqlite, in MiB; nil when it
  /// left SQLite's default (no batch with new samples, or none saved to a file yet).
  var lastHealthImportPageCache: Int?
  /// The app's observer: its query, the faults still to happen, the handler's notes.
  var observer = AppObserver()
  var warnedAboutCompaction = false
  /// Whether `quit` was asked for, and the failures so far.
  var outcome = RunOutcome()

  /// Opens the store and reads the settings.
  public init(options: SessionOptions, output: OutputSink) throws(Diagnostic) {
    self.options = options
    self.sink = output
    let renderer = DiagnosticRenderer(color: options.color)
    self.renderer = renderer
    // The REPL says so when it has to wait for another process at start, too.
    let waiting: ((StoreError) -> Void)? =
      options.interactive
      ? { busy in
        output.write(
          renderer.render(Self.busyNotice(busy, timeout: options.lockTimeout)),
          to: .standardError)
        output.flush()
      } : nil
    store = try Self.openStore(options.store, lockTimeout: options.lockTimeout, waiting: waiting)
    do throws(DocumentProblem) {
      // The store checked both when it read them (`StoreDocuments`).
      settings = try Settings(document: store.document(.settings))
      app = try AppDocument(document: store.document(.app))
    } catch {
      throw Diagnostic("cannot read the store: \(error)", kind: .unreadableStore)
    }
    clock = SessionClock(
      virtualNow: options.clock, zoneName: options.timeZone ?? settings.timeZone)
    seed = options.seed
    display = DisplayChoices(unitOverride: options.unit, format: options.format)
    if let words = options.clockWords {
      virtualNow = try InstantParser.parse(
        words, clock: zone, now: Instant.seconds(of: Date()), shownAs: "--clock")
    }
    reportRecovery()
    try openHealthStorage()
    loadLiveHealth()
  }

  /// Says once what opening the store recovered from (a torn last record moved aside).
  func reportRecovery() {
    for warning in store.recoveryWarnings { warn(Diagnostic(warning, severity: .warning)) }
  }

  /// Opens the store at `location` with the tables the session uses, waiting up to
  /// `lockTimeout` seconds for another process's lock; `waiting` hears when the lock is
  /// busy at first and the wait goes on.
  static func openStore(
    _ location: StoreLocation, lockTimeout: Double, waiting: ((StoreError) -> Void)? = nil
  ) throws(Diagnostic) -> Store {
    let tables = storeTables
    let total = Duration.seconds(min(max(0, lockTimeout), 3600))
    do throws(StoreError) {
      let store: Store
      if let waiting, total > lockNoticeDelay {
        do throws(StoreError) {
          store = try Store.open(location, tables: tables, lockTimeout: lockNoticeDelay)
        } catch {
          guard error.kind == .locked else { throw error }
          waiting(error)
          store = try Store.open(location, tables: tables, lockTimeout: total - lockNoticeDelay)
        }
      } else {
        store = try Store.open(location, tables: tables, lockTimeout: total)
      }
      return store
    } catch {
      throw Self.diagnostic(for: error)
    }
  }

  /// The tables beyond `entries`: Health's, which only stores from before `health.sqlite`
  /// hold (read once, by the migration).
  static let storeTables: [any StoreTableCodec.Type] = [
    HealthRecordCodec.self, HealthSyncIndexCodec.self,
  ]

  /// How long the REPL waits for a busy store before it says that it waits.
  static let lockNoticeDelay = Duration.milliseconds(500)

  /// With simulations or an observer, Health has events of its own: loads it now, so that a
  /// session (re)opened on the wall clock catches up before its first command.
  func loadLiveHealth() {
    guard healthLink == nil else { return }
    // A Health that cannot be read is said now, once: nothing can catch up without it.
    do throws(Diagnostic) {
      let live = app.observing != nil ? true : try healthRunsSimulations()
      guard live else { return }
      _ = try health()
    } catch {
      fail(error)
      return
    }
    // What catching up wrote is committed now, not with the next command: a command that
    // fails must not take it along.
    if healthLink?.hasPending == true {
      do throws(Diagnostic) { try commit([], undo: nil) } catch { fail(error) }
    }
  }

  /// Whether Health runs simulations: the app store's `health-simulations` document says so
  /// without opening `health.sqlite`; a store without it (written by an earlier weigh) is
  /// asked Health's small state, and a state that cannot be read is the error.
  func healthRunsSimulations() throws(Diagnostic) -> Bool {
    if options.store != .memory, case .bool(let running)? = store.document(.healthSimulations) {
      return running
    }
    let state: HealthSmallState?
    do throws(StoreError) { state = try storedHealthState() } catch {
      throw Self.diagnostic(for: error)
    }
    let running = state.map { !$0.simulations.isEmpty } ?? false
    if options.store != .memory, persistence.storage != nil, store.isWritable, !store.isBatching {
      // Said in the app's store from now on, so that later sessions need not ask Health. Only
      // a shortcut: when it cannot be written, the next session asks Health again.
      try? store.commit([.set(.healthSimulations, to: .bool(running))])
    }
    return running
  }

  /// Releases the store.
  public func close() {
    closeHealthStorage()
    store.close()
    released = nil
  }

  // MARK: Clock, zone, unit

  // Commands read these by their short names: they stay grammar, validation and effect.

  /// The current instant: the virtual clock when set, else the wall clock.
  var now: Int64 { clock.now }
  /// The virtual clock, once set (`--clock`, `advance`).
  var virtualNow: Int64? {
    get { clock.virtualNow }
    set { clock.virtualNow = newValue }
  }
  /// The session's time zone.
  var zone: ZonedClock { clock.zone }
  /// The time zone's name as the user wrote it.
  var zoneName: String { clock.zoneName }

  /// `--unit` or `set unit`, when it replaces the store's setting.
  var unitOverride: DisplayUnit? {
    get { display.unitOverride }
    set { display.unitOverride = newValue }
  }
  /// How results are shown: `--format`, until `set format`.
  var format: OutputFormat {
    get { display.format }
    set { display.format = newValue }
  }

  /// The display unit of this session.
  var unit: DisplayUnit { unitOverride ?? settings.unit }

  /// Re-reads the time zone after `set tz`.
  func useTimeZone(_ identifier: String) { clock.useTimeZone(identifier) }

  // MARK: Outcome

  /// Set by `quit`.
  public internal(set) var quitRequested: Bool {
    get { outcome.quitRequested }
    set { outcome.quitRequested = newValue }
  }
  /// The worst failure so far, which decides the exit status.
  public var failure: FailureKind? { outcome.failure }
  /// How many commands failed.
  public var failureCount: Int { outcome.failureCount }

  /// `68.5 kg` in the display unit.
  func format(_ kilograms: Double) -> String { unit.format(kilograms: kilograms) }

  // MARK: Output

  /// The unit and zone results are shown in.
  var renderContext: RenderContext { RenderContext(unit: unit, zone: zone, format: format) }

  /// Adds `item` to the running command's result; between commands, shows it at once.
  func emit(_ item: ResultItem) {
    if collected != nil {
      collected?.append(item)
    } else {
      show(CommandResult(item))
    }
  }

  /// Adds a line of prose to the running command's result (see ``emit(_:)``).
  func emitLine(_ text: String) { emit(.message(text)) }

  /// Adds `warning` to the running command's warnings; between commands, reports it at once.
  func warn(_ warning: Diagnostic) {
    if collected != nil {
      collected?.warn(warning)
    } else {
      report(warning)
    }
  }

  /// Shows `result`: its items on stdout, then its warnings on stderr, in order.
  func show(_ result: CommandResult, in context: RenderContext? = nil) {
    ResultRenderer.forEachLine(of: result, in: context ?? renderContext) { line in
      sink.write(line + "\n", to: .standardOutput)
    }
    for warning in result.warnings { report(warning) }
  }

  /// Prints a diagnostic to stderr.
  func report(_ diagnostic: Diagnostic) {
    var renderer = renderer
    if diagnostic.span?.line != script.interactiveLine || diagnostic.span?.file != "<stdin>" {
      renderer.interactivePromptWidth = nil
    }
    sink.write(renderer.render(diagnostic), to: .standardError)
  }

  /// A parse context for a line of `file`.
  func context(file: String, line: Int, text: String) -> ParseContext {
    ParseContext(file: file, line: line, text: text, clock: zone, now: now, unit: unit)
  }

  // MARK: Data

  /// The app's entries, ordered by number.
  func entries() throws(Diagnostic) -> [Entry] {
    do throws(StoreError) { return try store.entries() } catch {
      throw Self.diagnostic(for: error)
    }
  }

  /// The number the next new entry gets; numbers are never reused.
  var nextEntryID: Int { store.nextID() }

  /// A store problem as a diagnostic: unreadable stores exit 65, a busy one 1.
  static func diagnostic(for error: StoreError) -> Diagnostic {
    switch error.kind {
    case .corrupt, .newerFormat:
      // Most store messages already name the fix; say only what they leave out.
      let text = error.message
      let unchanged = text.contains("nothing was changed") ? "" : "; nothing was changed"
      let report = text.contains("weigh check") ? "" : ". Run weigh check for a full report"
      return error.diagnostic(message: "cannot read the store: \(text)\(unchanged)\(report)")
    case .locked, .io, .invalidChange:
      return error.diagnostic()
    }
  }

  /// A store write that failed, as the command's failure.
  static func writeFailure(_ error: StoreError) -> Diagnostic {
    if error.kind == .corrupt || error.kind == .newerFormat { return diagnostic(for: error) }
    return error.diagnostic(
      message: "could not write the store, so nothing changed: \(error.message)")
  }

  /// Commits `changes` durably as one transaction, with what Health changed; `undo`
  /// reverts them.
  func commit(_ changes: [StoreChange], undo: UndoStep?) throws(Diagnostic) {
    if let failure = healthLink?.failure {
      // Health answered without its storage: keep the store as it is.
      dropHealth()
      throw Self.writeFailure(failure)
    }
    if options.store != .memory, !store.isBatching, healthLink?.hasPending == true,
      store.beginBatch()
    {
      // Health's changes and the app's are one transaction (docs/store.md). A store that
      // cannot gather them (closed after a failed write) goes on below, and refuses.
      do throws(Diagnostic) { try commit(changes, undo: undo) } catch {
        try? endCommandTransaction()
        throw error
      }
      try endCommandTransaction()
      return
    }
    do throws(StoreError) {
      try store.commit(changes)
      try acceptHealthWrites()
    } catch {
      // Health wrote what the app did not keep: undone, and its store read again.
      dropHealth()
      throw Self.writeFailure(error)
    }
    for change in changes {
      guard case .setDocument(let name, let value) = change else { continue }
      if name == DocumentName.settings.rawValue { settings = Settings(json: value) }
      if name == DocumentName.app.rawValue { app = AppDocument(json: value) }
    }
    if let step = undo { self.undo.record(step) }
    healthIndex?.apply(changes)
    // The commit itself is durable; a failed compaction only means the journal keeps
    // growing, which the user should hear about once.
    if let problem = store.lastCompactionError, !warnedAboutCompaction {
      warnedAboutCompaction = true
      warn(
        problem.diagnostic(
          message:
            "the store could not be compacted (\(problem.message)); your changes are saved, but run weigh check",
          severity: .warning))
    }
  }
}

extension Session {
  // MARK: One transaction per command

  /// Starts the running command's transaction: whatever it commits, its Health events
  /// included (every delivery's sync during `advance 3650d`), is written as one journal
  /// record by ``endCommandTransaction()``, so a crash loses the whole command or none of it.
  /// What an enclosing command (`include`) committed so far is written first.
  func beginCommandTransaction() throws(Diagnostic) {
    try endCommandTransaction()
    store.beginBatch()
  }

  /// Writes what the running command committed, with one `fdatasync`, before its result is
  /// shown. When that fails, nothing of the command is kept: the store is opened again and
  /// everything derived from it read anew.
  func endCommandTransaction() throws(Diagnostic) {
    guard store.isBatching else { return }
    do throws(StoreError) {
      try endHealthAndAppBatch()
    } catch {
      let committed = persistence.journalLagsAt
      persistence.journalLagsAt = nil
      persistence.unwrittenState = nil
      healthSQLite?.rollbackCommand()
      reopenAfterLostTransaction()
      if let committed {
        // health.sqlite's COMMIT was the commit point: the command stands (docs/store.md).
        let journal = StoreJournal.fileName
        let later =
          store.committedSequence >= committed
          ? "it was added on reopening the store"
          : "weigh adds it when it next opens the store"
        throw error.diagnostic(
          message: "the command is saved (health.sqlite committed it), but its record could not "
            + "be added to \(journal): \(error.message); \(later)")
      }
      throw Self.writeFailure(error)
    }
    // An import's streamed rows that no compaction wrote into their table's file are in the
    // journal alone: the store closed itself, and reading it again finds them there.
    if store.needsReopening { reopenAfterLostTransaction() }
  }

  /// After a transaction that could not be written: the store's memory is ahead of its
  /// files, so it is opened again (its lock is released for that moment).
  private func reopenAfterLostTransaction() {
    closeHealthStorage()
    store.close()
    do throws(Diagnostic) {
      store = try Self.openStore(options.store, lockTimeout: options.lockTimeout)
      try openHealthStorage()
    } catch {
      // Later commands fail on the closed store and say so.
      report(error)
    }
    storeChangedOutside()
  }
}

extension Session {
  /// The numbers of the app's entries, for completion of `#12`.
  public func entryNumbers() -> [Int] {
    guard isStoreReleased else { return (try? entries().map(\.id)) ?? [] }
    // Between REPL commands: a quick look that never waits for another process's lock.
    guard (try? acquireStore(lockTimeout: 0)) != nil else { return [] }
    defer { releaseStore() }
    return (try? entries().map(\.id)) ?? []
  }
}
