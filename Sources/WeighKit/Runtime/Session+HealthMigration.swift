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
  /// 1. copies `weigh.json`, the journal, `journal.ack` and Health's table files into
  ///    `backup/health-json-<UTC time>/` (synced);
  /// 2. builds `health.sqlite.tmp` from the rows and the state in one transaction, which
  ///    also holds, as its pending journal record, the app transaction that drops Health's
  ///    rows and documents;
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
    let records = try store.rows(HealthRecordCodec.self)
    let synced = try store.rows(HealthSyncIndexCodec.self)
    guard
      let value = store.document(.health),
      let state = DocumentCoding.decode(HealthSmallState.self, from: value)
    else {
      throw StoreError(
        .corrupt, message: "the health document cannot be read; `weigh check` lists the damage")
    }
    let backup = try backUpHealthFiles(directory)

    // The app transaction that drops Health's rows and documents.
    // Last row first: each removal is then the end of the table's rows, not a shift of all
    // the rows after it (a million rows would otherwise take hours).
    var changes: [StoreChange] = []
    for record in records.reversed() {
      changes.append(
        .remove(table: HealthRecordCodec.tableName, id: HealthRecordCodec.id(of: record)))
    }
    for record in synced.reversed() {
      changes.append(
        .remove(table: HealthSyncIndexCodec.tableName, id: HealthSyncIndexCodec.id(of: record)))
    }
    changes.append(.removeDocument(name: DocumentName.health.rawValue))
    if store.document(.healthSyncIndex) != nil {
      changes.append(.removeDocument(name: DocumentName.healthSyncIndex.rawValue))
    }
    changes.append(.set(.healthFormat, to: .string(HealthSQLiteStorage.fileName)))
    changes.append(.set(.healthSimulations, to: .bool(!state.simulations.isEmpty)))
    let sequence = store.committedSequence + 1
    var line = JSONWriter()
    try StoreJournal.encode(sequence: sequence, changes: changes, rows: EncodedRows(), into: &line)

    try HealthSQLiteStorage.build(
      at: path, records: records, state: state,
      pending: HealthSQLiteStorage.PendingRecord(sequence: sequence, bytes: line.bytes),
      appSequence: sequence, directory: directory)
    persistence.migrationNotes.append(
      "migrated Health to \(HealthSQLiteStorage.fileName) (\(English.counted(records.count, "record"))); the old "
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
      guard let bytes = try StoreFileSystem.read(StoreLocation.joinPath(directory, file)) else {
        continue
      }
      try StoreFileSystem.replace(StoreLocation.joinPath(folder, file), with: bytes)
    }
    try StoreFileSystem.syncDirectory(folder)
    try StoreFileSystem.syncDirectory(parent)
    try StoreFileSystem.syncDirectory(directory)
    return name
  }
}
