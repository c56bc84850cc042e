import HealthSim

/// A kind of data HealthKit stores (HKObjectType). Types are compared by identifier.
public class HKObjectType: NSObject, NSCopying, @unchecked Sendable {
  /// HealthKit's identifier, e.g. `HKQuantityTypeIdentifierBodyMass`.
  public let identifier: String

  init(identifier: String) {
    self.identifier = identifier
  }

  /// The quantity type for an identifier.
  public class func quantityType(forIdentifier identifier: HKQuantityTypeIdentifier)
    -> HKQuantityType?
  {
    QuantityTypeFacts.of(identifier.rawValue) == nil ? nil : HKQuantityType(identifier)
  }

  /// The correlation type for an identifier.
  public class func correlationType(forIdentifier identifier: HKCorrelationTypeIdentifier)
    -> HKCorrelationType?
  {
    HKCorrelationType(identifier)
  }

  /// The workout type.
  public class func workoutType() -> HKWorkoutType { HKWorkoutType() }

  /// The engine's type, when the simulator stores this kind of data.
  var simulated: SampleType? { SampleType(identifier: identifier) }

  override public func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? HKObjectType else { return false }
    return other.identifier == identifier
  }

  override public var hash: Int { identifier.hashValue }
  override public var description: String { identifier }
  public func copy(with zone: NSZone? = nil) -> Any { self }

  /// The type an engine sample belongs to.
  static func of(_ type: SampleType) -> HKSampleType {
    if type == .workout { return HKWorkoutType() }
    if type.isCorrelation {
      return HKCorrelationType(HKCorrelationTypeIdentifier(type.identifier))
    }
    return HKQuantityType(HKQuantityTypeIdentifier(type.identifier))
  }
}

/// A type of samples: data with a start and an end (HKSampleType).
public class HKSampleType: HKObjectType, @unchecked Sendable {
  /// Whether samples of the type have a maximum duration (none here does).
  public var isMaximumDurationRestricted: Bool { false }
  /// Whether samples of the type have a minimum duration (none here does).
  public var isMinimumDurationRestricted: Bool { false }
}

/// A type of quantity samples (HKQuantityType).
public final class HKQuantityType: HKSampleType, @unchecked Sendable {
  /// The type for an identifier (iOS 15 and later).
  public init(_ identifier: HKQuantityTypeIdentifier) {
    super.init(identifier: identifier.rawValue)
  }

  /// How statistics combine the type's values.
  public var aggregationStyle: HKQuantityAggregationStyle {
    QuantityTypeFacts.of(identifier)?.style ?? .discreteArithmetic
  }

  /// Whether quantities in `unit` can be stored in this type.
  public func `is`(compatibleWith unit: HKUnit) -> Bool {
    guard let facts = QuantityTypeFacts.of(identifier) else { return false }
    return HKUnit(from: facts.unitString).conversionFactor(to: unit) != nil
  }

  /// Whether a quantity can be a value of this type.
  func accepts(_ quantity: HKQuantity) -> Bool {
    guard let facts = QuantityTypeFacts.of(identifier) else { return false }
    return quantity.is(compatibleWith: HKUnit(from: facts.unitString))
  }

  /// The unit the engine keeps this type's values in.
  var engineUnit: HKUnit? {
    guard let simulated else { return nil }
    return HKUnit(from: simulated.canonicalUnit.unitString)
  }
}

/// A type of correlations, such as blood pressure (HKCorrelationType).
public final class HKCorrelationType: HKSampleType, @unchecked Sendable {
  /// The type for an identifier (iOS 15 and later).
  public init(_ identifier: HKCorrelationTypeIdentifier) {
    super.init(identifier: identifier.rawValue)
  }
}

/// The type of workouts (HKWorkoutType).
public final class HKWorkoutType: HKSampleType, @unchecked Sendable {
  init() { super.init(identifier: HKWorkoutTypeIdentifier) }
}
