import Foundation

/// The most often background delivery may wake the app (HKUpdateFrequency).
public enum UpdateFrequency: Int, Codable, Sendable, CaseIterable, Comparable {
  case immediate = 1
  case hourly = 2
  case daily = 3
  case weekly = 4

  /// The minimum time between two background wakes.
  public var period: TimeInterval {
    switch self {
    case .immediate: return 0
    case .hourly: return 3600
    case .daily: return 86_400
    case .weekly: return 604_800
    }
  }

  public static func < (lhs: UpdateFrequency, rhs: UpdateFrequency) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}

/// The observer as the `observer` fact shows it.
public enum ObserverState: String, Codable, Sendable {
  /// No observer query and no background delivery.
  case off
  /// Registered and delivering.
  case active
  /// A delivery failed (completion not called) and a retry is scheduled.
  case retrying
  /// Background delivery stopped after too many failures, until launch and re-enable.
  case stopped
}
