import Foundation

/// A save the app made while the device was locked: Health kept it aside and merges it
/// into the store at unlock (HKError.errorDatabaseInaccessible: "You can, however, still
/// save data … merged with HealthKit's data when the user unlocks their device").
public struct LockedSave: Codable, Hashable, Sendable {
  /// The samples as they will be stored: UUIDs, writer and creation dates already set.
  public var samples: [HealthSample]
  /// The app that saved them.
  public var revision: SourceRevision
  /// When the app saved them; their creation date.
  public var date: Date

  /// A save kept for the unlock.
  public init(samples: [HealthSample], revision: SourceRevision, date: Date) {
    self.samples = samples
    self.revision = revision
    self.date = date
  }
}
