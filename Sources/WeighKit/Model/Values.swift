import HealthSim

/// What a quantity measures; `health add` takes the sample type from it.
public enum QuantityKind: String, CaseIterable, Sendable {
  case mass
  case length
  case glucose
  case count
  case energy
  case time
}

/// A number with a unit, converted to its kind's canonical unit: kg, m, mg/dL, steps,
/// kcal, or seconds.
public struct Quantity: Equatable, Sendable {
  public var value: Double
  public var kind: QuantityKind
  /// The unit as written, lower-cased (`kg`, `lbs`, `st+lb`, `mmol/l`).
  public var unit: String

  public init(value: Double, kind: QuantityKind, unit: String) {
    self.value = value
    self.kind = kind
    self.unit = unit
  }
}

/// Blood glucose conversion, exactly as HealthKit converts: 1 mmol/L = 18.015588000005408
/// mg/dL (HKUnitMolarMassBloodGlucose / 10), the one factor Health uses too.
public let milligramsPerDeciliterPerMillimole =
  HealthUnit.milligramsPerDeciliterPerMillimolePerLiter

/// A unit suffix that weigh reads, and how to reach its kind's canonical unit.
struct UnitDefinition: Sendable {
  var kind: QuantityKind
  var factor: Double

  static let table: [String: UnitDefinition] = [
    "kg": .init(kind: .mass, factor: 1),
    "g": .init(kind: .mass, factor: 0.001),
    "lb": .init(kind: .mass, factor: MassUnit.lb.kilograms),
    "lbs": .init(kind: .mass, factor: MassUnit.lb.kilograms),
    "st": .init(kind: .mass, factor: MassUnit.st.kilograms),
    "cm": .init(kind: .length, factor: 0.01),
    "m": .init(kind: .length, factor: 1),
    "mm": .init(kind: .length, factor: 0.001),
    "ft": .init(kind: .length, factor: 0.3048),
    "in": .init(kind: .length, factor: 0.0254),
    "mg/dl": .init(kind: .glucose, factor: 1),
    "mmol/l": .init(kind: .glucose, factor: milligramsPerDeciliterPerMillimole),
    "steps": .init(kind: .count, factor: 1),
    "step": .init(kind: .count, factor: 1),
    "kcal": .init(kind: .energy, factor: 1),
    "s": .init(kind: .time, factor: 1),
    "sec": .init(kind: .time, factor: 1),
    "min": .init(kind: .time, factor: 60),
    "h": .init(kind: .time, factor: 3600),
    "d": .init(kind: .time, factor: 86_400),
    "w": .init(kind: .time, factor: 604_800),
  ]

  /// Units that only make sense as durations, also spelled out (`3 days`).
  static let durationWords: [String: Double] = [
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86_400, "day": 86_400, "days": 86_400,
    "w": 604_800, "wk": 604_800, "week": 604_800, "weeks": 604_800,
  ]

  /// Every unit name, for completion and "expected one of" messages.
  static let massNames = ["kg", "g", "lb", "lbs", "st"]
}

/// A length of time in seconds.
public struct TimeSpan: Equatable, Sendable {
  public var seconds: Int64
  public init(seconds: Int64) { self.seconds = seconds }

  /// `1d`, `15min`, `90s`: the largest unit that divides the duration exactly.
  public var description: String {
    for (unit, size) in [("w", Int64(604_800)), ("d", 86_400), ("h", 3600), ("min", 60)]
    where seconds != 0 && seconds % size == 0 {
      return "\(seconds / size)\(unit)"
    }
    return "\(seconds)s"
  }
}

/// A quantity per duration (`-0.5kg/w`), stored per second.
public struct Rate: Equatable, Sendable {
  public var perSecond: Double
  public var kind: QuantityKind
  public init(perSecond: Double, kind: QuantityKind) {
    self.perSecond = perSecond
    self.kind = kind
  }
}
