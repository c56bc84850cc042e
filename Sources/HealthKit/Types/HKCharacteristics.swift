/// Identifies a characteristic type (HKCharacteristicTypeIdentifier).
public struct HKCharacteristicTypeIdentifier: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }

  public static let biologicalSex = Self("HKCharacteristicTypeIdentifierBiologicalSex")
  public static let dateOfBirth = Self("HKCharacteristicTypeIdentifierDateOfBirth")
  public static let bloodType = Self("HKCharacteristicTypeIdentifierBloodType")
}

/// A fact about the user that does not change over time (HKCharacteristicType).
public final class HKCharacteristicType: HKObjectType, @unchecked Sendable {
  /// The type for an identifier (iOS 15 and later).
  public init(_ identifier: HKCharacteristicTypeIdentifier) {
    super.init(identifier: identifier.rawValue)
  }
}

extension HKObjectType {
  /// The characteristic type for an identifier.
  public class func characteristicType(forIdentifier identifier: HKCharacteristicTypeIdentifier)
    -> HKCharacteristicType?
  {
    HKCharacteristicType(identifier)
  }
}

/// The user's sex as Health records it (HKBiologicalSex), with Apple's raw values.
public enum HKBiologicalSex: Int, Sendable {
  case notSet = 0
  case female = 1
  case male = 2
  case other = 3
}

/// The user's biological sex (HKBiologicalSexObject).
public final class HKBiologicalSexObject: NSObject, @unchecked Sendable {
  public let biologicalSex: HKBiologicalSex

  init(_ sex: HKBiologicalSex) {
    biologicalSex = sex
  }
}

extension HKHealthStore {
  /// The user's date of birth; errorNoData when the user has not entered one
  /// (`SimulatedDevice.setDateOfBirth`).
  public func dateOfBirthComponents() throws -> DateComponents {
    guard let date = device.characteristics.dateOfBirth else {
      throw HKError(.errorNoData, message: "no date of birth is set on this device")
    }
    return date
  }

  /// The user's biological sex; `.notSet` unless the device has one.
  public func biologicalSex() throws -> HKBiologicalSexObject {
    HKBiologicalSexObject(device.characteristics.biologicalSex)
  }
}

/// What the user entered in Health about themselves.
struct UserCharacteristics: Sendable {
  var dateOfBirth: DateComponents?
  var biologicalSex = HKBiologicalSex.notSet
}

extension SimulatedDevice {
  /// The user enters a date of birth in Health (nil clears it).
  public func setDateOfBirth(_ components: DateComponents?) {
    updateCharacteristics { $0.dateOfBirth = components }
  }

  /// The user enters a biological sex in Health.
  public func setBiologicalSex(_ sex: HKBiologicalSex) {
    updateCharacteristics { $0.biologicalSex = sex }
  }
}
