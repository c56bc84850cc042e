// swift-format-ignore-file: AlwaysUseLowerCamelCase

// (HealthKit's global names are Apple's and must be spelled as Apple spells them.)
/// Identifies a quantity type (HKQuantityTypeIdentifier); raw values are HealthKit's.
public struct HKQuantityTypeIdentifier: RawRepresentable, Hashable, Sendable {
  /// HealthKit's identifier string.
  public let rawValue: String
  /// An identifier from its string.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// An identifier from its string.
  public init(_ rawValue: String) { self.rawValue = rawValue }

  /// Body mass (kg).
  public static let bodyMass = Self("HKQuantityTypeIdentifierBodyMass")
  /// Height (m).
  public static let height = Self("HKQuantityTypeIdentifierHeight")
  /// Body mass index (count).
  public static let bodyMassIndex = Self("HKQuantityTypeIdentifierBodyMassIndex")
  /// Body fat percentage (%).
  public static let bodyFatPercentage = Self("HKQuantityTypeIdentifierBodyFatPercentage")
  /// Lean body mass (kg).
  public static let leanBodyMass = Self("HKQuantityTypeIdentifierLeanBodyMass")
  /// Waist circumference (m).
  public static let waistCircumference = Self("HKQuantityTypeIdentifierWaistCircumference")
  /// Blood glucose (mg/dL).
  public static let bloodGlucose = Self("HKQuantityTypeIdentifierBloodGlucose")
  /// Steps (count).
  public static let stepCount = Self("HKQuantityTypeIdentifierStepCount")
  /// Distance walked or run (m).
  public static let distanceWalkingRunning = Self("HKQuantityTypeIdentifierDistanceWalkingRunning")
  /// Distance cycled (m).
  public static let distanceCycling = Self("HKQuantityTypeIdentifierDistanceCycling")
  /// Flights of stairs climbed (count).
  public static let flightsClimbed = Self("HKQuantityTypeIdentifierFlightsClimbed")
  /// Active energy burned (kcal).
  public static let activeEnergyBurned = Self("HKQuantityTypeIdentifierActiveEnergyBurned")
  /// Resting energy burned (kcal).
  public static let basalEnergyBurned = Self("HKQuantityTypeIdentifierBasalEnergyBurned")
  /// Exercise time (min).
  public static let appleExerciseTime = Self("HKQuantityTypeIdentifierAppleExerciseTime")
  /// Heart rate (count/min).
  public static let heartRate = Self("HKQuantityTypeIdentifierHeartRate")
  /// Resting heart rate (count/min).
  public static let restingHeartRate = Self("HKQuantityTypeIdentifierRestingHeartRate")
  /// Systolic blood pressure (mmHg).
  public static let bloodPressureSystolic = Self("HKQuantityTypeIdentifierBloodPressureSystolic")
  /// Diastolic blood pressure (mmHg).
  public static let bloodPressureDiastolic = Self(
    "HKQuantityTypeIdentifierBloodPressureDiastolic")
  /// Blood oxygen saturation (%).
  public static let oxygenSaturation = Self("HKQuantityTypeIdentifierOxygenSaturation")
  /// Respiratory rate (count/min).
  public static let respiratoryRate = Self("HKQuantityTypeIdentifierRespiratoryRate")
  /// Body temperature (degC).
  public static let bodyTemperature = Self("HKQuantityTypeIdentifierBodyTemperature")
  /// Dietary energy (kcal).
  public static let dietaryEnergyConsumed = Self("HKQuantityTypeIdentifierDietaryEnergyConsumed")
  /// Water drunk (L).
  public static let dietaryWater = Self("HKQuantityTypeIdentifierDietaryWater")
}

/// Identifies a correlation type (HKCorrelationTypeIdentifier).
public struct HKCorrelationTypeIdentifier: RawRepresentable, Hashable, Sendable {
  /// HealthKit's identifier string.
  public let rawValue: String
  /// An identifier from its string.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// An identifier from its string.
  public init(_ rawValue: String) { self.rawValue = rawValue }

  /// Blood pressure: a systolic and a diastolic sample.
  public static let bloodPressure = Self("HKCorrelationTypeIdentifierBloodPressure")
  /// A food: its nutrition samples.
  public static let food = Self("HKCorrelationTypeIdentifierFood")
}

/// HealthKit's identifier of the workout type.
public let HKWorkoutTypeIdentifier = "HKWorkoutTypeIdentifier"

/// How statistics combine a quantity type's values (HKQuantityAggregationStyle).
public enum HKQuantityAggregationStyle: Int, Sendable {
  case cumulative = 0
  case discreteArithmetic = 1
  case discreteTemporallyWeighted = 2
  case discreteEquivalentContinuousLevel = 3

  /// The name Apple deprecated in favour of `discreteArithmetic`.
  public static var discrete: HKQuantityAggregationStyle { .discreteArithmetic }
}

/// What HealthKit knows of each quantity type: its aggregation and the unit its values
/// convert to (any unit of the same kind is accepted).
struct QuantityTypeFacts {
  let style: HKQuantityAggregationStyle
  let unitString: String

  static func of(_ identifier: String) -> QuantityTypeFacts? { table[identifier] }

  private static let table: [String: QuantityTypeFacts] = {
    typealias Id = HKQuantityTypeIdentifier
    let cumulative: [(Id, String)] = [
      (.stepCount, "count"), (.distanceWalkingRunning, "m"), (.distanceCycling, "m"),
      (.flightsClimbed, "count"), (.activeEnergyBurned, "kcal"), (.basalEnergyBurned, "kcal"),
      (.appleExerciseTime, "min"), (.dietaryEnergyConsumed, "kcal"), (.dietaryWater, "L"),
    ]
    let discrete: [(Id, String)] = [
      (.bodyMass, "kg"), (.height, "m"), (.bodyMassIndex, "count"), (.bodyFatPercentage, "%"),
      (.leanBodyMass, "kg"), (.waistCircumference, "m"), (.bloodGlucose, "mg/dL"),
      (.bloodPressureSystolic, "mmHg"), (.bloodPressureDiastolic, "mmHg"),
      (.oxygenSaturation, "%"), (.bodyTemperature, "degC"),
    ]
    let weighted: [(Id, String)] = [
      (.heartRate, "count/min"), (.restingHeartRate, "count/min"),
      (.respiratoryRate, "count/min"),
    ]
    var table: [String: QuantityTypeFacts] = [:]
    for (id, unit) in cumulative {
      table[id.rawValue] = .init(style: .cumulative, unitString: unit)
    }
    for (id, unit) in discrete {
      table[id.rawValue] = .init(style: .discreteArithmetic, unitString: unit)
    }
    for (id, unit) in weighted {
      table[id.rawValue] = .init(style: .discreteTemporallyWeighted, unitString: unit)
    }
    return table
  }()
}
