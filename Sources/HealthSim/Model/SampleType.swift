/// A kind of Health sample the simulator stores.
///
/// The raw values are stored on disk: existing cases keep theirs, and new cases are added
/// at the end, so `allCases` order (and `<`) keeps the old types first.
public enum SampleType: String, Codable, Sendable, CaseIterable, Hashable, Comparable {
  case bodyMass
  case bloodGlucose
  case stepCount
  case activeEnergyBurned
  case appleExerciseTime
  case workout
  case height
  case bodyMassIndex
  case bodyFatPercentage
  case leanBodyMass
  case basalEnergyBurned
  case distanceWalkingRunning
  case heartRate
  case bloodPressureSystolic
  case bloodPressureDiastolic
  /// The blood-pressure correlation (HKCorrelationTypeIdentifierBloodPressure): a sample
  /// without a value whose `objects` are one systolic and one diastolic sample.
  case bloodPressure

  /// How statistics combine this type's values. Apple's documentation lists body mass and
  /// heart rate among the discrete types; the simulator averages every discrete type
  /// arithmetically. Correlations and workouts are not quantities.
  public var aggregationStyle: AggregationStyle {
    switch self {
    case .bodyMass, .bloodGlucose, .height, .bodyMassIndex, .bodyFatPercentage, .leanBodyMass,
      .heartRate, .bloodPressureSystolic, .bloodPressureDiastolic:
      return .discrete
    case .stepCount, .activeEnergyBurned, .appleExerciseTime, .basalEnergyBurned,
      .distanceWalkingRunning:
      return .cumulative
    case .workout, .bloodPressure: return .none
    }
  }

  /// The canonical unit values of this type are stored in. Body fat is a fraction (0.25
  /// for 25 %), as HealthKit's `%` unit holds it. A correlation has no value of its own;
  /// its unit is `count` and its value 0.
  public var canonicalUnit: HealthUnit {
    switch self {
    case .bodyMass, .leanBodyMass: return .kilogram
    case .bloodGlucose: return .milligramsPerDeciliter
    case .stepCount, .bodyMassIndex, .bloodPressure: return .count
    case .activeEnergyBurned, .basalEnergyBurned: return .kilocalorie
    case .appleExerciseTime, .workout: return .minute
    case .height, .distanceWalkingRunning: return .meter
    case .bodyFatPercentage: return .percent
    case .heartRate: return .countPerMinute
    case .bloodPressureSystolic, .bloodPressureDiastolic: return .millimeterOfMercury
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
    case .height: return "HKQuantityTypeIdentifierHeight"
    case .bodyMassIndex: return "HKQuantityTypeIdentifierBodyMassIndex"
    case .bodyFatPercentage: return "HKQuantityTypeIdentifierBodyFatPercentage"
    case .leanBodyMass: return "HKQuantityTypeIdentifierLeanBodyMass"
    case .basalEnergyBurned: return "HKQuantityTypeIdentifierBasalEnergyBurned"
    case .distanceWalkingRunning: return "HKQuantityTypeIdentifierDistanceWalkingRunning"
    case .heartRate: return "HKQuantityTypeIdentifierHeartRate"
    case .bloodPressureSystolic: return "HKQuantityTypeIdentifierBloodPressureSystolic"
    case .bloodPressureDiastolic: return "HKQuantityTypeIdentifierBloodPressureDiastolic"
    case .bloodPressure: return "HKCorrelationTypeIdentifierBloodPressure"
    }
  }

  /// The type with a given HealthKit identifier, if the simulator models it.
  public init?(identifier: String) {
    guard let type = SampleType.allCases.first(where: { $0.identifier == identifier }) else {
      return nil
    }
    self = type
  }

  /// Whether the type is instantaneous (start equals end when the language or an import
  /// creates a sample), as body mass is: the discrete types and the blood-pressure
  /// correlation. Cumulative types and workouts span an interval.
  public var isInstantaneous: Bool { aggregationStyle == .discrete || self == .bloodPressure }

  /// Whether the type is a correlation (HKCorrelationType), whose samples group others.
  public var isCorrelation: Bool { self == .bloodPressure }

  /// The types a correlation of this type holds; empty for other types. Permissions of a
  /// correlation are those of its member types (HKCorrelationQuery's documentation).
  public var memberTypes: [SampleType] {
    self == .bloodPressure ? [.bloodPressureSystolic, .bloodPressureDiastolic] : []
  }

  /// The types whose permissions apply to this type: a correlation's member types (an app
  /// never asks for a correlation type itself), otherwise the type.
  public var permissionTypes: [SampleType] { isCorrelation ? memberTypes : [self] }

  /// The correlation type whose samples may hold this type's samples, if any.
  public var correlationType: SampleType? {
    switch self {
    case .bloodPressureSystolic, .bloodPressureDiastolic: return .bloodPressure
    default: return nil
    }
  }

  /// The position of the type in `allCases`, for array-indexed per-type storage (a switch:
  /// `SampleTypeTests` checks it against `allCases`).
  var ordinal: Int {
    switch self {
    case .bodyMass: return 0
    case .bloodGlucose: return 1
    case .stepCount: return 2
    case .activeEnergyBurned: return 3
    case .appleExerciseTime: return 4
    case .workout: return 5
    case .height: return 6
    case .bodyMassIndex: return 7
    case .bodyFatPercentage: return 8
    case .leanBodyMass: return 9
    case .basalEnergyBurned: return 10
    case .distanceWalkingRunning: return 11
    case .heartRate: return 12
    case .bloodPressureSystolic: return 13
    case .bloodPressureDiastolic: return 14
    case .bloodPressure: return 15
    }
  }

  /// Hashes the case, not its raw value: an enum with raw values otherwise hashes its text
  /// (about 350 instructions a look-up, several per sample an import saves).
  public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

  public static func < (lhs: SampleType, rhs: SampleType) -> Bool { lhs.ordinal < rhs.ordinal }
}

/// How statistics aggregate a quantity type (HKQuantityAggregationStyle).
public enum AggregationStyle: String, Codable, Sendable {
  /// Values are averaged, and have a minimum, maximum and most recent value.
  case discrete
  /// Values add up over time.
  case cumulative
  /// Not a quantity (workouts, correlations).
  case none
}
