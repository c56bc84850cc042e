import Foundation

/// The user's decision for one permission of one type.
public enum AuthorizationDecision: String, Codable, Sendable, CaseIterable {
  case notDetermined
  case denied
  case authorized
}

/// The write status an app can see (HKAuthorizationStatus); read status is never shown.
public enum AuthorizationStatus: Int, Codable, Sendable {
  case notDetermined = 0
  case sharingDenied = 1
  case sharingAuthorized = 2
}

/// Whether requesting authorization would show a prompt (HKAuthorizationRequestStatus).
public enum AuthorizationRequestStatus: Int, Codable, Sendable {
  case unknown = 0
  case shouldRequest = 1
  case unnecessary = 2
}

/// The app's read and write permissions per type, as the user set them.
public struct AuthorizationState: Codable, Hashable, Sendable {
  /// Write (share) decisions; a missing type is `authorized`, as after the user tapped Allow.
  public var write: [SampleType: AuthorizationDecision] = [:]
  /// Read decisions; a missing type is `authorized`.
  public var read: [SampleType: AuthorizationDecision] = [:]
  /// Limited read access: samples starting before the date are hidden (Z8).
  public var readNotBefore: [SampleType: Date] = [:]

  /// Everything allowed.
  public init() {}

  /// The write decision for a type.
  public func writeDecision(for type: SampleType) -> AuthorizationDecision {
    write[type] ?? .authorized
  }

  /// The read decision for a type.
  public func readDecision(for type: SampleType) -> AuthorizationDecision {
    read[type] ?? .authorized
  }
}
