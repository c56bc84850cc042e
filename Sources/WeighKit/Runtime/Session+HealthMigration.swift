import Foundation
import HealthSim

/// The migration of a store that keeps Health in its tables (`health.json`,
/// `health-sync.json` and the `health` document, as weigh wrote it before `health.sqlite`)
/// to `health.sqlite`, once, at the first open that can write (docs/store.md, "Migrating
/// Health to health.sqlite").
extension Session {
  /// The folder that keeps the files a migration replaced.
  static let backupFolder = "backup"

  /// A read-only store's Health, read from its tables as they are, without migrating.
  static func storageFromTables(_ store: Store) throws(StoreError) -> InMemorySampleStorage {
    let storage = InMemorySampleStorage()
    let records = try store.rows(HealthRecordCodec.self)
    guard
      let value = store.document(.health),
      let state = DocumentCoding.decode(HealthSmallState.self, from: value)
    else { return storage }
    try storageCall {
      try storage.append(records)
      try storage.apply([.stateChanged(state)])
    }
    return storage
  }

  /// Migrates the store's Health to `health.sqlite` at `path`:
  ///
  /// 1. builds `health.sqlite.tmp` in one transaction, each row written as it is read from
  ///    the tables, then the state and, as its pending journal record, the app transaction
  ///    that drops Health's rows and documents (written a piece at a time);
  /// 2. copies `weigh.json`, the journal, `journal.ack` and Health's table files into
  ///    `backup/health-json-<UTC time>/` (synced), a piece at a time;
  /// 3. renames it to `health.sqlite` (the directory synced): the migration's commit point;
  /// 4. appends that record to the journal (what any open does for a pending record).
  ///
  /// A crash before 3 leaves the old store (the temporary file is built again); after it,
  /// the next open finishes 4. Says once on stderr what happened.
  func migrateHealth(to path: String) throws(StoreError) {
    guard case .directory(let directory) = options.store else { return }
    guard !FileManager.default.fileExists(atPath: path) else {
      // A pending record would have finished the migration: this database is another one.
      let probe = try HealthSQLiteStorage(path: path, creating: false)
      defer { try? probe.close() }
      let (pending, _) = try probe.pendingRecordSummary()
      guard pending?.sequence == store.committedSequence + 1 else {
        throw StoreError(
          .corrupt, file: path,
          message:
            "both health.sqlite and the store's Health tables hold Health (health.sqlite put "
            + "back, or an older weigh used this store since); move one of them away")
      }
      return
    }
    guard
      let value = store.document(.health),
      let state = DocumentCoding.decode(HealthSmallState.self, from: value)
    else {
      // The tables' own damage is said first, as when they were read before the document.
      try store.forEachRow(HealthRecordCodec.self) { _ in }
      try store.forEachRow(HealthSyncIndexCodec.self) { _ in }
      throw StoreError(
        .corrupt, message: "the health document cannot be read; `weigh check` lists the damage")
    }
    let sequence = store.committedSequence + 1

    // Each record goes into `health.sqlite.tmp` as it is read from the table (its file a
    // row at a time, the journal's changes merged in), and only its id is kept, as runs.
    // Held, the rows, the removals, the record's line and `build`'s copy took the memory:
    // 1,000,000 samples 964,584 KB at the peak, 61,028 KB so; 0.98× the instructions at
    // 100,000 (docs/performance.md, "hmig24").
    let temporary = path + ".tmp"
    var writing: HealthSQLiteStorage.RepairWriting? = try HealthSQLiteStorage.RepairWriting(
      temporary: temporary, state: state, skipsRepeats: false)
    defer {
      // A table that does not read (or a write that fails) leaves nothing behind.
      if let abandoned = writing {
        abandoned.abandon()
        HealthSQLiteStorage.removingLeftovers(of: temporary)
      }
    }
    var recordIDs = IDRuns()
    var records = 0
    try store.forEachRow(HealthRecordCodec.self) { (record) throws(StoreError) in
      recordIDs.append(HealthRecordCodec.id(of: record))
      records += 1
      try writing!.add(record)
    }
    var syncedIDs = IDRuns()
    try store.forEachRow(HealthSyncIndexCodec.self) { record in
      syncedIDs.append(HealthSyncIndexCodec.id(of: record))
    }

    // The app transaction that drops Health's rows and documents: a removal per row, in
    // increasing order (each table's ids as runs, which a reader of the record keeps as
    // runs again, `StoreJournal.RemovalStretch`), written into `pending_journal` a piece at
    // a time, never held (docs/store.md, "The migration streamed").
    var changes: [StoreChange] = []
    if !recordIDs.runs.isEmpty {
      changes.append(.removeRun(table: HealthRecordCodec.tableName, ids: recordIDs))
    }
    if !syncedIDs.runs.isEmpty {
      changes.append(.removeRun(table: HealthSyncIndexCodec.tableName, ids: syncedIDs))
    }
    changes.append(.removeDocument(name: DocumentName.health.rawValue))
    if store.document(.healthSyncIndex) != nil {
      changes.append(.removeDocument(name: DocumentName.healthSyncIndex.rawValue))
    }
    changes.append(.set(.healthFormat, to: .string(HealthSQLiteStorage.fileName)))
    changes.append(.set(.healthSimulations, to: .bool(!state.simulations.isEmpty)))
    func encode(_ write: ([UInt8]) throws(StoreError) -> Void) throws(StoreError) {
      var line = JSONWriter()
      try StoreJournal.encode(
        sequence: sequence, changes: changes, rows: EncodedRows(), into: &line,
        pieceBytes: HealthSQLiteStorage.pendingWriting.pieceBytes, write: write)
    }
    // Its length first (a zeroblob of it is filled), counted from its removals' runs
    // (`StoreJournal.encodedLength`), then its bytes, encoded once.
    let byteCount = try StoreJournal.encodedLength(sequence: sequence, removalsAnd: changes)
    try writing!.commit(
      pendingSequence: sequence, byteCount: byteCount,
      fill: { write in
        try encode { bytes throws(StoreError) in bytes.withUnsafeBytes { write($0) } }
      }, appSequence: sequence)
    writing = nil

    // The copies, then the rename: the migration's commit point.
    let backup: String
    do throws(StoreError) {
      backup = try backUpHealthFiles(directory)
    } catch {
      HealthSQLiteStorage.removingLeftovers(of: temporary)
      throw error
    }
    try HealthSQLiteStorage.moveIntoPlace(temporary, to: path, directory: directory)
    persistence.migrationNotes.append(
      "migrated Health to \(HealthSQLiteStorage.fileName) (\(English.counted(records, "record"))); the old "
        + "files are in \(Self.backupFolder)/\(backup)")
  }

  /// Copies the files the migration replaces into a new folder of `backup/`, synced;
  /// returns the folder's name.
  private func backUpHealthFiles(_ directory: String) throws(StoreError) -> String {
    let parent = StoreLocation.joinPath(directory, Self.backupFolder)
    try StoreFileSystem.makeDirectory(parent)
    let name = Store.uniqueName(in: parent, stem: "health-json", suffix: "")
    let folder = StoreLocation.joinPath(parent, name)
    try StoreFileSystem.makeDirectory(folder)
    let files = [
      StoreManifest.fileName, StoreJournal.fileName, StoreAck.fileName,
      TableFile<HealthRecordCodec>.fileName, TableFile<HealthSyncIndexCodec>.fileName,
    ]
    for file in files {
      let source = StoreLocation.joinPath(directory, file)
      guard let size = StoreFileSystem.size(source) else { continue }
      // A piece at a time: read whole, `health.json` (hundreds of MB) was held.
      try StoreFileSystem.create(
        StoreLocation.joinPath(folder, file), copying: 0..<size, of: source
      ) { _ in }
    }
    try StoreFileSystem.syncDirectory(folder)
    try StoreFileSystem.syncDirectory(parent)
    try StoreFileSystem.syncDirectory(directory)
    return name
  }
}
