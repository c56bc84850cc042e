/// A workout's activity (HKWorkoutActivityType), spelled as HealthKit's Swift cases.
public enum WorkoutActivityType: String, Codable, Sendable, CaseIterable, Hashable {
  case functionalStrengthTraining
  case traditionalStrengthTraining
  case coreTraining
  case jumpRope
  case flexibility
  case yoga
  case walking
  case running
  case cycling
  case swimming
  case highIntensityIntervalTraining
  case other

  /// HealthKit's raw value (HKWorkoutActivityType).
  public var healthKitRawValue: Int {
    switch self {
    case .functionalStrengthTraining: return 20
    case .traditionalStrengthTraining: return 50
    case .coreTraining: return 59
    case .jumpRope: return 64
    case .flexibility: return 62
    case .yoga: return 57
    case .walking: return 52
    case .running: return 37
    case .cycling: return 13
    case .swimming: return 46
    case .highIntensityIntervalTraining: return 63
    case .other: return 3000
    }
  }

  /// The export spelling, e.g. `HKWorkoutActivityTypeFunctionalStrengthTraining`.
  public var exportName: String {
    "HKWorkoutActivityType" + rawValue.prefix(1).uppercased() + rawValue.dropFirst()
  }
}

/// The workout part of a workout sample (HKWorkout).
public struct WorkoutDetails: Hashable, Codable, Sendable {
  /// The activity.
  public let activityType: WorkoutActivityType
  /// The active duration in seconds.
  public let duration: Double
  /// Total energy burned in kcal, if known.
  public let totalEnergyBurned: Double?
  /// Total distance in metres, if known.
  public let totalDistance: Double?

  /// Workout details.
  public init(
    activityType: WorkoutActivityType, duration: Double, totalEnergyBurned: Double? = nil,
    totalDistance: Double? = nil
  ) {
    self.activityType = activityType
    self.duration = duration
    self.totalEnergyBurned = totalEnergyBurned
    self.totalDistance = totalDistance
  }
}
