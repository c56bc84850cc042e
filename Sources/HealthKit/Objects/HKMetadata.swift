// swift-format-ignore-file: AlwaysUseLowerCamelCase

// (HealthKit's global names are Apple's and must be spelled as Apple spells them.)
import HealthSim

// HealthKit's metadata keys, with Apple's raw values.
/// Whether the user entered the sample by hand (a boolean).
public let HKMetadataKeyWasUserEntered = "HKWasUserEntered"
/// The app's identifier for a sample, which a save with a higher sync version replaces.
public let HKMetadataKeySyncIdentifier = "HKMetadataKeySyncIdentifier"
/// The version of a sample with a sync identifier (a number); requires the identifier.
public let HKMetadataKeySyncVersion = "HKMetadataKeySyncVersion"
/// The sample's identifier in the app's own records.
public let HKMetadataKeyExternalUUID = "HKExternalUUID"
/// The time zone the sample was taken in (a time zone name).
public let HKMetadataKeyTimeZone = "HKTimeZone"
/// The name of the device that took the sample.
public let HKMetadataKeyDeviceName = "HKDeviceName"
/// The manufacturer of the device that took the sample.
public let HKMetadataKeyDeviceManufacturerName = "HKDeviceManufacturerName"
/// The serial number of the device that took the sample.
public let HKMetadataKeyDeviceSerialNumber = "HKDeviceSerialNumber"
/// Whether the sample was measured in a lab (a boolean).
public let HKMetadataKeyWasTakenInLab = "HKWasTakenInLab"
/// When a glucose reading was taken relative to a meal (HKBloodGlucoseMealTime's raw value).
public let HKMetadataKeyBloodGlucoseMealTime = "HKBloodGlucoseMealTime"
/// Whether a workout took place indoors (a boolean).
public let HKMetadataKeyIndoorWorkout = "HKIndoorWorkout"
/// The user's activity during a heart-rate reading (HKHeartRateMotionContext's raw value).
public let HKMetadataKeyHeartRateMotionContext = "HKHeartRateMotionContext"
/// The name of a food, for dietary samples and food correlations.
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
