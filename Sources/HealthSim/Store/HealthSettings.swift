import Foundation

/// The simulator's knobs for behaviour Apple does not document; defaults are those of
/// docs/healthsim.md ("Knobs").
public struct HealthSettings: Codable, Hashable, Sendable {
  /// What `save` does with a sync version equal to or lower than the stored one (Y3, Y4).
  public enum StaleSyncVersion: String, Codable, Sendable {
    /// Report success and change nothing (the default).
    case ignore
    /// Fail with errorInvalidArgument.
    case fail
  }

  /// Which samples a sync identifier is matched against (Y5).
  public enum SyncIdentifierScope: String, Codable, Sendable {
    /// The same source, type and identifier (the default).
    case sourceAndType
    /// The same type and identifier, whatever the source.
    case type
  }

  /// The anchor returned when a query returns nothing (A6).
  public enum EmptyResultAnchor: String, Codable, Sendable {
    /// The anchor the query was given (0 for nil); the default.
    case inputAnchor
    /// The store's latest change position.
    case latestPosition
  }

  /// What a query does while read permission is not determined (Z10).
  public enum UndeterminedReadQuery: String, Codable, Sendable {
    /// Fail with errorAuthorizationNotDetermined (the default).
    case fail
    /// Succeed with only the app's own samples, as if denied.
    case ownSamplesOnly
  }

  /// The device the app runs on, for background-delivery limits (O14).
  public enum Platform: String, Codable, Sendable {
    /// iPhone: per-type caps only (the default).
    case iOS
    /// Apple Watch: every type capped at hourly, and a daily budget of background wakes.
    case watchOS
  }

  /// The device the app runs on (O14, default iOS).
  public var platform = Platform.iOS
  /// Background wakes per UTC day on watchOS; later wakes wait for the next day (O14).
  /// UNCONFIRMED: Apple's sentence ("four updates (or …") is cut off; default 4.
  public var watchBackgroundBudgetPerDay = 4
  /// Whether the app has the background-delivery entitlement (O18, default on).
  public var hasBackgroundDeliveryEntitlement = true
  /// Whether `enableBackgroundDelivery` fails without the entitlement instead of never waking.
  public var missingEntitlementFailsEnable = false
  /// Whether coming to the foreground fires observers once even with no change (O2).
  public var spuriousForegroundFire = true
  /// The first retry delay after a handler does not call its completion (O7, default 1 min).
  public var retryBackoff: TimeInterval = 60
  /// The factor each further retry delay grows by (O7, default 2).
  public var retryBackoffMultiplier: Double = 2
  /// Consecutive failed deliveries after which background delivery stops (O6, default 3).
  public var maximumFailedDeliveries = 3
  /// Whether a stop lasts until the app is launched and enables delivery again (O8).
  public var stopLastsUntilLaunch = true
  /// The coarsest frequency per type, enforced silently (O12; step count hourly).
  public var frequencyCaps: [SampleType: UpdateFrequency] = [.stepCount: .hourly]
  /// What a stale sync version does (Y3, Y4).
  public var staleSyncVersion = StaleSyncVersion.ignore
  /// The scope of sync-identifier matching (Y5).
  public var syncIdentifierScope = SyncIdentifierScope.sourceAndType
  /// The error code for deleting another source's sample (D1).
  public var foreignDeleteError = HealthError.Code.errorAuthorizationDenied
  /// The anchor for an empty result (A6).
  public var emptyResultAnchor = EmptyResultAnchor.inputAnchor
  /// Queries before read permission is decided (Z10).
  public var undeterminedReadQuery = UndeterminedReadQuery.fail
  /// The user's answer when `requestAuthorization` prompts for undecided types.
  public var promptAnswer = AuthorizationDecision.authorized
  /// Whether a type requested for read only reports `sharingDenied` afterwards (Z5).
  public var readOnlyRequestReportsDenied = true
  /// Bundle identifiers the user moved to the top of Health's source priority, highest first.
  public var sourcePriority: [String] = []
  /// Whether deleting a correlation also deletes the samples it holds (default on).
  /// UNCONFIRMED: Apple does not document it; Health shows a blood-pressure reading as one
  /// entry, and deleting it there removes both values.
  public var deletingCorrelationDeletesObjects = true

  /// The defaults docs/healthsim.md lists.
  public init() {}

  /// Decodes settings; a key that is missing (saved before the knob existed) keeps its default.
  public init(from decoder: any Decoder) throws {
    self.init()
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func read<Value: Decodable>(_ key: CodingKeys, into value: inout Value) throws {
      if let decoded = try container.decodeIfPresent(Value.self, forKey: key) { value = decoded }
    }
    try read(.platform, into: &platform)
    try read(.watchBackgroundBudgetPerDay, into: &watchBackgroundBudgetPerDay)
    try read(.hasBackgroundDeliveryEntitlement, into: &hasBackgroundDeliveryEntitlement)
    try read(.missingEntitlementFailsEnable, into: &missingEntitlementFailsEnable)
    try read(.spuriousForegroundFire, into: &spuriousForegroundFire)
    try read(.retryBackoff, into: &retryBackoff)
    try read(.retryBackoffMultiplier, into: &retryBackoffMultiplier)
    try read(.maximumFailedDeliveries, into: &maximumFailedDeliveries)
    try read(.stopLastsUntilLaunch, into: &stopLastsUntilLaunch)
    try read(.frequencyCaps, into: &frequencyCaps)
    try read(.staleSyncVersion, into: &staleSyncVersion)
    try read(.syncIdentifierScope, into: &syncIdentifierScope)
    try read(.foreignDeleteError, into: &foreignDeleteError)
    try read(.emptyResultAnchor, into: &emptyResultAnchor)
    try read(.undeterminedReadQuery, into: &undeterminedReadQuery)
    try read(.promptAnswer, into: &promptAnswer)
    try read(.readOnlyRequestReportsDenied, into: &readOnlyRequestReportsDenied)
    try read(.sourcePriority, into: &sourcePriority)
    try read(.deletingCorrelationDeletesObjects, into: &deletingCorrelationDeletesObjects)
  }
}
