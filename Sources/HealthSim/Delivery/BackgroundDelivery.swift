import Foundation

/// Health's background-delivery bookkeeping for one sample type.
public struct BackgroundDelivery: Codable, Hashable, Sendable {
  /// Why a delivery happens.
  public enum Reason: String, Codable, Sendable {
    /// Samples of the type were saved or deleted.
    case change
    /// An earlier delivery's completion was not called.
    case retry
    /// The app came to the foreground (O2; may be spurious).
    case foreground
    /// The device was unlocked with changes pending.
    case unlock
  }

  /// A delivery waiting in the scheduler.
  public struct Scheduled: Codable, Hashable, Sendable {
    /// When it runs.
    public var date: Date
    /// The scheduler entry that runs it; an entry with another sequence is stale.
    public var sequence: UInt64
    /// Why it runs.
    public var reason: Reason
  }

  /// The enabled frequency, or `nil` when background delivery is off.
  public var frequency: UpdateFrequency?
  /// Whether changes happened that no completed delivery has covered yet.
  public var isPending = false
  /// The last background wake.
  public var lastWake: Date?
  /// Consecutive deliveries whose completion was not called.
  public var consecutiveFailures = 0
  /// Whether Health stopped background delivery after too many failures.
  public var isStopped = false
  /// Whether the app was launched since background delivery stopped.
  public var launchedSinceStop = false
  /// The next delivery, if one is scheduled.
  public var scheduled: Scheduled?
  /// Every call of the app's handler for this type.
  public var deliveries = 0

  /// Nothing registered.
  public init() {}
}
