import Foundation

/// Everything in the store except samples and deleted-object records: small, Codable,
/// and emitted whole in a `HealthChange.stateChanged` when any of it changes.
public struct HealthSmallState: Codable, Hashable, Sendable {
  /// The virtual clock.
  public var clock: Date
  /// The store-wide change counter: the last position taken.
  public var counter: Int64 = 0
  /// The app that uses the store through `HealthStoreProtocol`.
  public var app: SourceRevision
  /// The knobs.
  public var settings = HealthSettings()
  /// The app's permissions.
  public var authorization = AuthorizationState()
  /// Device lock, availability and the app's life cycle.
  public var device = DeviceState()
  /// Background delivery per type.
  public var delivery: [SampleType: BackgroundDelivery] = [:]
  /// Background wakes counted against the watchOS daily budget; nil until the first one.
  public var wakeBudget: WakeBudget?
  /// Running simulations, in start order.
  public var simulations: [SimulationState] = []
  /// Scheduled events.
  public var scheduler = Scheduler()
  /// The one random generator.
  public var generator: SeededGenerator
  /// Saves the app made while the device was locked, in order, waiting for the unlock;
  /// nil when there are none (and in states written before they existed).
  public var lockedSaves: [LockedSave]?

  /// A fresh state.
  public init(clock: Date, app: SourceRevision, seed: UInt64) {
    self.clock = clock
    self.app = app
    self.generator = SeededGenerator(seed: seed)
  }
}
