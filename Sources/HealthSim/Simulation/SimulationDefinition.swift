import Foundation

/// A simulated device writing samples on a schedule; Codable so an app can save it.
public struct SimulationDefinition: Codable, Hashable, Sendable {
  /// What the device measures.
  public enum Model: Codable, Hashable, Sendable {
    case scale(SimulatedScale)
    case glucose(SimulatedGlucoseMonitor)
    case steps(SimulatedStepCounter)

    /// The values a reading may take, in the sample type's canonical unit (kg, mg/dL,
    /// count). The same ranges as WeighKit's `ValueLimits` (a test keeps them equal): a
    /// simulation whose next reading falls outside stops instead of writing it.
    public var validValues: ClosedRange<Double> {
      switch self {
      case .scale: 0...1000
      case .glucose: 0...10_000
      case .steps: 0...1_000_000
      }
    }

    /// Whether `value` is a reading this model may write: finite, inside `validValues`, and
    /// above 0 for weights and glucose (a reading of 0 kg is no reading).
    public func accepts(_ value: Double) -> Bool {
      guard value.isFinite, validValues.contains(value) else { return false }
      if case .steps = self { return true }
      return value > validValues.lowerBound
    }

    /// The sample type the model writes.
    public var sampleType: SampleType {
      switch self {
      case .scale: return .bodyMass
      case .glucose: return .bloodGlucose
      case .steps: return .stepCount
      }
    }
  }

  /// A local time of day, e.g. 07:30.
  public struct TimeOfDay: Codable, Hashable, Sendable {
    /// Hour, 0–23.
    public var hour: Int
    /// Minute, 0–59.
    public var minute: Int

    /// A time of day.
    public init(hour: Int, minute: Int) {
      self.hour = hour
      self.minute = minute
    }
  }

  /// The simulation's unique name (`as <name>`).
  public var name: String
  /// The device model.
  public var model: Model
  /// Time between readings, in seconds.
  public var interval: TimeInterval
  /// A fixed local time for readings, for intervals of whole days.
  public var timeOfDay: TimeOfDay?
  /// The time zone `timeOfDay` is read in.
  public var timeZoneIdentifier: String
  /// When the simulation starts; elapsed time for drift counts from here.
  public var start: Date
  /// The writing source.
  public var source: HealthSource
  /// The source's version.
  public var sourceVersion: String?
  /// The measuring device.
  public var device: HealthDevice?

  /// A simulation definition.
  public init(
    name: String, model: Model, interval: TimeInterval, timeOfDay: TimeOfDay? = nil,
    timeZoneIdentifier: String = "UTC", start: Date, source: HealthSource,
    sourceVersion: String? = nil, device: HealthDevice? = nil
  ) {
    self.name = name
    self.model = model
    self.interval = interval
    self.timeOfDay = timeOfDay
    self.timeZoneIdentifier = timeZoneIdentifier
    self.start = start
    self.source = source
    self.sourceVersion = sourceVersion
    self.device = device
  }

  /// The first reading: one interval after the start, or the first `timeOfDay` after it.
  public var firstReading: Date {
    guard let timeOfDay, let calendar = localCalendar else {
      return reading(after: start)
    }
    let day = calendar.startOfDay(for: start)
    var candidate =
      calendar.date(bySettingHour: timeOfDay.hour, minute: timeOfDay.minute, second: 0, of: day)
      ?? start
    if candidate <= start {
      candidate = calendar.date(byAdding: .day, value: 1, to: candidate) ?? candidate + 86_400
    }
    return candidate
  }

  /// The reading after the one at `date`; whole-day intervals keep the local time across DST.
  public func reading(after date: Date) -> Date {
    // weigh declares intervals of 1 min … 1000 years; a definition from elsewhere (a damaged
    // state) is held to that range, so that a schedule always moves forward.
    let interval = interval.isFinite ? min(max(interval, 60), 31_556_952_000) : 86_400
    let days = interval / 86_400
    if timeOfDay != nil, days >= 1, days == days.rounded(), let whole = Int(exactly: days),
      let calendar = localCalendar,
      let next = calendar.date(byAdding: .day, value: whole, to: date)
    {
      return next
    }
    return date.addingTimeInterval(interval)
  }

  private var localCalendar: Calendar? {
    guard let zone = TimeZone(identifier: timeZoneIdentifier) else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar
  }
}

/// A running simulation: its definition and where its schedule stands.
public struct SimulationState: Codable, Hashable, Sendable {
  /// The definition.
  public var definition: SimulationDefinition
  /// When the next reading is due.
  public var nextReading: Date
  /// Readings written so far.
  public var readings: Int
  /// The scheduler entry for the next reading; other entries for this name are stale.
  var sequence: UInt64
}

/// What a catch-up run did.
public struct CatchUpReport: Hashable, Sendable {
  /// Readings that fell due in the interval.
  public let due: Int
  /// Readings written (the newest ones, at most the limit).
  public let written: Int
  /// The events of the writes and deliveries that followed.
  public let events: [HealthEvent]

  /// Readings that were due but skipped because of the limit.
  public var skipped: Int { due - written }
}
