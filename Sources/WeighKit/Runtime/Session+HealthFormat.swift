import Foundation

/// The move of a format-1 or format-2 `health.sqlite` to format 3, once, at the first open
/// of a writable store (docs/store.md, "Format 2: a leaner row", "Format 3: a pair of type
/// indexes per type present").
extension Session {
  /// Migrates the format-1 or format-2 database at `path` to format 3 before the storage
  /// opens it, when the store can be written, and says so once on stderr. A read-only store
  /// reads its file as it is; a format-3 file costs a read of its header.
  func migrateHealthFormat(_ path: String) throws(StoreError) {
    guard store.isWritable, case .directory(let directory) = options.store,
      let migration = try HealthSQLiteStorage.migrateIfNeeded(
        path: path, directory: directory)
    else { return }
    report(Diagnostic(migration.note, severity: .note))
  }
}
