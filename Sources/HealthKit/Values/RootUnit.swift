import Foundation

/// A named unit before any prefix: `g`, `lb`, `mmHg`, `degC`, `mol` …
///
/// Its size is `coefficient × 10^decimalExponent` units of its dimension's SI base
/// (kilogram, metre, second, kelvin, and 1 for the dimensions of their own). Keeping the power
/// of ten apart lets prefixes and metric units convert by exact powers of ten, so
/// `1 lb = 0.45359237 kg` and `1 mmol<180.15588000005408>/L = 18.015588000005408 mg/dL`
/// come out as written.
struct RootUnit: Sendable {
  /// How a value in the unit relates to the base, beyond the linear size.
  enum Scale: Sendable {
    /// Proportional: `base = value × size`.
    case linear
    /// A temperature scale: `kelvin = (value + offset) / perKelvin`.
    case temperature(offset: Double, perKelvin: Double)
    /// Sound pressure level: `pascal = 20 µPa × 10^(value / 20)`.
    case soundPressureLevel
  }

  /// How the unit is written, e.g. `fl_oz_us`.
  let symbol: String
  /// Whether a metric prefix may precede it (`kg`, `mL`).
  let takesPrefix: Bool
  /// Whether it needs a molar mass in angle brackets (`mol<180.16>`).
  let takesMolarMass: Bool
  let dimension: UnitDimension
  let coefficient: Double
  let decimalExponent: Int
  let scale: Scale

  init(
    _ symbol: String, _ dimension: UnitDimension, _ coefficient: Double = 1,
    e decimalExponent: Int = 0, prefix: Bool = false, molarMass: Bool = false,
    scale: Scale = .linear
  ) {
    self.symbol = symbol
    self.dimension = dimension
    self.coefficient = coefficient
    self.decimalExponent = decimalExponent
    self.takesPrefix = prefix
    self.takesMolarMass = molarMass
    self.scale = scale
  }
}

extension RootUnit {
  // The factors are those HealthKit documents, with the exact international definitions
  // where its header rounds them (lb, oz, st, mmHg).
  static let gram = RootUnit("g", .mass, e: -3, prefix: true)
  static let mole = RootUnit("mol", .mass, e: -3, prefix: true, molarMass: true)
  static let pound = RootUnit("lb", .mass, 0.453_592_37)
  static let ounce = RootUnit("oz", .mass, 0.453_592_37 / 16)
  static let stone = RootUnit("st", .mass, 6.350_293_18)

  static let meter = RootUnit("m", .length, prefix: true)
  static let inch = RootUnit("in", .length, 0.0254)
  static let foot = RootUnit("ft", .length, 0.3048)
  static let yard = RootUnit("yd", .length, 0.9144)
  static let mile = RootUnit("mi", .length, 1609.344)

  static let liter = RootUnit("L", .volume, e: -3, prefix: true)
  static let fluidOunceUS = RootUnit("fl_oz_us", .volume, 2.957_352_956_25, e: -5)
  static let fluidOunceImperial = RootUnit("fl_oz_imp", .volume, 2.841_306_25, e: -5)
  static let pintUS = RootUnit("pt_us", .volume, 4.731_764_73, e: -4)
  static let pintImperial = RootUnit("pt_imp", .volume, 5.682_612_5, e: -4)
  static let cupUS = RootUnit("cup_us", .volume, 2.365_882_365, e: -4)
  static let cupImperial = RootUnit("cup_imp", .volume, 2.841_306_25, e: -4)

  static let pascal = RootUnit("Pa", .pressure, prefix: true)
  static let millimeterOfMercury = RootUnit("mmHg", .pressure, 133.322_387_415)
  static let centimeterOfWater = RootUnit("cmAq", .pressure, 98.0665)
  static let atmosphere = RootUnit("atm", .pressure, 101_325)
  static let inchesOfMercury = RootUnit("inHg", .pressure, 3386.388_16)
  static let decibelAWeightedSoundPressureLevel = RootUnit(
    "dBASPL", .pressure, scale: .soundPressureLevel)

  static let second = RootUnit("s", .time, prefix: true)
  static let minute = RootUnit("min", .time, 60)
  static let hour = RootUnit("hr", .time, 3600)
  static let day = RootUnit("d", .time, 86_400)

  static let joule = RootUnit("J", .energy, prefix: true)
  static let smallCalorie = RootUnit("cal", .energy, 4.184, prefix: true)
  static let kilocalorie = RootUnit("kcal", .energy, 4.184, e: 3)
  static let largeCalorie = RootUnit("Cal", .energy, 4.184, e: 3)

  static let kelvin = RootUnit("K", UnitDimension(.temperature), prefix: true)
  static let degreeCelsius = RootUnit(
    "degC", UnitDimension(.temperature), scale: .temperature(offset: 273.15, perKelvin: 1))
  static let degreeFahrenheit = RootUnit(
    "degF", UnitDimension(.temperature), 1 / 1.8,
    scale: .temperature(offset: 459.67, perKelvin: 1.8))

  static let siemen = RootUnit("S", UnitDimension(.conductance), prefix: true)
  static let internationalUnit = RootUnit("IU", UnitDimension(.pharmacology))
  static let count = RootUnit("count", UnitDimension(.scalar))
  static let percent = RootUnit("%", UnitDimension(.scalar), e: -2)
  static let decibelHearingLevel = RootUnit("dBHL", UnitDimension(.hearingLevel))
  static let hertz = RootUnit("Hz", .frequency, prefix: true)
  static let volt = RootUnit("V", UnitDimension(.potential), prefix: true)
  static let watt = RootUnit("W", .power, prefix: true)
  static let diopter = RootUnit("D", UnitDimension(.diopter))
  static let prismDiopter = RootUnit("pD", UnitDimension(.prismDiopter))
  static let radianAngle = RootUnit("rad", UnitDimension(.angle), prefix: true)
  static let degreeAngle = RootUnit("deg", UnitDimension(.angle), Double.pi / 180)
  static let lux = RootUnit("lx", UnitDimension(.illuminance), prefix: true)
  static let appleEffortScore = RootUnit("appleEffortScore", UnitDimension(.effort))

  /// Every root unit the unit-string grammar knows.
  static let all: [RootUnit] = [
    gram, mole, pound, ounce, stone, meter, inch, foot, yard, mile, liter, fluidOunceUS,
    fluidOunceImperial, pintUS, pintImperial, cupUS, cupImperial, pascal, millimeterOfMercury,
    centimeterOfWater, atmosphere, inchesOfMercury, decibelAWeightedSoundPressureLevel, second,
    minute, hour, day, joule, smallCalorie, kilocalorie, largeCalorie, kelvin, degreeCelsius,
    degreeFahrenheit, siemen, internationalUnit, count, percent, decibelHearingLevel, hertz, volt,
    watt, diopter, prismDiopter, radianAngle, degreeAngle, lux, appleEffortScore,
  ]

  /// The roots by symbol; `l` is accepted for the litre as HealthKit does.
  static let bySymbol: [String: RootUnit] = {
    var table: [String: RootUnit] = [:]
    for root in all { table[root.symbol] = root }
    table["l"] = liter
    return table
  }()
}
