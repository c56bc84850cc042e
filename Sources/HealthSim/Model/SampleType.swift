/// A kind of Health sample the simulator stores.
public enum SampleType: String, Codable, Sendable, CaseIterable, Hashable, Comparable {
  case bodyMass
  case bloodGlucose
  case stepCount
  case activeEnergyBurned
  case appleExerciseTime
  case workout

  /// How statistics combine this type's values.
  public var aggregationStyle: AggregationStyle {
    switch self {
    case .bodyMass, .bloodGlucose: return .discrete
    case .stepCount, .activeEnergyBurned, .appleExerciseTime: return .cumulative
    case .workout: return .none
    }
  }

  /// The canonical unit values of this type are stored in.
  public var canonicalUnit: HealthUnit {
    switch self {
    case .bodyMass: return .kilogram
    case .bloodGlucose: return .milligramsPerDeciliter
    case .stepCount: return .count
    case .activeEnergyBurned: return .kilocalorie
    case .appleExerciseTime, .workout: return .minute
    }
  }

  /// HealthKit's identifier, as written in Apple Health exports.
  public var identifier: String {
    switch self {
    case .bodyMass: return "HKQuantityTypeIdentifierBodyMass"
    case .bloodGlucose: return "HKQuantityTypeIdentifierBloodGlucose"
    case .stepCount: return "HKQuantityTypeIdentifierStepCount"
    case .activeEnergyBurned: return "HKQuantityTypeIdentifierActiveEnergyBurned"
    case .appleExerciseTime: return "HKQuantityTypeIdentifierAppleExerciseTime"
    case .workout: return "HKWorkoutTypeIdentifier"
    }
  }

  /// The type with a given HealthKit identifier, if the simulator models it.
  public init?(identifier: String) {
    guard let type = SampleType.allCases.first(where: { $0.identifier == identifier }) else {
      return nil
    }
    self = type
  }

  /// Whether the type is instantaneous (start equals end), as body mass is.
  public var isInstantaneous: Bool { self == .bodyMass || self == .bloodGlucose }

  /// The position of the type in `allCases`, for array-indexed per-type storage.
  var ordinal: Int { SampleType.allCases.firstIndex(of: self)! }

  public static func < (lhs: SampleType, rhs: SampleType) -> Bool { lhs.ordinal < rhs.ordinal }
}

/// How statistics aggregate a quantity type (HKQuantityAggregationStyle).
public enum AggregationStyle: String, Codable, Sendable {
  /// Values are averaged, and have a minimum, maximum and most recent value.
  case discrete
  /// Values add up over time.
  case cumulative
  /// Not a quantity (workouts).
  case none
}
