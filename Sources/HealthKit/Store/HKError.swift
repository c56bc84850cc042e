// swift-format-ignore-file: AlwaysUseLowerCamelCase

// (HealthKit's global names are Apple's and must be spelled as Apple spells them.)
import HealthSim

/// HealthKit's error domain.
public let HKErrorDomain = "com.apple.healthkit"

/// An error from HealthKit (HKError), with Apple's codes. Completion handlers receive it as
/// `any Error`; `error as? HKError` and `catch HKError.errorAuthorizationDenied` work as on
/// a device, and so does `(error as NSError).code`.
public struct HKError: CustomNSError, Hashable, LocalizedError, Sendable {
  /// HealthKit's error codes, with Apple's raw values.
  public enum Code: Int, Sendable, Hashable {
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
    case errorNoData = 11
    case errorWorkoutActivityNotAllowed = 12
    case errorDataSizeExceeded = 13
    case errorBackgroundWorkoutSessionNotAllowed = 14
    case errorNotPermissibleForGuestUserMode = 15
  }

  /// The code.
  public let code: Code
  /// What went wrong and how to fix it.
  public let message: String

  /// An error with a code, as apps build one in tests; a localized description in
  /// `userInfo` becomes the message.
  public init(_ code: Code, userInfo: [String: Any] = [:]) {
    let message = userInfo[NSLocalizedDescriptionKey] as? String
    self.init(code, message: message ?? "HealthKit error \(code.rawValue)")
  }

  init(_ code: Code, message: String) {
    self.code = code
    self.message = message
  }

  init(_ error: HealthError) {
    self.init(Code(rawValue: error.code.rawValue) ?? .errorInvalidArgument, message: error.message)
  }

  public static var errorDomain: String { HKErrorDomain }
  public var errorCode: Int { code.rawValue }
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
  public var errorDescription: String? { message }

  public static func == (lhs: HKError, rhs: HKError) -> Bool { lhs.code == rhs.code }
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }

  /// Code 0: no error.
  public static var noError: Code { .noError }
  /// Code 1: Health is not available on the device.
  public static var errorHealthDataUnavailable: Code { .errorHealthDataUnavailable }
  /// Code 2: Health is restricted on the device.
  public static var errorHealthDataRestricted: Code { .errorHealthDataRestricted }
  /// Code 3: an argument is not valid.
  public static var errorInvalidArgument: Code { .errorInvalidArgument }
  /// Code 4: the app may not write this data.
  public static var errorAuthorizationDenied: Code { .errorAuthorizationDenied }
  /// Code 5: the app has not asked for this permission yet.
  public static var errorAuthorizationNotDetermined: Code { .errorAuthorizationNotDetermined }
  /// Code 6: the device is locked.
  public static var errorDatabaseInaccessible: Code { .errorDatabaseInaccessible }
  /// Code 7: the user canceled.
  public static var errorUserCanceled: Code { .errorUserCanceled }
  /// Code 10: a required permission was denied.
  public static var errorRequiredAuthorizationDenied: Code { .errorRequiredAuthorizationDenied }
  /// Code 11: there is no data for the request.
  public static var errorNoData: Code { .errorNoData }
}

/// `catch HKError.errorDatabaseInaccessible` and `case HKError.errorNoData` match by code.
public func ~= (code: HKError.Code, error: any Error) -> Bool {
  (error as? HKError)?.code == code
}
