import Foundation
import HealthKit

/// Keeps the anchored query's position across launches in UserDefaults, as an
/// HKQueryAnchor archived with NSKeyedArchiver (secure coding).
public struct AnchorDefaults: @unchecked Sendable {
  // UserDefaults is thread-safe.
  private let defaults: UserDefaults
  /// The key the archived anchor is stored under.
  public let key: String

  /// An anchor kept in `defaults` under `key`.
  public init(defaults: UserDefaults = .standard, key: String = "bodyMassAnchor") {
    self.defaults = defaults
    self.key = key
  }

  /// The anchor saved last; nil before the first sync, or if the data does not decode
  /// (the next sync then reads everything, and the UUID check keeps it from doubling).
  public func load() -> HKQueryAnchor? {
    guard let data = defaults.data(forKey: key) else { return nil }
    return try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
  }

  /// Saves the anchor.
  public func save(_ anchor: HKQueryAnchor) throws {
    defaults.set(
      try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true),
      forKey: key)
  }

  /// Forgets the anchor, so the next sync reads everything Health keeps.
  public func reset() { defaults.removeObject(forKey: key) }
}
