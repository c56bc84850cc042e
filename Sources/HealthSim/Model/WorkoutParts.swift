import Foundation

/// The kind of a workout event (HKWorkoutEventType), with HealthKit's raw values.
public enum WorkoutEventType: Int, Codable, Sendable, CaseIterable, Hashable {
  case pause = 1
  case resume = 2
  case lap = 3
  case marker = 4
  case motionPaused = 5
  case motionResumed = 6
  case segment = 7
  case pauseOrResumeRequest = 8

  /// The export spelling, e.g. `HKWorkoutEventTypePause`.
  public var exportName: String {
    let name = "\(self)"
    return "HKWorkoutEventType" + name.prefix(1).uppercased() + name.dropFirst()
  }

  /// The type an export spelling names, if HealthKit has it.
  public init?(exportName: String) {
    guard let type = Self.allCases.first(where: { $0.exportName == exportName }) else {
      return nil
    }
    self = type
  }
}

/// Something that happened during a workout (HKWorkoutEvent): a pause, a lap, a segment.
public struct WorkoutEvent: Hashable, Codable, Sendable {
  /// What happened.
  public let type: WorkoutEventType
  /// When it started.
  public let date: Date
  /// How long it lasted in seconds; 0 for an instant (a pause or a marker).
  public let duration: TimeInterval
  /// The event's metadata.
  public let metadata: Metadata

  /// An event.
  public init(
    type: WorkoutEventType, date: Date, duration: TimeInterval = 0, metadata: Metadata = [:]
  ) {
    self.type = type
    self.date = date
    self.duration = duration
    self.metadata = metadata
  }
}

/// One quantity over a workout (a WorkoutStatistics element, HKWorkout.statistics(for:)):
/// its type and unit as HealthKit spells them, and the values in that unit, so a type or
/// unit the simulator does not model is kept as it came.
public struct WorkoutStatistic: Hashable, Codable, Sendable {
  /// The quantity type's identifier, e.g. `HKQuantityTypeIdentifierHeartRate`.
  public let typeIdentifier: String
  /// The period the values cover.
  public let startDate: Date
  /// The end of the period.
  public let endDate: Date
  /// The average, minimum, maximum and sum, in `unit`, when known.
  public let average: Double?
  public let minimum: Double?
  public let maximum: Double?
  public let sum: Double?
  /// HealthKit's unit string for the values, e.g. `count/min` or `kcal`.
  public let unit: String

  /// Statistics of one quantity.
  public init(
    typeIdentifier: String, startDate: Date, endDate: Date, average: Double? = nil,
    minimum: Double? = nil, maximum: Double? = nil, sum: Double? = nil, unit: String
  ) {
    self.typeIdentifier = typeIdentifier
    self.startDate = startDate
    self.endDate = endDate
    self.average = average
    self.minimum = minimum
    self.maximum = maximum
    self.sum = sum
    self.unit = unit
  }

  /// The values that are present, for range checks.
  public var values: [Double] { [average, minimum, maximum, sum].compactMap { $0 } }
}

/// A workout's route (HKWorkoutRoute) as exports describe it: who recorded it, when, and
/// the file that holds its locations (`/workout-routes/route_….gpx`), if named.
public struct WorkoutRoute: Hashable, Codable, Sendable {
  /// The app or device that recorded the route.
  public let sourceRevision: SourceRevision?
  /// The recording device, if known.
  public let device: HealthDevice?
  /// When the route was saved.
  public let creationDate: Date?
  /// The route's start.
  public let startDate: Date
  /// The route's end.
  public let endDate: Date
  /// The route's metadata.
  public let metadata: Metadata
  /// The path of the GPX file in the export, e.g. `/workout-routes/route_2026-01-03.gpx`.
  public let filePath: String?

  /// A route.
  public init(
    sourceRevision: SourceRevision?, device: HealthDevice? = nil, creationDate: Date? = nil,
    startDate: Date, endDate: Date, metadata: Metadata = [:], filePath: String? = nil
  ) {
    self.sourceRevision = sourceRevision
    self.device = device
    self.creationDate = creationDate
    self.startDate = startDate
    self.endDate = endDate
    self.metadata = metadata
    self.filePath = filePath
  }
}

extension WorkoutDetails {
  /// Why Health refuses the details, if it does: a total or an event's duration that is
  /// not a finite number of 0 or more, a statistics value that is not finite, or a route
  /// that ends before it starts.
  var problem: String? {
    for (name, value) in [("energy", totalEnergyBurned), ("distance", totalDistance)] {
      if let value, !value.isFinite || value < 0 {
        return "the workout's total \(name) \(value) is not a finite number of 0 or more"
      }
    }
    if let event = events.first(where: { !$0.duration.isFinite || $0.duration < 0 }) {
      return
        "the \(event.type) event's duration \(event.duration) is not a finite number of 0 or more"
    }
    if let statistic = statistics.first(where: { !$0.values.allSatisfy(\.isFinite) }) {
      return "the statistics of \(statistic.typeIdentifier) hold a value that is not finite"
    }
    if routes.contains(where: { $0.endDate < $0.startDate }) {
      return "a workout route ends before it starts; swap its dates"
    }
    return nil
  }
}
