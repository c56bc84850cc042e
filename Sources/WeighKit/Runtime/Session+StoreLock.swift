import HealthSim

extension Session {
  // MARK: The lock, per command

  /// Closes the store, and with it its lock, until `acquireStore`: the REPL does this
  /// between commands, so that other processes can read and write the store while it
  /// waits for a line. A memory store stays as it is.
  func releaseStore() {
    guard released == nil, case .directory = options.store else { return }
    // Every command commits what it changed in Health; anything left would be written
    // over another process's changes later.
    rollBack()
    released = ReleasedStore(state: StoreState(store), healthMark: healthMark)
    closeHealthStorage()
    store.close()
  }

  /// Opens the store again after `releaseStore`, waiting for another process's lock (and
  /// saying so when the wait is noticeable). When another process committed meanwhile, the
  /// session reads the settings and the app's state again and forgets what it derived from
  /// the store; otherwise it keeps them, the tables' rows read before included.
  ///
  /// - Parameter lockTimeout: how long to wait; the session's option when nil.
  func acquireStore(lockTimeout: Double? = nil) throws(Diagnostic) {
    guard let released else { return }
    let timeout = lockTimeout ?? options.lockTimeout
    let previous = store
    store = try Self.openStore(options.store, lockTimeout: timeout) { [self] busy in
      report(Self.busyNotice(busy, timeout: timeout))
      sink.flush()
    }
    self.released = nil
    reportRecovery()
    try openHealthStorage()
    if StoreState(store) != released.state || healthMark != released.healthMark {
      storeChangedOutside()
    } else {
      // Nothing changed: the tables read before need not be read again.
      store.reuseRows(of: previous)
    }
  }

  /// The warning shown when the store's lock is busy and the REPL goes on waiting for it.
  static func busyNotice(_ busy: StoreError, timeout: Double) -> Diagnostic {
    // The holder, without the store's advice to wait: the REPL is waiting already.
    let advice = "; wait for it to finish or stop it"
    let holder =
      busy.message.hasSuffix(advice) ? String(busy.message.dropLast(advice.count)) : busy.message
    let seconds = DisplayUnit.formatNumber(timeout, decimals: 0)
    return Diagnostic("\(holder); waiting up to \(seconds) s for it to finish", severity: .warning)
  }

  /// Another process committed: reads the documents again and drops what was derived from
  /// the old state (Health, the UUID index, the undo history).
  func storeChangedOutside() {
    let oldZone = settings.timeZone
    settings = Settings(json: store.document(.settings))
    app = AppDocument(json: store.document(.app))
    if settings.timeZone != oldZone, options.timeZone == nil { useTimeZone(settings.timeZone) }
    dropHealth()
    healthIndex = nil
    // Undoing now would write old values over what the other process changed.
    undo.dropForOtherProcess()
  }

  // MARK: Commands as transactions

  /// Runs `command` as a transaction: its changes are committed only when it succeeds.
  /// Store changes are committed by the command itself, at its end; what it changed in
  /// Health and did not commit is dropped on failure, with Health read again from the
  /// store when next needed.
  ///
  /// A result that carries a failure (its own change stands, a follow-up failed) rolls
  /// Health back as a thrown error does.
  ///
  /// - Throws: what `command` throws: a ``Diagnostic``, or ``IncludeStop``.
  func perform(_ command: any Executable) throws -> CommandResult {
    let running = observer.query
    do {
      let result = try command.execute(in: self)
      if let failure = healthLink?.failure {
        // Health answered without its storage (a damaged row, a failed write): the result
        // is not true, and nothing of what Health did after its last commit is kept; the
        // next command opens Health again.
        dropHealth()
        throw Self.writeFailure(failure)
      }
      if result.failure != nil { rollBack(force: observer.query !== running) }
      return result
    } catch {
      // The command may have stopped the app's observer query (`observe`, `app launch`);
      // a query runs only once, so Health is read again and the app registers anew.
      rollBack(force: observer.query !== running)
      throw error
    }
  }

  /// Drops Health's uncommitted changes, if any (or with `force`), by undoing its writes and
  /// opening Health again over the storage (at once, so that its scheduled events still fall due).
  func rollBack(force: Bool = false) {
    guard let healthLink, force || healthLink.hasPending || healthLink.failure != nil
    else { return }
    dropHealth()
    // A store without Health gets none: not even its one-time setup is written.
    if hasStoredHealth { _ = try? health() }
  }

  /// Forgets Health as opened (and the observer query run on it), undoing what it wrote
  /// since the command's last commit; the next command that needs it opens it again, and the app registers its observer again.
  func dropHealth() {
    guard healthLink != nil else { return }
    undoHealthWrites()
    healthLink = nil
    observer.query = nil
    observer.handlerNotes = []
  }
}
