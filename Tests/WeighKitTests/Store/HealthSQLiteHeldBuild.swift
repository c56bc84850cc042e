import Foundation
import HealthSim

@testable import WeighKit

extension HealthSQLiteStorage {
  /// Writes a new database at `path` holding `records` and `state`, committed with `pending`
  /// (the app journal's record it matches) in one transaction: built in `path.tmp`, synced,
  /// moved into place, and the folder synced. Any log of the file it replaces is removed
  /// first, so that it is not applied to the new one. The repair and the migration of
  /// Health's tables built this way, from every record held, before they wrote each record
  /// as they read it (hrep23, hmig24); only their oracles do now
  /// (`HealthSQLiteRepairOracleTests`, `HealthTablesMigrationStreamedTests`), so it lives
  /// with the tests.
  ///
  /// With `source`, the pending record is that of the database there, copied a piece at a
  /// time and kept as it is when damaged (`copyPendingRecord`, `.keptDamaged`), and
  /// `pending` must be nil.
  static func build(
    at path: String, records: [HealthRecord], state: HealthSmallState, pending: PendingRecord?,
    copyingPendingFrom source: String? = nil, appSequence: Int, directory: String
  ) throws(StoreError) {
    let temporary = path + ".tmp"
    removingLeftovers(of: temporary)
    let built = try HealthSQLiteStorage(path: temporary)
    do throws(StoreError) {
      try built.beginCommand()
      try mapped(temporary) {
        try built.append(records)
        try built.apply([.stateChanged(state)])
      }
      if let source {
        try built.commitCommand(
          copyingPendingFrom: source, damaged: .keptDamaged, appSequence: appSequence)
      } else {
        try built.commitCommand(pending: pending, appSequence: appSequence)
      }
      try built.close()
    } catch {
      built.rollbackCommand()
      try? built.close()
      throw error
    }
    try moveIntoPlace(temporary, to: path, directory: directory)
  }
}
