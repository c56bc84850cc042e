import Foundation
import HealthSim

/// Where Health's samples and small state live (docs/store.md, "Health in health.sqlite"):
/// `health.sqlite` beside a directory store's files, an in-memory storage for `--memory`;
/// and the one commit per command across it and the app's journal.
extension Session {
  /// Runs a storage call, its errors as store errors (the SQLite storage's are already).
  static func storageCall<T>(_ body: () throws -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch let error as StoreError {
      throw error
    } catch let error as HealthStorageError {
      throw StoreError(.invalidChange, message: error.message)
    } catch {
      throw StoreError(.io, message: "\(error)")
    }
  }

  /// The SQLite storage, for a directory store that has one.
  var healthSQLite: HealthSQLiteStorage? { persistence.storage as? HealthSQLiteStorage }

  /// Health's small state as the storage holds it (a memory store's is a value instead).
  func storedHealthState() throws(StoreError) -> HealthSmallState? {
    guard let storage = try openedHealthStorage() else { return nil }
    return try Self.storageCall { try storage.smallState() }
  }

  /// The path of `health.sqlite` in a directory store.
  var healthSQLitePath: String? {
    guard case .directory(let directory) = options.store else { return nil }
    return StoreLocation.joinPath(directory, HealthSQLiteStorage.fileName)
  }

  /// Opens Health's storage for the store just opened: a memory one for `--memory`; for a
  /// directory store `health.sqlite` when it exists (created when Health is first written),
  /// after the migration of a store that keeps Health in its tables; and finishes the
  /// commit of a command whose record `health.sqlite` holds but the journal lacks.
  ///
  /// `health.sqlite` is opened only when that may be needed (docs/store.md, "Opening
  /// health.sqlite only when a command needs Health"): its write-ahead log is there (a
  /// process stopped with the database open, or one that kept the log because the journal
  /// lacked its record), or the store migrates. Otherwise the first use opens it
  /// (`openedHealthStorage()`), and a command that does not touch Health never does.
  func openHealthStorage() throws(Diagnostic) {
    closeHealthStorage()
    guard let path = healthSQLitePath else {
      if persistence.memoryStorage == nil { persistence.memoryStorage = InMemorySampleStorage() }
      persistence.storage = persistence.memoryStorage
      healthLink?.storage.use(persistence.memoryStorage!)
      return
    }
    do throws(StoreError) {
      let migrating = store.document(.health) != nil
      if migrating {
        guard store.isWritable else {
          // A store that cannot be written is read as it is, without migrating.
          persistence.storage = try Self.storageFromTables(store)
          return
        }
        try migrateHealth(to: path)
      }
      guard StoreFileSystem.exists(path) else { return }
      if !migrating, healthLink == nil, !StoreFileSystem.exists(path + "-wal") {
        // Closed cleanly with the journal holding its every record: nothing to finish.
        persistence.unopenedPath = path
        dropMigratedHealthTables()
        return
      }
      // Before the open that finishes a pending commit: the new file holds the same record.
      try migrateHealthFormat(path)
      let sqlite = try HealthSQLiteStorage(
        path: path, creating: false, readOnly: !store.isWritable)
      persistence.storage = sqlite
      // Until the journal is known to hold every record it committed, closing keeps the log.
      sqlite.keepsLogOnClose = true
      healthLink?.storage.use(sqlite)
      try finishPendingCommit(sqlite)
      sqlite.keepsLogOnClose = false
      if migrating {
        // The tables' rows are gone: their files are rewritten empty now, not at some
        // later commit (a failure only leaves the journal longer).
        try? store.compact()
      }
      dropMigratedHealthTables()
      for note in persistence.migrationNotes { report(Diagnostic(note, severity: .note)) }
      persistence.migrationNotes = []
    } catch {
      closeHealthStorage()
      throw Self.diagnostic(for: error)
    }
  }

  /// `health.sqlite`, opened now if `openHealthStorage()` left it for the first use; nil
  /// when the store has no Health storage yet.
  func openedHealthStorage() throws(StoreError) -> (any HealthSampleStorage)? {
    if let storage = persistence.storage { return storage }
    guard let path = persistence.unopenedPath else { return nil }
    try migrateHealthFormat(path)
    let sqlite = try HealthSQLiteStorage(path: path, creating: false, readOnly: !store.isWritable)
    persistence.unopenedPath = nil
    persistence.storage = sqlite
    return sqlite
  }

  /// The tables that held Health before `health.sqlite`.
  static let healthTableNames = [HealthRecordCodec.tableName, HealthSyncIndexCodec.tableName]

  /// Drops Health's old tables from a store whose Health moved to `health.sqlite` (a
  /// migration left them listed in `weigh.json`, empty, before weigh dropped them): once,
  /// when the store can be written. A failure leaves them listed, and is tried again.
  func dropMigratedHealthTables() {
    guard store.isWritable, store.document(.health) == nil,
      store.document(.healthFormat) != nil,
      Self.healthTableNames.contains(where: { store.holdsTable($0) })
    else { return }
    try? store.dropEmptyTables(Self.healthTableNames)
  }

  /// Closes Health's storage (the memory one stays for the session).
  func closeHealthStorage() {
    healthSQLite?.rollbackCommand()
    try? healthSQLite?.close()
    persistence.storage = nil
    persistence.unopenedPath = nil
  }

  /// The storage to write Health's changes to, `health.sqlite` created on first use.
  func writableHealthStorage() throws(StoreError) -> any HealthSampleStorage {
    guard store.isWritable else {
      throw StoreError(
        .io, file: healthSQLitePath,
        message:
          "cannot write: the store is read-only (permission denied); make the store's "
          + "files writable (chmod u+w) to change it")
    }
    if let storage = try openedHealthStorage() { return storage }
    guard let path = healthSQLitePath, case .directory(let directory) = options.store else {
      throw StoreError(.io, message: "the store is closed")
    }
    // Built aside, put in place by the first commit (docs/store.md, "A new store's first
    // Health command built aside").
    let sqlite = try HealthSQLiteStorage.createAside(at: path, directory: directory)
    persistence.storage = sqlite
    return sqlite
  }

  /// Appends the app journal's record of the last command when `health.sqlite` committed
  /// it and the journal lacks it (a crash between the two writes), by reopening the store.
  ///
  /// - Throws: `corrupt` when the database is ahead of the journal by more than that record
  ///   (an older journal put back).
  private func finishPendingCommit(_ sqlite: HealthSQLiteStorage) throws(StoreError) {
    try Self.finishPendingCommit(
      sqlite, store: &store, location: options.store, lockTimeout: options.lockTimeout)
  }

  /// `finishPendingCommit` for `store`, opened at `location` (also `weigh check --repair`'s):
  /// returns whether it appended the record; `store` is then opened again.
  @discardableResult
  static func finishPendingCommit(
    _ sqlite: HealthSQLiteStorage, store: inout Store, location: StoreLocation,
    lockTimeout: Double
  ) throws(StoreError) -> Bool {
    let (pending, appSequence) = try sqlite.pendingRecordSummary()
    let sequence = store.committedSequence
    if let pending, pending.sequence == sequence + 1 {
      guard store.isWritable, case .directory(let directory) = location else {
        throw StoreError(
          .io, file: sqlite.path,
          message:
            "the last command's record is in health.sqlite but not yet in journal.jsonl, "
            + "and the journal is read-only; make the store's files writable (chmod u+w)")
      }
      store.close()
      let journal = StoreLocation.joinPath(directory, StoreJournal.fileName)
      let descriptor = try StoreFileSystem.openForAppending(journal)
      defer { StoreFileSystem.closeDescriptor(descriptor) }
      // A piece at a time: a streamed import's record is never held whole.
      try sqlite.appendPendingRecord(to: descriptor, path: journal)
      try StoreFileSystem.sync(descriptor, path: journal, dataOnly: true)
      store = try Store.open(
        location, tables: storeTables, lockTimeout: .seconds(min(max(0, lockTimeout), 3600)))
      return true
    }
    let ahead = max(appSequence, pending?.sequence ?? 0)
    guard ahead <= sequence else {
      throw StoreError(
        .corrupt, file: sqlite.path,
        message:
          "health.sqlite matches the app's journal up to sequence \(ahead), but the journal "
          + "ends at \(sequence) (an older journal.jsonl put back?); `weigh check` lists the damage"
      )
    }
    return false
  }

  /// The command will write samples of `types` (an import): `health.sqlite` makes their
  /// indexes with its first (`HealthSQLiteStorage.expectTypes`), at the command's next write.
  func expectHealthTypes(_ types: Set<SampleType>) {
    persistence.expectedTypes = types
  }

  /// Health's first write since the command's last commit: the storage to write to
  /// (`health.sqlite` created on first use), with the command's transaction open and a
  /// savepoint in it; for a memory store, a copy of its storage to undo the writes with.
  ///
  /// `health.sqlite`'s savepoint is not one per commit: it is opened at the command's first
  /// write and kept over its next commits, up to `HealthRedo.limit` changes, with what they
  /// kept (`persistence.sqliteRedo`); undoing the writes after the last commit rolls back to it
  /// and writes the kept ones again (docs/store.md, "One savepoint for many commits").
  func openHealthWrites() throws(StoreError) -> any HealthSampleStorage {
    let storage = try writableHealthStorage()
    if let sqlite = storage as? HealthSQLiteStorage {
      if !persistence.expectedTypes.isEmpty {
        sqlite.expectTypes(persistence.expectedTypes)
        persistence.expectedTypes = []
      }
      // A savepoint of an earlier command's transaction is gone with it.
      if !sqlite.isInCommand { persistence.sqliteRedo = nil }
      try sqlite.beginCommand()
      if persistence.sqliteRedo == nil {
        try sqlite.openSavepoint()
        persistence.sqliteRedo = HealthRedo()
      } else {
        sqlite.startWritesAfterCommit()
      }
    } else if let memory = storage as? InMemorySampleStorage, persistence.memoryUndo == nil {
      persistence.memoryUndo = memory.copy()
      persistence.memoryRedo = []
    }
    return storage
  }

  /// Keeps what Health wrote since the command's last commit: the app committed its part.
  func acceptHealthWrites() throws(StoreError) {
    guard let accepted = healthLink?.storage.accept() else { return }
    if accepted.wrote {
      if let sqlite = healthSQLite {
        if let writes = accepted.writes, persistence.sqliteRedo != nil, sqlite.isInCommand {
          persistence.sqliteRedo!.keep(writes)
          if persistence.sqliteRedo!.changes > HealthRedo.limit {
            // The savepoint's pages and the writes kept stay small: a new one is opened
            // at the next write.
            try sqlite.releaseSavepoint()
            persistence.sqliteRedo = nil
          }
        } else {
          try sqlite.releaseSavepoint()
          persistence.sqliteRedo = nil
        }
      } else {
        // The copy stays, with what was kept since it was taken; a new one now and then
        // keeps the replay short (a copy costs the whole storage once it is written again).
        persistence.memoryRedo += accepted.writes ?? []
        if accepted.writes == nil || persistence.memoryRedo.count > 4096 {
          persistence.memoryUndo = nil
          persistence.memoryRedo = []
        }
      }
    }
    if let state = accepted.state {
      if options.store == .memory {
        persistence.memoryState = state
      } else {
        persistence.unwrittenState = state
      }
    }
  }

  /// Undoes what Health wrote since the command's last commit (its store is dropped).
  func undoHealthWrites() {
    guard let link = healthLink, link.storage.isWriting else { return }
    if let undo = persistence.memoryUndo {
      // The copy, and what was kept since it was taken (accepted before: it applies again).
      for write in persistence.memoryRedo {
        switch write {
        case .apply(let changes): try? undo.apply(changes)
        case .append(let records): try? undo.append(records)
        }
      }
      persistence.memoryRedo = []
      persistence.memoryStorage = undo
      if options.store == .memory { persistence.storage = undo }
      persistence.memoryUndo = nil
    } else if let sqlite = link.storage.base as? HealthSQLiteStorage, sqlite === healthSQLite {
      undoSQLiteHealthWrites(sqlite)
    }
  }

  /// Rolls `health.sqlite` back to its open savepoint, and writes again what Health kept
  /// since it was opened, in a new savepoint. When that fails, the command's whole
  /// transaction is rolled back, and the command fails (`persistence.lostWrites`).
  private func undoSQLiteHealthWrites(_ sqlite: HealthSQLiteStorage) {
    let kept = persistence.sqliteRedo ?? HealthRedo()
    persistence.sqliteRedo = nil
    guard sqlite.isInCommand else { return }
    sqlite.rollBackSavepoint()
    guard !kept.writes.isEmpty else { return }
    do {
      try sqlite.openSavepoint()
      for write in kept.writes {
        switch write {
        case .apply(let changes): try sqlite.apply(changes)
        case .append(let records): try sqlite.append(records)
        }
      }
      persistence.sqliteRedo = kept
    } catch {
      sqlite.rollbackCommand()
      persistence.lostWrites = HealthLink.storeError(error)
    }
  }

  /// Writes the command's transaction: Health's small state, then the app's record, with
  /// `health.sqlite`'s `COMMIT` as the commit point when the command changed Health.
  ///
  /// Between that `COMMIT` and the record's append to the journal, `persistence.journalLagsAt` is the
  /// record's sequence, and closing `health.sqlite` keeps its log: the mark that makes the
  /// next open finish the commit when the append fails.
  func endHealthAndAppBatch() throws(StoreError) {
    if let lost = persistence.lostWrites {
      persistence.lostWrites = nil
      persistence.unwrittenState = nil
      throw lost
    }
    if let state = persistence.unwrittenState {
      let sqlite = try writableHealthStorage()
      if let sqlite = sqlite as? HealthSQLiteStorage { try sqlite.beginCommand() }
      try Self.storageCall { try sqlite.apply([.stateChanged(state)]) }
      let running = JSONValue.bool(!state.simulations.isEmpty)
      if store.document(.healthSimulations) != running {
        try store.commit([.set(.healthSimulations, to: running)])
      }
    }
    persistence.unwrittenState = nil
    guard let sqlite = healthSQLite, sqlite.isInCommand else { return try store.endBatch() }
    try store.endBatch { [self] (sequence, record, head) throws(StoreError) in
      if record != nil { sqlite.keepsLogOnClose = true }
      try sqlite.commitCommand(
        pending: record.map {
          HealthSQLiteStorage.PendingRecord(sequence: sequence, bytes: $0, head: head)
        },
        appSequence: sequence)
      if record != nil { persistence.journalLagsAt = sequence }
    }
    persistence.journalLagsAt = nil
    sqlite.keepsLogOnClose = false
    // The store was closed: nothing was written to it.
    if sqlite.isInCommand {
      sqlite.rollbackCommand()
      throw StoreError(.io, message: "the store is closed")
    }
    if sqlite.isClosed, sqlite === healthSQLite, let path = healthSQLitePath {
      // Built aside and put in place by its commit, which closed it: opened where it is now.
      // The command is saved: a failure here leaves Health to be opened at its next use.
      persistence.storage = nil
      if let placed = try? HealthSQLiteStorage(path: path, creating: false) {
        persistence.storage = placed
        healthLink?.storage.use(placed)
      } else {
        persistence.unopenedPath = path
      }
    }
  }

  /// A mark that changes whenever a command commits to `health.sqlite`.
  /// Read only when Health is in use (its store is kept between the REPL's commands).
  var healthMark: Int64? {
    guard healthLink != nil else { return nil }
    return try? (openedHealthStorage() as? HealthSQLiteStorage)?.commandCount()
  }
}

/// What Health kept since `health.sqlite`'s open savepoint was opened (see
/// `Session.openHealthWrites()`): the writes, in order, to replay after rolling back to it.
struct HealthRedo {
  /// The writes kept, in the order they were made.
  private(set) var writes: [CommandHealthStorage.Write] = []
  /// How many changes and records they hold.
  private(set) var changes = 0
  /// The most changes a savepoint is kept over: its pages (the sub-journal in memory holds
  /// each page it changes once) and the writes kept stay small.
  static let limit = 256

  /// Adds what a commit kept.
  mutating func keep(_ kept: [CommandHealthStorage.Write]) {
    for write in kept {
      switch write {
      case .apply(let list): changes += list.count
      case .append(let records): changes += records.count
      }
    }
    writes += kept
  }
}

extension HealthSQLiteStorage {
  /// Health writes again after a commit, within the savepoint that stays open: the records
  /// the command's writer keeps for the anchored read of what was just written start over
  /// here, as `openSavepoint()` starts them.
  func startWritesAfterCommit() { commandWriter?.forgetRecent() }
}
