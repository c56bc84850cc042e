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
  /// Pauses, laps, segments and markers, in time order (HKWorkout.workoutEvents).
  public let events: [WorkoutEvent]
  /// Quantities over the workout (HKWorkout.allStatistics), as recorded.
  public let statistics: [WorkoutStatistic]
  /// The routes recorded during the workout.
  public let routes: [WorkoutRoute]

  /// Workout details.
  public init(
    activityType: WorkoutActivityType, duration: Double, totalEnergyBurned: Double? = nil,
    totalDistance: Double? = nil, events: [WorkoutEvent] = [],
    statistics: [WorkoutStatistic] = [], routes: [WorkoutRoute] = []
  ) {
    self.activityType = activityType
    self.duration = duration
    self.totalEnergyBurned = totalEnergyBurned
    self.totalDistance = totalDistance
    self.events = events
    self.statistics = statistics
    self.routes = routes
  }

  private enum CodingKeys: String, CodingKey {
    case activityType, duration, totalEnergyBurned, totalDistance, events, statistics, routes
  }

  /// Decodes details; events, statistics and routes are optional (stores written before
  /// they existed have none).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    activityType = try container.decode(WorkoutActivityType.self, forKey: .activityType)
    duration = try container.decode(Double.self, forKey: .duration)
    totalEnergyBurned = try container.decodeIfPresent(Double.self, forKey: .totalEnergyBurned)
    totalDistance = try container.decodeIfPresent(Double.self, forKey: .totalDistance)
    events = try container.decodeIfPresent([WorkoutEvent].self, forKey: .events) ?? []
    statistics =
      try container.decodeIfPresent([WorkoutStatistic].self, forKey: .statistics) ?? []
    routes = try container.decodeIfPresent([WorkoutRoute].self, forKey: .routes) ?? []
  }

  /// Encodes details; empty events, statistics and routes are left out, so details without
  /// them encode as they did before they existed.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(activityType, forKey: .activityType)
    try container.encode(duration, forKey: .duration)
    try container.encodeIfPresent(totalEnergyBurned, forKey: .totalEnergyBurned)
    try container.encodeIfPresent(totalDistance, forKey: .totalDistance)
    if !events.isEmpty { try container.encode(events, forKey: .events) }
    if !statistics.isEmpty { try container.encode(statistics, forKey: .statistics) }
    if !routes.isEmpty { try container.encode(routes, forKey: .routes) }
  }
}
