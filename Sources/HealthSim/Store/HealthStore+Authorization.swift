import Foundation

extension HealthStore {
  // MARK: The app's view

  /// Whether Health data is available (HKHealthStore.isHealthDataAvailable).
  public func isHealthDataAvailable() -> Bool { state.device.isHealthDataAvailable }

  /// The write status of a type (Z4); read status is never visible (Z6).
  public func authorizationStatus(for type: SampleType) -> AuthorizationStatus {
    switch state.authorization.writeDecision(for: type) {
    case .notDetermined: return .notDetermined
    case .denied: return .sharingDenied
    case .authorized: return .sharingAuthorized
    }
  }

  /// Whether a request would prompt (getRequestStatusForAuthorization).
  public func requestStatusForAuthorization(toShare: Set<SampleType>, read: Set<SampleType>)
    -> AuthorizationRequestStatus
  {
    let auth = state.authorization
    let undecided =
      toShare.contains { auth.writeDecision(for: $0) == .notDetermined }
      || read.contains { auth.readDecision(for: $0) == .notDetermined }
    return undecided ? .shouldRequest : .unnecessary
  }

  /// Asks the user for undecided permissions; the simulated user answers
  /// `settings.promptAnswer`. Decided types are not asked again (Z13). Returns true when
  /// the prompt finished, which says nothing about what was granted (Z2).
  @discardableResult
  public func requestAuthorization(toShare: Set<SampleType>, read: Set<SampleType>)
    throws(HealthError) -> Bool
  {
    guard state.device.isHealthDataAvailable else { throw HealthError.unavailable }
    if let correlation = toShare.union(read).sorted().first(where: \.isCorrelation) {
      // HealthKit raises an exception for it.
      throw HealthError(
        .errorInvalidArgument,
        "authorization for \(correlation.rawValue) is disallowed; request its member types ("
          + correlation.memberTypes.map(\.rawValue).joined(separator: ", ") + ")")
    }
    let answer = state.settings.promptAnswer
    for type in toShare where state.authorization.writeDecision(for: type) == .notDetermined {
      state.authorization.write[type] = answer
    }
    for type in read where state.authorization.readDecision(for: type) == .notDetermined {
      state.authorization.read[type] = answer
    }
    if state.settings.readOnlyRequestReportsDenied {
      for type in read.subtracting(toShare)
      where state.authorization.writeDecision(for: type) == .notDetermined {
        state.authorization.write[type] = .denied
      }
    }
    commitState()
    return true
  }

  // MARK: Harness: the user in Settings

  /// Sets the user's read decision for types (all by default), e.g. `health auth read deny`.
  public func setReadAuthorization(
    _ decision: AuthorizationDecision, for types: [SampleType] = SampleType.allCases
  ) {
    for type in types { state.authorization.read[type] = decision }
    commitState()
  }

  /// Sets the user's write decision for types (all by default).
  public func setWriteAuthorization(
    _ decision: AuthorizationDecision, for types: [SampleType] = SampleType.allCases
  ) {
    for type in types { state.authorization.write[type] = decision }
    commitState()
  }

  /// Limits read access to samples starting at or after `date` (Z8); nil lifts the limit.
  public func setReadNotBefore(_ date: Date?, for type: SampleType) {
    state.authorization.readNotBefore[type] = date
    commitState()
  }

  /// Switches Health availability (`health available yes|no`).
  public func setHealthDataAvailable(_ available: Bool) {
    state.device.isHealthDataAvailable = available
    commitState()
  }
}
