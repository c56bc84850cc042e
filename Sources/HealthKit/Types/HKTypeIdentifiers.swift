/// Identifies a quantity type (HKQuantityTypeIdentifier); raw values are HealthKit's.
public struct HKQuantityTypeIdentifier: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }

  public static let bodyMass = Self("HKQuantityTypeIdentifierBodyMass")
  public static let height = Self("HKQuantityTypeIdentifierHeight")
  public static let bodyMassIndex = Self("HKQuantityTypeIdentifierBodyMassIndex")
  public static let bodyFatPercentage = Self("HKQuantityTypeIdentifierBodyFatPercentage")
  public static let leanBodyMass = Self("HKQuantityTypeIdentifierLeanBodyMass")
  public static let waistCircumference = Self("HKQuantityTypeIdentifierWaistCircumference")
  public static let bloodGlucose = Self("HKQuantityTypeIdentifierBloodGlucose")
  public static let stepCount = Self("HKQuantityTypeIdentifierStepCount")
  public static let distanceWalkingRunning = Self("HKQuantityTypeIdentifierDistanceWalkingRunning")
  public static let distanceCycling = Self("HKQuantityTypeIdentifierDistanceCycling")
  public static let flightsClimbed = Self("HKQuantityTypeIdentifierFlightsClimbed")
  public static let activeEnergyBurned = Self("HKQuantityTypeIdentifierActiveEnergyBurned")
  public static let basalEnergyBurned = Self("HKQuantityTypeIdentifierBasalEnergyBurned")
  public static let appleExerciseTime = Self("HKQuantityTypeIdentifierAppleExerciseTime")
  public static let heartRate = Self("HKQuantityTypeIdentifierHeartRate")
  public static let restingHeartRate = Self("HKQuantityTypeIdentifierRestingHeartRate")
  public static let bloodPressureSystolic = Self("HKQuantityTypeIdentifierBloodPressureSystolic")
  public static let bloodPressureDiastolic = Self(
    "HKQuantityTypeIdentifierBloodPressureDiastolic")
  public static let oxygenSaturation = Self("HKQuantityTypeIdentifierOxygenSaturation")
  public static let respiratoryRate = Self("HKQuantityTypeIdentifierRespiratoryRate")
  public static let bodyTemperature = Self("HKQuantityTypeIdentifierBodyTemperature")
  public static let dietaryEnergyConsumed = Self("HKQuantityTypeIdentifierDietaryEnergyConsumed")
  public static let dietaryWater = Self("HKQuantityTypeIdentifierDietaryWater")
}

/// Identifies a correlation type (HKCorrelationTypeIdentifier).
public struct HKCorrelationTypeIdentifier: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }

  public static let bloodPressure = Self("HKCorrelationTypeIdentifierBloodPressure")
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
    for (id, unit) in cumulative { table[id.rawValue] = .init(style: .cumulative, unitString: unit) }
    for (id, unit) in discrete {
      table[id.rawValue] = .init(style: .discreteArithmetic, unitString: unit)
    }
    for (id, unit) in weighted {
      table[id.rawValue] = .init(style: .discreteTemporallyWeighted, unitString: unit)
    }
    return table
  }()
}
