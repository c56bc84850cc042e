import Foundation
import Testing

@testable import HealthKit

/// Every named constructor, with the unit string HealthKit gives it.
let namedUnits: [(HKUnit, String)] = [
  (.gramUnit(with: .kilo), "kg"), (.gram(), "g"), (.ounce(), "oz"), (.pound(), "lb"),
  (.stone(), "st"),
  (
    .moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose),
    "mmol<180.15588000005408>"
  ), (.moleUnit(withMolarMass: 58.44), "mol<58.44>"),
  (.meterUnit(with: .centi), "cm"), (.meter(), "m"), (.inch(), "in"), (.foot(), "ft"),
  (.yard(), "yd"), (.mile(), "mi"), (.literUnit(with: .deci), "dL"), (.liter(), "L"),
  (.fluidOunceUS(), "fl_oz_us"), (.fluidOunceImperial(), "fl_oz_imp"), (.pintUS(), "pt_us"),
  (.pintImperial(), "pt_imp"), (.cupUS(), "cup_us"), (.cupImperial(), "cup_imp"),
  (.pascalUnit(with: .kilo), "kPa"), (.pascal(), "Pa"), (.millimeterOfMercury(), "mmHg"),
  (.centimeterOfWater(), "cmAq"), (.atmosphere(), "atm"), (.inchesOfMercury(), "inHg"),
  (.decibelAWeightedSoundPressureLevel(), "dBASPL"), (.secondUnit(with: .milli), "ms"),
  (.second(), "s"), (.minute(), "min"), (.hour(), "hr"), (.day(), "d"),
  (.jouleUnit(with: .kilo), "kJ"), (.joule(), "J"), (.kilocalorie(), "kcal"),
  (.smallCalorie(), "cal"), (.largeCalorie(), "Cal"), (.degreeCelsius(), "degC"),
  (.degreeFahrenheit(), "degF"), (.kelvin(), "K"), (.siemenUnit(with: .micro), "mcS"),
  (.siemen(), "S"), (.internationalUnit(), "IU"), (.count(), "count"), (.percent(), "%"),
  (.decibelHearingLevel(), "dBHL"), (.hertzUnit(with: .kilo), "kHz"), (.hertz(), "Hz"),
  (.voltUnit(with: .milli), "mV"), (.volt(), "V"), (.wattUnit(with: .kilo), "kW"),
  (.watt(), "W"), (.diopter(), "D"), (.prismDiopter(), "pD"),
  (.radianAngleUnit(with: .milli), "mrad"), (.radianAngle(), "rad"), (.degreeAngle(), "deg"),
  (.appleEffortScore(), "appleEffortScore"), (.luxUnit(with: .kilo), "klx"), (.lux(), "lx"),
]

@Suite struct UnitTests {
  @Test func metricPrefixesHaveHealthKitsRawValues() {
    let expected: [(HKMetricPrefix, Int, String)] = [
      (.none, 0, ""), (.pico, 1, "p"), (.nano, 2, "n"), (.micro, 3, "mc"), (.milli, 4, "m"),
      (.centi, 5, "c"), (.deci, 6, "d"), (.deca, 7, "da"), (.hecto, 8, "h"), (.kilo, 9, "k"),
      (.mega, 10, "M"), (.giga, 11, "G"), (.tera, 12, "T"), (.femto, 13, "f"),
    ]
    for (prefix, raw, symbol) in expected {
      #expect(prefix.rawValue == raw)
      #expect(HKMetricPrefix(rawValue: raw) == prefix)
      #expect(HKUnit.gramUnit(with: prefix).unitString == symbol + "g")
    }
    #expect(HKMetricPrefix(rawValue: 14) == nil)
  }

  @Test func everyNamedConstructorHasItsUnitStringAndReadsBack() {
    for (unit, string) in namedUnits {
      #expect(unit.unitString == string)
      #expect(unit.description == string)
      #expect(HKUnit(from: unit.unitString) == unit, "\(string) does not read back")
      #expect(HKUnit(from: string).hash == unit.hash)
    }
  }

  @Test func everyPrefixReadsOnEverySIRoot() {
    let roots = ["g", "m", "L", "Pa", "s", "J", "cal", "K", "S", "Hz", "V", "W", "rad", "lx"]
    for prefix in HKMetricPrefix.all where prefix != .none {
      for root in roots {
        let string = prefix.symbol + root
        let unit = HKUnit.parse(string)
        #expect(unit?.unitString == string, "\(string)")
      }
    }
    #expect(HKUnit(from: "mcg") == .gramUnit(with: .micro))
    #expect(HKUnit(from: "dam") == .meterUnit(with: .deca))
    #expect(HKUnit(from: "fmol<10>") == .moleUnit(with: .femto, molarMass: 10))
    #expect(HKUnit.parse("klb") == nil)
    #expect(HKUnit.parse("kmin") == nil)
    #expect(HKUnit.parse("mdegC") == nil)
  }

  @Test(arguments: [
    ("kg", "kg"), ("mg/dL", "mg/dL"), ("kg*m^-2", "kg/m^2"), ("count/min", "count/min"),
    ("m/s", "m/s"), ("kcal/hr", "kcal/hr"), ("%", "%"), ("ml", "mL"), ("m/s^2", "m/s^2"),
    ("kg/m.s^2", "kg/m·s^2"), ("kg.m^2.s^-3", "kg·m^2/s^3"), ("kg·m", "kg·m"),
    ("m*kg", "kg·m"), ("(kg)", "kg"), ("1/s", "1/s"), ("s^-1", "1/s"), ("()", "()"),
    ("g/g", "()"), ("ml/(kg*min)", "mL/kg·min"), ("(m/s)", "m/s"), ("kg^+2", "kg^2"),
    ("(kg*m)^2", "kg^2·m^2"), ("kg^2/kg", "kg"), ("m^0", "()"),
    ("mmol<180.15588000005408>/L", "mmol<180.15588000005408>/L"),
    ("mmol<180.1558800000541>/L", "mmol<180.1558800000541>/L"),
    ("mol<180.0>", "mol<180>"), ("mol<1e-05>", "mol<1e-05>"),
  ])
  func unitStringsAreCanonical(input: String, canonical: String) throws {
    let unit = try #require(HKUnit.parse(input))
    #expect(unit.unitString == canonical)
    #expect(HKUnit.parse(canonical) == unit)
  }

  @Test func compositionGivesHealthKitsStrings() {
    #expect(HKUnit.count().unitDivided(by: .minute()).unitString == "count/min")
    #expect(HKUnit.count().unitDivided(by: .minute()) == HKUnit(from: "count/min"))
    #expect(HKUnit(from: "kg").unitString == "kg")
    #expect(HKUnit.gramUnit(with: .kilo) == HKUnit(from: "kg"))
    #expect(HKUnit.gramUnit(with: .kilo).hash == HKUnit(from: "kg").hash)
    #expect(HKUnit.gram() != HKUnit.gramUnit(with: .kilo))
    let bmi = HKUnit.gramUnit(with: .kilo).unitDivided(by: .meter().unitRaised(toPower: 2))
    #expect(bmi.unitString == "kg/m^2")
    #expect(bmi == HKUnit(from: "kg*m^-2"))
    let glucose = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose)
      .unitDivided(by: .liter())
    #expect(glucose.unitString == "mmol<180.15588000005408>/L")
    #expect(HKUnit.second().reciprocal().unitString == "1/s")
    #expect(HKUnit.meter().unitMultiplied(by: .meter()).unitString == "m^2")
    #expect(HKUnit.meter().unitRaised(toPower: 3).reciprocal().unitString == "1/m^3")
    #expect(HKUnit.gram().unitDivided(by: .gram()).isNull())
    #expect(HKUnit.meter().unitRaised(toPower: 0).isNull())
    #expect(!HKUnit.count().isNull())
  }

  @Test func unitsAreUsableAsSetElementsAndDictionaryKeys() {
    let units: Set<HKUnit> = [HKUnit(from: "kg"), .gramUnit(with: .kilo), .pound()]
    #expect(units.count == 2)
    let copy = HKUnit.pound().copy() as? HKUnit
    #expect(copy == .pound())
  }

  @Test func absurdPowersClampInsteadOfTrapping() {
    let huge = HKUnit.meter().unitRaised(toPower: Int.max).unitRaised(toPower: Int.max)
    #expect(huge.unitString == "m^2147483647")
    #expect(HKUnit.parse(huge.unitString) == huge)
    let tiny = HKUnit.meter().unitRaised(toPower: Int.min)
    #expect(tiny.unitString == "1/m^2147483647")
    #expect(HKUnit.parse("m^2147483648") == nil)
    #expect(HKUnit.parse("(m^65536)^65536") == nil)
  }

  @Test(arguments: [
    "", "kg^", "((kg", "kg^99999999999999999999", "mol<abc>", "mol<-1>", "mol<0>", "mol",
    "mol<>", "mol<1", "mol<inf>", "mol<nan>", "mol<0x10>", "mol<1e400>", "kg<3>",
    "kg^9999999999", "kg^-9999999999", "kg/m/s", "kg)", "xyz", "kg**m", "/kg", "kg/", "^2",
    "k", " kg", "kg ", "kg^2^2", "kg^ 2", "kg^2.5", "(", ")", "(()", "((kg)", "kg()", "1kg",
    "KG", "count/", "deg C", "·", "mol<180.1>>", "mmol<<180>/L", "10^3", "kg^--2",
  ])
  func malformedStringsAreRejectedWithoutTrapping(string: String) {
    #expect(HKUnit.parse(string) == nil)
    guard case .failure(let error) = UnitStringParser.parse(string) else {
      Issue.record("\(string) parsed")
      return
    }
    #expect(error.column >= 1 && error.column <= string.unicodeScalars.count + 1)
    #expect(!error.message.isEmpty)
  }

  func failure(of string: String) -> UnitStringError? {
    guard case .failure(let error) = UnitStringParser.parse(string) else { return nil }
    return error
  }

  @Test func errorsNamePositionAndFix() throws {
    guard case .failure(let twoSlashes) = UnitStringParser.parse("kg/m/s") else {
      Issue.record("kg/m/s parsed")
      return
    }
    #expect(twoSlashes.column == 5)
    #expect(twoSlashes.message.contains("only one '/'"))
    let unknown = try #require(failure(of: "mg/dL*xyz"))
    #expect(unknown.column == 7)
    #expect(unknown.message.contains("unknown unit 'xyz'"))
    let open = try #require(failure(of: "((kg"))
    #expect(open.description.contains("the '(' at column 2 is not closed; add ')'"))
    let mass = try #require(failure(of: "mol<-1>"))
    #expect(mass.column == 5)
    #expect(mass.message.contains("positive number"))
    let unmatched = try #require(failure(of: "kg)"))
    #expect(unmatched.column == 3)
    #expect(unmatched.message.contains("no matching '('"))
    let empty = try #require(failure(of: ""))
    #expect(empty.message.contains("empty"))
  }

  @Test func deepNestingIsRejectedNotOverflowingTheStack() {
    let deep =
      String(repeating: "(", count: 100_000) + "kg" + String(repeating: ")", count: 100_000)
    #expect(HKUnit.parse(deep) == nil)
    let allowed = String(repeating: "(", count: 32) + "kg" + String(repeating: ")", count: 32)
    #expect(HKUnit.parse(allowed) == .gramUnit(with: .kilo))
  }

  @Test func randomStringsEitherFailOrReadBackTheirCanonicalForm() {
    // A fixed seed: the same strings on every run.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    let pieces = [
      "k", "m", "g", "L", "s", "mol", "<", ">", "180.16", "-", "^", "2", "-1", "/", "*", ".",
      "·", "(", ")", "count", "min", "%", "degC", "mc", "d", "a", "1", "9999999999", "e", " ",
    ]
    var parsed = 0
    for _ in 0..<20_000 {
      var string = ""
      for _ in 0..<(next() % 8) { string += pieces[Int(next() % UInt64(pieces.count))] }
      guard let unit = HKUnit.parse(string) else { continue }
      parsed += 1
      #expect(HKUnit.parse(unit.unitString) == unit, "\(string) → \(unit.unitString)")
    }
    #expect(parsed > 100)
  }

  @Test func secureCodingRoundTrips() throws {
    for (unit, _) in namedUnits + [(HKUnit(from: "mmol<180.15588000005408>/L"), "")] {
      let data = try NSKeyedArchiver.archivedData(
        withRootObject: unit, requiringSecureCoding: true)
      let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKUnit.self, from: data)
      #expect(decoded == unit)
    }
  }

  @Test func invalidUnitFromStringStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      _ = HKUnit(from: "kg^")
    }
  }
}
