import HealthSim

/// The app's access to Health data (HKHealthStore), on a simulated device.
///
/// Completion handlers run before the method returns, on the calling thread; on a
/// device they run later on a background queue. Code that waits for them works either way.
public class HKHealthStore: NSObject, @unchecked Sendable {
  /// The device the store reads and writes: the one given to `init(device:)`; else the
  /// device bound to the calling task (`SimulatedDevice.run`), so that an app's shared
  /// store (a singleton) follows each test's device; else the one current at `init()`.
  public var device: SimulatedDevice { given ?? SimulatedDevice.bound ?? creation }
  private let given: SimulatedDevice?
  private let creation: SimulatedDevice

  /// A store on the current task's simulated device (the shared one unless a test bound
  /// its own with `SimulatedDevice.run`).
  override public init() {
    given = nil
    creation = SimulatedDevice.current
  }

  /// A store on a given simulated device.
  public init(device: SimulatedDevice) {
    given = device
    creation = device
  }

  /// Whether Health is available on the current device.
  public class func isHealthDataAvailable() -> Bool {
    SimulatedDevice.current.call { $0.isHealthDataAvailable() }
  }

  /// Whether Health records (clinical data) are available: never in the simulator.
  public func supportsHealthRecords() -> Bool { false }

  /// The app's write permission for a type. Read permission is never shown, as on a device.
  public func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
    guard let simulated = type.simulated else { return .notDetermined }
    let status = device.call { $0.authorizationStatus(for: simulated) }
    return HKAuthorizationStatus(rawValue: status.rawValue) ?? .notDetermined
  }

  /// The earliest date samples may be queried or saved for (the simulator keeps all).
  public func earliestPermittedSampleDate() -> Date { Date.distantPast }

  // MARK: Engine calls with HealthKit's errors

  /// Runs an engine call, turning its error into an HKError.
  func perform<T>(_ body: (HealthStore) throws(HealthError) -> T) throws(HKError) -> T {
    do {
      return try device.call(body)
    } catch {
      throw HKError(error)
    }
  }
}

/// The app's write permission (HKAuthorizationStatus), with Apple's raw values.
public enum HKAuthorizationStatus: Int, Sendable {
  case notDetermined = 0
  case sharingDenied = 1
  case sharingAuthorized = 2
}

/// Whether asking for permissions would show a prompt (HKAuthorizationRequestStatus).
public enum HKAuthorizationRequestStatus: Int, Sendable {
  case unknown = 0
  case shouldRequest = 1
  case unnecessary = 2
}

/// How often background delivery may wake the app (HKUpdateFrequency).
public enum HKUpdateFrequency: Int, Sendable {
  case immediate = 1
  case hourly = 2
  case daily = 3
  case weekly = 4

  var simulated: UpdateFrequency { UpdateFrequency(rawValue: rawValue) ?? .immediate }
}
