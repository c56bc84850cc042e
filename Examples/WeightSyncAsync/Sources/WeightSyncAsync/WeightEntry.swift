import Foundation

/// One weight in the app's journal.
public struct WeightEntry: Codable, Hashable, Identifiable, Sendable {
  /// Where an entry came from.
  public enum Origin: Codable, Hashable, Sendable {
    /// Typed in by the user in this app.
    case manual
    /// Imported from Health; the name of the app or device that wrote it.
    case health(sourceName: String)
  }

  /// The app's own identity of the entry.
  public let id: UUID
  /// The weight.
  public var kilograms: Double
  /// When it was measured.
  public var date: Date
  /// Where it came from.
  public let origin: Origin
  /// The Health sample behind the entry: the one imported, or the last one exported.
  public var healthUUID: UUID?
  /// Grows by one with each edit; the sync version of the entry's sample in Health.
  public var revision = 1
  /// The revision last saved to Health, for manual entries.
  public var exportedRevision: Int?
  /// Whether the app's server has the entry, for entries imported from Health.
  public var isUploaded = false

  /// A new entry at revision 1.
  public init(kilograms: Double, date: Date, origin: Origin, healthUUID: UUID? = nil) {
    id = UUID()
    self.kilograms = kilograms
    self.date = date
    self.origin = origin
    self.healthUUID = healthUUID
  }

  /// Whether the user typed it in this app.
  public var isManual: Bool { origin == .manual }

  /// The sync identifier of the entry's sample in Health: the same across edits, so a
  /// save with a higher version replaces the sample instead of adding one.
  public var syncIdentifier: String { Self.syncIdentifierPrefix + id.uuidString }

  /// The prefix of every sync identifier the app writes; samples carrying it are the app's
  /// own exports coming back, not data to import.
  public static let syncIdentifierPrefix = "com.example.weightsync-async.entry."
}
