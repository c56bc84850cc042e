import Foundation

// Conversions between HKUnit and Foundation's formatter units.

extension HKUnit {
  /// The unit for a mass formatter unit.
  public convenience init(from massFormatterUnit: MassFormatter.Unit) {
    let root: (HKMetricPrefix, RootUnit) =
      switch massFormatterUnit {
      case .gram: (.none, .gram)
      case .kilogram: (.kilo, .gram)
      case .ounce: (.none, .ounce)
      case .pound: (.none, .pound)
      case .stone: (.none, .stone)
      @unknown default: (.none, .gram)
      }
    self.init(UnitFactor(root.1, prefix: root.0))
  }

  /// The unit for a length formatter unit.
  public convenience init(from lengthFormatterUnit: LengthFormatter.Unit) {
    let root: (HKMetricPrefix, RootUnit) =
      switch lengthFormatterUnit {
      case .millimeter: (.milli, .meter)
      case .centimeter: (.centi, .meter)
      case .meter: (.none, .meter)
      case .kilometer: (.kilo, .meter)
      case .inch: (.none, .inch)
      case .foot: (.none, .foot)
      case .yard: (.none, .yard)
      case .mile: (.none, .mile)
      @unknown default: (.none, .meter)
      }
    self.init(UnitFactor(root.1, prefix: root.0))
  }

  /// The unit for an energy formatter unit.
  public convenience init(from energyFormatterUnit: EnergyFormatter.Unit) {
    let root: (HKMetricPrefix, RootUnit) =
      switch energyFormatterUnit {
      case .joule: (.none, .joule)
      case .kilojoule: (.kilo, .joule)
      case .calorie: (.none, .smallCalorie)
      case .kilocalorie: (.none, .kilocalorie)
      @unknown default: (.none, .joule)
      }
    self.init(UnitFactor(root.1, prefix: root.0))
  }

  /// The mass formatter unit for `unit`; stops the program when there is none, as HealthKit
  /// raises an exception.
  public class func massFormatterUnit(from unit: HKUnit) -> MassFormatter.Unit {
    let table: [String: MassFormatter.Unit] = [
      "g": .gram, "kg": .kilogram, "oz": .ounce, "lb": .pound, "st": .stone,
    ]
    guard let match = table[unit.unitString] else {
      fatalError("HKUnit.massFormatterUnit(from:): \(unit.unitString) has no mass formatter unit")
    }
    return match
  }

  /// The length formatter unit for `unit`; stops the program when there is none, as
  /// HealthKit raises an exception.
  public class func lengthFormatterUnit(from unit: HKUnit) -> LengthFormatter.Unit {
    let table: [String: LengthFormatter.Unit] = [
      "mm": .millimeter, "cm": .centimeter, "m": .meter, "km": .kilometer, "in": .inch,
      "ft": .foot, "yd": .yard, "mi": .mile,
    ]
    guard let match = table[unit.unitString] else {
      fatalError(
        "HKUnit.lengthFormatterUnit(from:): \(unit.unitString) has no length formatter unit")
    }
    return match
  }

  /// The energy formatter unit for `unit` (`Cal` maps to kilocalories); stops the program
  /// when there is none, as HealthKit raises an exception.
  public class func energyFormatterUnit(from unit: HKUnit) -> EnergyFormatter.Unit {
    let table: [String: EnergyFormatter.Unit] = [
      "J": .joule, "kJ": .kilojoule, "cal": .calorie, "kcal": .kilocalorie, "Cal": .kilocalorie,
    ]
    guard let match = table[unit.unitString] else {
      fatalError(
        "HKUnit.energyFormatterUnit(from:): \(unit.unitString) has no energy formatter unit")
    }
    return match
  }
}
