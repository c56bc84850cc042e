/// A `WorkoutEvent` inside a workout (pause, resume, lap, segment).
public struct HealthExportWorkoutEvent: Hashable, Sendable {
  /// e.g. `HKWorkoutEventTypePause`.
  public var type: String
  /// When the event happened.
  public var date: HealthExportDate
  /// Its duration as written, when it has one.
  public var duration: String?
  /// The unit of `duration` (`min`).
  public var durationUnit: String?
  /// Its `MetadataEntry` children.
  public var metadata: [HealthExportMetadataEntry]

  /// A workout event.
  public init(
    type: String, date: HealthExportDate, duration: String? = nil, durationUnit: String? = nil,
    metadata: [HealthExportMetadataEntry] = []
  ) {
    self.type = type
    self.date = date
    self.duration = duration
    self.durationUnit = durationUnit
    self.metadata = metadata
  }
}

/// A `WorkoutStatistics` element: one quantity summed or averaged over a workout.
public struct HealthExportWorkoutStatistics: Hashable, Sendable {
  /// e.g. `HKQuantityTypeIdentifierActiveEnergyBurned`.
  public var type: String
  /// Start of the period.
  public var startDate: HealthExportDate
  /// End of the period.
  public var endDate: HealthExportDate
  /// Average, minimum, maximum and sum, as written.
  public var average: String?
  public var minimum: String?
  public var maximum: String?
  public var sum: String?
  /// The unit of the numbers.
  public var unit: String?

  /// Workout statistics.
  public init(
    type: String, startDate: HealthExportDate, endDate: HealthExportDate, average: String? = nil,
    minimum: String? = nil, maximum: String? = nil, sum: String? = nil, unit: String? = nil
  ) {
    self.type = type
    self.startDate = startDate
    self.endDate = endDate
    self.average = average
    self.minimum = minimum
    self.maximum = maximum
    self.sum = sum
    self.unit = unit
  }
}

/// A `WorkoutRoute` inside a workout: who recorded it, when, and the file of its
/// locations (`FileReference path=…`); older exports' inline `Location`s are not kept.
public struct HealthExportWorkoutRoute: Hashable, Sendable {
  /// The app or device that recorded the route.
  public var sourceName: String
  public var sourceVersion: String?
  /// The device in Apple's description form.
  public var device: String?
  public var creationDate: HealthExportDate?
  public var startDate: HealthExportDate
  public var endDate: HealthExportDate
  /// Its `MetadataEntry` children.
  public var metadata: [HealthExportMetadataEntry]
  /// The `path` of its `FileReference` child, e.g. `/workout-routes/route_….gpx`.
  public var filePath: String?

  /// A route; optional attributes default to absent.
  public init(
    sourceName: String, sourceVersion: String? = nil, device: String? = nil,
    creationDate: HealthExportDate? = nil, startDate: HealthExportDate,
    endDate: HealthExportDate, metadata: [HealthExportMetadataEntry] = [],
    filePath: String? = nil
  ) {
    self.sourceName = sourceName
    self.sourceVersion = sourceVersion
    self.device = device
    self.creationDate = creationDate
    self.startDate = startDate
    self.endDate = endDate
    self.metadata = metadata
    self.filePath = filePath
  }
}

/// One `Workout` of an Apple Health export.
public struct HealthExportWorkout: Hashable, Sendable {
  /// e.g. `HKWorkoutActivityTypeRunning`.
  public var activityType: String
  /// The duration as written, in `durationUnit`.
  public var duration: String?
  /// Usually `min`.
  public var durationUnit: String?
  /// Total distance as written (absent in iOS 16+ exports, which use statistics).
  public var totalDistance: String?
  public var totalDistanceUnit: String?
  /// Total energy as written.
  public var totalEnergyBurned: String?
  public var totalEnergyBurnedUnit: String?
  /// The app or device that wrote the workout.
  public var sourceName: String
  public var sourceVersion: String?
  /// The device in Apple's description form.
  public var device: String?
  public var creationDate: HealthExportDate?
  public var startDate: HealthExportDate
  public var endDate: HealthExportDate
  /// Attributes Apple does not define (iOS 8 wrote metadata as attributes), then the
  /// direct `MetadataEntry` children.
  public var metadata: [HealthExportMetadataEntry]
  /// Whether the reader repaired the element: attributes whose names hold spaces (a defect of
  /// 2015 exports), kept in `metadata`.
  public var repairedAttributes = false
  /// `WorkoutEvent` children.
  public var events: [HealthExportWorkoutEvent]
  /// `WorkoutStatistics` children.
  public var statistics: [HealthExportWorkoutStatistics]
  /// `WorkoutRoute` children.
  public var routes: [HealthExportWorkoutRoute]

  /// A workout; optional attributes default to absent.
  public init(
    activityType: String, duration: String? = nil, durationUnit: String? = nil,
    totalDistance: String? = nil, totalDistanceUnit: String? = nil,
    totalEnergyBurned: String? = nil, totalEnergyBurnedUnit: String? = nil,
    sourceName: String, sourceVersion: String? = nil, device: String? = nil,
    creationDate: HealthExportDate? = nil, startDate: HealthExportDate,
    endDate: HealthExportDate, metadata: [HealthExportMetadataEntry] = [],
    events: [HealthExportWorkoutEvent] = [], statistics: [HealthExportWorkoutStatistics] = [],
    routes: [HealthExportWorkoutRoute] = []
  ) {
    self.activityType = activityType
    self.duration = duration
    self.durationUnit = durationUnit
    self.totalDistance = totalDistance
    self.totalDistanceUnit = totalDistanceUnit
    self.totalEnergyBurned = totalEnergyBurned
    self.totalEnergyBurnedUnit = totalEnergyBurnedUnit
    self.sourceName = sourceName
    self.sourceVersion = sourceVersion
    self.device = device
    self.creationDate = creationDate
    self.startDate = startDate
    self.endDate = endDate
    self.metadata = metadata
    self.events = events
    self.statistics = statistics
    self.routes = routes
  }

  /// The duration in minutes, when written in `min`, `s` or `hr`.
  public var durationMinutes: Double? {
    guard let duration, let value = DecimalText.parseJSONNumber(duration) else { return nil }
    switch durationUnit ?? "min" {
    case "min": return value
    case "s": return value / 60
    case "hr", "h": return value * 60
    default: return nil
    }
  }
}
