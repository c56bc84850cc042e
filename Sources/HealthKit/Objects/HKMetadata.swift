import HealthSim

// HealthKit's metadata keys, with Apple's raw values.
public let HKMetadataKeyWasUserEntered = "HKWasUserEntered"
public let HKMetadataKeySyncIdentifier = "HKMetadataKeySyncIdentifier"
public let HKMetadataKeySyncVersion = "HKMetadataKeySyncVersion"
public let HKMetadataKeyExternalUUID = "HKExternalUUID"
public let HKMetadataKeyTimeZone = "HKTimeZone"
public let HKMetadataKeyDeviceName = "HKDeviceName"
public let HKMetadataKeyDeviceManufacturerName = "HKDeviceManufacturerName"
public let HKMetadataKeyDeviceSerialNumber = "HKDeviceSerialNumber"
public let HKMetadataKeyWasTakenInLab = "HKWasTakenInLab"
public let HKMetadataKeyBloodGlucoseMealTime = "HKBloodGlucoseMealTime"
public let HKMetadataKeyIndoorWorkout = "HKIndoorWorkout"
public let HKMetadataKeyHeartRateMotionContext = "HKHeartRateMotionContext"
public let HKMetadataKeyFoodType = "HKFoodType"

/// Converts metadata between the app's dictionaries and the engine's typed values.
enum MetadataBridge {
  /// The engine's metadata for an app's dictionary; values must be strings, numbers,
  /// booleans, dates or quantities, as on a device.
  static func simulated(_ metadata: [String: Any]?) throws(HKError) -> Metadata {
    var result: Metadata = [:]
    for (key, value) in metadata ?? [:] {
      switch value {
      case let bool as Bool: result[key] = .bool(bool)
      case let text as String: result[key] = .string(text)
      case let date as Date: result[key] = .date(date)
      case let number as Int: result[key] = .number(Double(number))
      case let number as Double: result[key] = .number(number)
      case let number as Float: result[key] = .number(Double(number))
      case let number as NSNumber: result[key] = .number(number.doubleValue)
      case let quantity as HKQuantity: result[key] = .string(quantity.description)
      default:
        throw HKError(
          .errorInvalidArgument,
          message: "metadata value for \(key) is a \(type(of: value)); use a string, number, "
            + "date or HKQuantity")
      }
    }
    return result
  }

  /// The app's view of engine metadata: numbers as NSNumber, as a device returns them.
  static func app(_ metadata: Metadata) -> [String: Any]? {
    guard !metadata.isEmpty else { return nil }
    var result: [String: Any] = [:]
    for (key, value) in metadata {
      switch value {
      case .string(let text): result[key] = text
      case .number(let number):
        if let whole = Int(exactly: number) {
          result[key] = NSNumber(value: whole)
        } else {
          result[key] = NSNumber(value: number)
        }
      case .bool(let bool): result[key] = NSNumber(value: bool)
      case .date(let date): result[key] = date
      }
    }
    return result
  }
}
