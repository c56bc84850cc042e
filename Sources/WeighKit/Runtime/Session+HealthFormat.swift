import Foundation

/// The move of a format-1 `health.sqlite` to format 2, once, at the first open of a
/// writable store (docs/store.md, "Format 2: a leaner row").
extension Session {
  /// Migrates the format-1 database at `path` to format 2 before the storage opens it, when
  /// the store can be written, and says so once on stderr. A
  /// read-only store reads format 1 as it is; a format-2 file costs a read of its header.
  func migrateHealthFormat(_ path: String) throws(StoreError) {
    guard store.isWritable, case .directory(let directory) = options.store,
      let migration = try HealthSQLiteStorage.migrateToFormat2IfNeeded(
        path: path, directory: directory)
    else { return }
    report(Diagnostic(migration.note, severity: .note))
  }
}
