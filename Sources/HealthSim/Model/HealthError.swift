/// An error from the simulated store, with HealthKit's code (HKError.Code).
public struct HealthError: Error, Hashable, Sendable, CustomStringConvertible {
  /// HealthKit's error codes, with HealthKit's names and raw values.
  public enum Code: Int, Codable, Sendable {
    case noError = 0
    case errorHealthDataUnavailable = 1
    case errorHealthDataRestricted = 2
    case errorInvalidArgument = 3
    case errorAuthorizationDenied = 4
    case errorAuthorizationNotDetermined = 5
    case errorDatabaseInaccessible = 6
    case errorUserCanceled = 7
    case errorAnotherWorkoutSessionStarted = 8
    case errorUserExitedWorkoutSession = 9
    case errorRequiredAuthorizationDenied = 10
  }

  /// HealthKit's error domain (HKErrorDomain).
  public static let domain = "com.apple.healthkit"

  /// The code.
  public let code: Code
  /// A lower-case message that names the fix.
  public let message: String

  /// An error with a code and a message.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(message) (code \(code.rawValue))" }

  static let unavailable = HealthError(
    .errorHealthDataUnavailable, "health data is not available on this device")
  static let locked = HealthError(
    .errorDatabaseInaccessible, "the device is locked; unlock it to access health data")
}
