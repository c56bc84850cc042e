/// A unit Health quantities are expressed in, with HealthKit's unit strings.
public struct HealthUnit: Hashable, Codable, Sendable, CustomStringConvertible {
  /// What the unit measures; conversions exist only within one dimension.
  public enum Dimension: String, Codable, Sendable {
    case mass, massConcentration, count, energy, time
    /// Length: canonical unit the meter.
    case length
    /// A fraction of a whole (`%`): canonical value 0–1, as HealthKit stores body fat.
    case fraction
    /// A count per time (`count/min`), as heart rate is measured.
    case frequency
    /// Pressure: canonical unit the millimeter of mercury.
    case pressure
  }

  /// HealthKit's unit string, e.g. `kg` or `mmol<180.15588000005408>/L`.
  public let unitString: String
  /// The unit's dimension.
  public let dimension: Dimension
  /// How many canonical units (kg, mg/dL, count, kcal, min, m, %, count/min, mmHg) one of
  /// this unit is.
  public let canonicalFactor: Double

  /// HealthKit's molar mass of glucose in g/mol (HKUnitMolarMassBloodGlucose).
  public static let glucoseMolarMass = 180.15588000005408
  /// mg/dL per mmol/L for blood glucose: the molar mass divided by 10.
  public static let milligramsPerDeciliterPerMillimolePerLiter = glucoseMolarMass / 10

  public static let kilogram = HealthUnit(unitString: "kg", dimension: .mass, canonicalFactor: 1)
  public static let gram = HealthUnit(unitString: "g", dimension: .mass, canonicalFactor: 0.001)
  public static let milligram = HealthUnit(
    unitString: "mg", dimension: .mass, canonicalFactor: 0.000_001)
  public static let ounce = HealthUnit(
    unitString: "oz", dimension: .mass, canonicalFactor: 0.028_349_523_125)
  public static let pound = HealthUnit(
    unitString: "lb", dimension: .mass, canonicalFactor: 0.453_592_37)
  public static let stone = HealthUnit(
    unitString: "st", dimension: .mass, canonicalFactor: 6.350_293_18)
  public static let milligramsPerDeciliter = HealthUnit(
    unitString: "mg/dL", dimension: .massConcentration, canonicalFactor: 1)
  public static let millimolesPerLiter = HealthUnit(
    unitString: "mmol<180.15588000005408>/L", dimension: .massConcentration,
    canonicalFactor: milligramsPerDeciliterPerMillimolePerLiter)
  public static let count = HealthUnit(unitString: "count", dimension: .count, canonicalFactor: 1)
  public static let kilocalorie = HealthUnit(
    unitString: "kcal", dimension: .energy, canonicalFactor: 1)
  /// The large calorie as exports spell it (`Cal`), equal to a kilocalorie.
  public static let largeCalorie = HealthUnit(
    unitString: "Cal", dimension: .energy, canonicalFactor: 1)
  public static let kilojoule = HealthUnit(
    unitString: "kJ", dimension: .energy, canonicalFactor: 1 / 4.184)
  public static let second = HealthUnit(
    unitString: "s", dimension: .time, canonicalFactor: 1.0 / 60)
  public static let minute = HealthUnit(unitString: "min", dimension: .time, canonicalFactor: 1)
  public static let hour = HealthUnit(unitString: "hr", dimension: .time, canonicalFactor: 60)
  public static let meter = HealthUnit(unitString: "m", dimension: .length, canonicalFactor: 1)
  public static let centimeter = HealthUnit(
    unitString: "cm", dimension: .length, canonicalFactor: 0.01)
  public static let kilometer = HealthUnit(
    unitString: "km", dimension: .length, canonicalFactor: 1000)
  /// The international inch, exactly 0.0254 m.
  public static let inch = HealthUnit(
    unitString: "in", dimension: .length, canonicalFactor: 0.0254)
  /// The international foot, exactly 12 in.
  public static let foot = HealthUnit(
    unitString: "ft", dimension: .length, canonicalFactor: 0.3048)
  /// The international mile, exactly 1609.344 m.
  public static let mile = HealthUnit(
    unitString: "mi", dimension: .length, canonicalFactor: 1609.344)
  /// HealthKit's percent unit: a value of 0.25 in `%` is 25 %.
  public static let percent = HealthUnit(
    unitString: "%", dimension: .fraction, canonicalFactor: 1)
  /// Beats (or any count) per minute, as heart rate is measured.
  public static let countPerMinute = HealthUnit(
    unitString: "count/min", dimension: .frequency, canonicalFactor: 1)
  /// The millimeter of mercury, as blood pressure is measured.
  public static let millimeterOfMercury = HealthUnit(
    unitString: "mmHg", dimension: .pressure, canonicalFactor: 1)

  /// Every unit the simulator knows.
  public static let all: [HealthUnit] = [
    .kilogram, .gram, .milligram, .ounce, .pound, .stone, .milligramsPerDeciliter,
    .millimolesPerLiter, .count, .kilocalorie, .largeCalorie, .kilojoule, .second, .minute, .hour,
    .meter, .centimeter, .kilometer, .inch, .foot, .mile, .percent, .countPerMinute,
    .millimeterOfMercury,
  ]

  /// The unit for a HealthKit unit string (`HKUnit(from:)`); `nil` when unknown.
  public init?(from unitString: String) {
    if let unit = HealthUnit.all.first(where: { $0.unitString == unitString }) {
      self = unit
      return
    }
    // Exports print the glucose molar mass with 16 significant digits.
    if unitString.hasPrefix("mmol<180.155880000"), unitString.hasSuffix(">/L") {
      self = .millimolesPerLiter
      return
    }
    return nil
  }

  private init(unitString: String, dimension: Dimension, canonicalFactor: Double) {
    self.unitString = unitString
    self.dimension = dimension
    self.canonicalFactor = canonicalFactor
  }

  public var description: String { unitString }
}

/// An amount with a unit (HKQuantity).
public struct HealthQuantity: Hashable, Codable, Sendable {
  /// The number, in `unit`.
  public let value: Double
  /// The unit of `value`.
  public let unit: HealthUnit

  /// A quantity of `value` in `unit`.
  public init(_ value: Double, _ unit: HealthUnit) {
    self.value = value
    self.unit = unit
  }

  /// Whether the quantity converts to `unit` (same dimension).
  public func isCompatible(with unit: HealthUnit) -> Bool { unit.dimension == self.unit.dimension }

  /// The value in another unit; converting across dimensions is an invalid argument, as
  /// HealthKit raises an exception for it.
  public func doubleValue(for unit: HealthUnit) throws(HealthError) -> Double {
    guard isCompatible(with: unit) else {
      throw HealthError(
        .errorInvalidArgument,
        "cannot convert \(self.unit.unitString) to \(unit.unitString); use a unit of the same kind")
    }
    if unit == self.unit { return value }
    return value * self.unit.canonicalFactor / unit.canonicalFactor
  }
}
