/// Identifies a category type (HKCategoryTypeIdentifier). The simulator does not store
/// category samples yet: apps can name these types (in authorization requests, say), and
/// saving or querying them reports errorInvalidArgument with a message.
public struct HKCategoryTypeIdentifier: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }

  public static let sleepAnalysis = Self("HKCategoryTypeIdentifierSleepAnalysis")
  public static let mindfulSession = Self("HKCategoryTypeIdentifierMindfulSession")
  public static let appleStandHour = Self("HKCategoryTypeIdentifierAppleStandHour")
  public static let menstrualFlow = Self("HKCategoryTypeIdentifierMenstrualFlow")
}

/// A type of category samples (HKCategoryType).
public final class HKCategoryType: HKSampleType, @unchecked Sendable {
  /// The type for an identifier (iOS 15 and later).
  public init(_ identifier: HKCategoryTypeIdentifier) {
    super.init(identifier: identifier.rawValue)
  }
}

extension HKObjectType {
  /// The category type for an identifier.
  public class func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier)
    -> HKCategoryType?
  {
    HKCategoryType(identifier)
  }
}

/// Sleep stages (HKCategoryValueSleepAnalysis), with Apple's raw values.
public enum HKCategoryValueSleepAnalysis: Int, Sendable {
  case inBed = 0
  case asleepUnspecified = 1
  case awake = 2
  case asleepCore = 3
  case asleepDeep = 4
  case asleepREM = 5

  /// The name Apple deprecated in favour of `asleepUnspecified`.
  public static var asleep: HKCategoryValueSleepAnalysis { .asleepUnspecified }
}

/// A sample with a category value (HKCategorySample).
public final class HKCategorySample: HKSample, @unchecked Sendable {
  /// The value, one of the type's category values.
  public let value: Int
  /// The sample's type as a category type.
  public var categoryType: HKCategoryType {
    sampleType as? HKCategoryType ?? HKCategoryType(HKCategoryTypeIdentifier(sampleType.identifier))
  }

  /// A category sample.
  public convenience init(
    type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date
  ) {
    self.init(type: type, value: value, start: startDate, end: endDate, device: nil, metadata: nil)
  }

  /// A category sample with metadata.
  public convenience init(
    type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date,
    metadata: [String: Any]?
  ) {
    self.init(
      type: type, value: value, start: startDate, end: endDate, device: nil, metadata: metadata)
  }

  /// A category sample with a device and metadata.
  public init(
    type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date,
    device: HKDevice?, metadata: [String: Any]?
  ) {
    self.value = value
    let (uuid, revision) = HKSample.newIdentity()
    super.init(
      type: type, start: startDate, end: endDate, uuid: uuid, metadata: metadata,
      sourceRevision: revision, device: device)
  }
}
