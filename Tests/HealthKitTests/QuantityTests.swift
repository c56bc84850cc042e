import Foundation
import Testing

@testable import HealthKit

/// Whether `actual` is within `relative` of `expected` (floating-point conversions round).
func isClose(_ actual: Double, _ expected: Double, relative: Double = 1e-12) -> Bool {
  abs(actual - expected) <= relative * max(abs(expected), Double.leastNormalMagnitude)
}

func value(_ amount: Double, _ from: String, in to: String) -> Double {
  HKQuantity(unit: HKUnit(from: from), doubleValue: amount).doubleValue(for: HKUnit(from: to))
}

@Suite struct QuantityTests {
  @Test func massUsesTheExactInternationalFactors() {
    #expect(value(1, "lb", in: "kg") == 0.453_592_37)
    #expect(value(1, "st", in: "kg") == 6.350_293_18)
    #expect(isClose(value(1, "st", in: "lb"), 14))
    #expect(value(16, "oz", in: "lb") == 1)
    #expect(isClose(value(1, "oz", in: "g"), 28.349_523_125))
    #expect(value(70, "kg", in: "g") == 70_000)
    #expect(value(1, "mcg", in: "mg") == 0.001)
    #expect(isClose(value(100, "kg", in: "lb"), 220.462_262_184_877_58))
  }

  @Test func lengthVolumeTimeAndEnergy() {
    #expect(value(1, "in", in: "m") == 0.0254)
    #expect(isClose(value(1, "ft", in: "in"), 12))
    #expect(value(1, "mi", in: "m") == 1609.344)
    #expect(isClose(value(1, "mi", in: "ft"), 5280))
    #expect(value(1, "km", in: "m") == 1000)
    #expect(value(1, "kcal", in: "J") == 4184)
    #expect(value(1, "Cal", in: "kcal") == 1)
    #expect(value(1000, "cal", in: "kcal") == 1)
    #expect(isClose(value(1, "kJ", in: "kcal"), 1 / 4.184))
    #expect(value(1, "L", in: "mL") == 1000)
    #expect(isClose(value(1, "L", in: "m^3"), 0.001))
    #expect(isClose(value(1, "cup_us", in: "fl_oz_us"), 8))
    #expect(isClose(value(1, "pt_imp", in: "fl_oz_imp"), 20))
    #expect(value(1, "hr", in: "min") == 60)
    #expect(value(1, "d", in: "s") == 86_400)
    #expect(value(1, "count/s", in: "count/min") == 60)
    #expect(isClose(value(3600, "kcal/hr", in: "W"), 4184))
  }

  @Test func pressure() {
    #expect(value(1, "mmHg", in: "Pa") == 133.322_387_415)
    #expect(value(1, "atm", in: "kPa") == 101.325)
    #expect(value(1, "cmAq", in: "Pa") == 98.0665)
    #expect(value(1, "inHg", in: "Pa") == 3386.388_16)
    #expect(isClose(value(120, "mmHg", in: "kPa"), 15.998_686_489_8))
    // dBASPL is logarithmic: 20 µPa × 10^(dB/20).
    #expect(isClose(value(94, "dBASPL", in: "Pa"), 2e-5 * pow(10, 4.7)))
    #expect(isClose(value(1, "Pa", in: "dBASPL"), 20 * log10(1 / 2e-5)))
    #expect(isClose(value(60, "dBASPL", in: "dBASPL"), 60))
  }

  @Test func temperaturesConvertWithTheirOffsets() {
    #expect(isClose(value(37, "degC", in: "degF"), 98.6))
    #expect(isClose(value(98.6, "degF", in: "degC"), 37))
    #expect(isClose(value(-40, "degC", in: "degF"), -40))
    #expect(value(0, "degC", in: "K") == 273.15)
    #expect(isClose(value(0, "K", in: "degF"), -459.67))
    #expect(value(1, "K", in: "mK") == 1000)
    // Inside a compound a temperature is a difference: only the scale applies.
    #expect(isClose(value(1, "degC/min", in: "degF/min"), 1.8))
    #expect(HKUnit.degreeCelsius().conversionFactor(to: .degreeFahrenheit()) == nil)
    #expect(
      HKUnit.degreeCelsius().convert(37, to: .degreeFahrenheit()).map { isClose($0, 98.6) }
        == true)
  }

  @Test func bloodGlucoseUsesHealthKitsMolarMassExactly() {
    let millimolar = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose)
      .unitDivided(by: .liter())
    let milligramsPerDeciliter = HKUnit.gramUnit(with: .milli).unitDivided(
      by: .literUnit(with: .deci))
    #expect(HKUnitMolarMassBloodGlucose == 180.155_880_000_054_08)
    let quantity = HKQuantity(unit: millimolar, doubleValue: 1)
    #expect(isClose(quantity.doubleValue(for: milligramsPerDeciliter), 18.015_588_000_005_408))
    #expect(isClose(value(5.5, "mmol<180.15588000005408>/L", in: "mg/dL"), 99.085_734))
    #expect(isClose(value(99.085_734, "mg/dL", in: "mmol<180.15588000005408>/L"), 5.5))
    #expect(
      millimolar.conversionFactor(to: milligramsPerDeciliter)
        .map { isClose($0, 18.015_588_000_005_408) } == true)
    // Moles are a mass through their molar mass.
    #expect(isClose(value(1, "mmol<180.15588000005408>", in: "mg"), 180.155_880_000_054_08))
    #expect(isClose(value(2, "mol<58.44>", in: "g"), 116.88))
  }

  @Test func compatibilityFollowsDimensions() {
    let kilograms = HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70)
    #expect(kilograms.is(compatibleWith: .pound()))
    #expect(kilograms.is(compatibleWith: .moleUnit(withMolarMass: 18)))
    #expect(!kilograms.is(compatibleWith: HKUnit(from: "mg/dL")))
    #expect(!kilograms.is(compatibleWith: .meter()))
    let steps = HKQuantity(unit: .count(), doubleValue: 5000)
    #expect(!steps.is(compatibleWith: HKUnit(from: "count/min")))
    #expect(steps.is(compatibleWith: .percent()))
    let rate = HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 60)
    #expect(rate.is(compatibleWith: HKUnit(from: "count/s")))
    #expect(!rate.is(compatibleWith: .hertz()))
    #expect(
      HKQuantity(unit: .joule(), doubleValue: 1).is(compatibleWith: HKUnit(from: "kg*m^2/s^2")))
    #expect(HKQuantity(unit: .watt(), doubleValue: 1).is(compatibleWith: HKUnit(from: "kcal/hr")))
    #expect(!HKQuantity(unit: .degreeAngle(), doubleValue: 1).is(compatibleWith: .count()))
    #expect(HKUnit.gramUnit(with: .kilo).conversionFactor(to: .count()) == nil)
    #expect(HKUnit.gramUnit(with: .kilo).convert(1, to: .count()) == nil)
    #expect(HKUnit.gramUnit(with: .kilo).conversionFactor(to: .gram()) == 1000)
  }

  @Test func percentIsAFractionOfOneCount() {
    #expect(value(0.5, "count", in: "%") == 50)
    let fat = HKQuantity(unit: .percent(), doubleValue: 0.2)
    #expect(isClose(fat.doubleValue(for: .count()), 0.002))
  }

  @Test func compareConvertsFirst() {
    let kilogram = HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 1)
    #expect(kilogram.compare(HKQuantity(unit: .pound(), doubleValue: 2)) == .orderedDescending)
    #expect(kilogram.compare(HKQuantity(unit: .pound(), doubleValue: 2.3)) == .orderedAscending)
    #expect(kilogram.compare(HKQuantity(unit: .gram(), doubleValue: 1000)) == .orderedSame)
    #expect(kilogram == HKQuantity(unit: .gram(), doubleValue: 1000))
    #expect(kilogram != HKQuantity(unit: .gram(), doubleValue: 1001))
    #expect(kilogram != HKQuantity(unit: .count(), doubleValue: 1))
    #expect(kilogram.hash == HKQuantity(unit: .gram(), doubleValue: 1000).hash)
  }

  @Test func descriptionPrintsLikeHealthKit() {
    #expect(HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70).description == "70 kg")
    #expect(
      HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 120).description
        == "120 count/min")
    #expect(HKQuantity(unit: .pound(), doubleValue: 154.5).description == "154.5 lb")
    #expect(HKQuantity(unit: .percent(), doubleValue: 0.45).description == "45 %")
    #expect(HKQuantity(unit: .meter(), doubleValue: 1.0 / 3).description == "0.333333 m")
    #expect("\(HKQuantity(unit: HKUnit(from: "mg/dL"), doubleValue: 99))" == "99 mg/dL")
  }

  @Test func secureCodingRoundTrips() throws {
    let quantities = [
      HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70.25),
      HKQuantity(unit: HKUnit(from: "mmol<180.15588000005408>/L"), doubleValue: 5.5),
      HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: -0.0),
    ]
    for quantity in quantities {
      let archiver = NSKeyedArchiver(requiringSecureCoding: true)
      archiver.encode(quantity, forKey: NSKeyedArchiveRootObjectKey)
      archiver.finishEncoding()
      let decoded = try #require(
        try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQuantity.self, from: archiver.encodedData)
      )
      #expect(decoded.unit == quantity.unit)
      #expect(decoded.value == quantity.value)
      #expect(decoded.description == quantity.description)
    }
  }

  @Test func anArchivedInvalidUnitStringDecodesAsNil() throws {
    // Archive a real unit, then damage its unit string inside the archive.
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: HKUnit.gramUnit(with: .kilo), requiringSecureCoding: true)
    var archive = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    var objects = try #require(archive["$objects"] as? [Any])
    let index = try #require(objects.firstIndex { ($0 as? String) == "kg" })
    objects[index] = "kg^"
    archive["$objects"] = objects
    let damaged = try PropertyListSerialization.data(
      fromPropertyList: archive, format: .binary, options: 0)
    let decoded = try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKUnit.self, from: damaged)
    #expect(decoded == nil)
    let intact = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKUnit.self, from: data)
    #expect(intact == HKUnit.gramUnit(with: .kilo))
  }

  @Test func incompatibleConversionStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      _ = HKQuantity(unit: .count(), doubleValue: 1).doubleValue(for: .gram())
    }
    await #expect(processExitsWith: .failure) {
      _ = HKQuantity(unit: .count(), doubleValue: 1).compare(
        HKQuantity(unit: .gram(), doubleValue: 1))
    }
  }
}
