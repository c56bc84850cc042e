import Foundation

/// An amount in a unit, such as 70 kg or 120 count/min. Immutable.
///
/// Ask for the value in any compatible unit with `doubleValue(for:)`; asking for an
/// incompatible one is a programming error and stops the program, as HealthKit raises an
/// exception for it.
public class HKQuantity: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// The unit the quantity was created with.
  let unit: HKUnit
  /// The value in `unit`.
  let value: Double

  /// A quantity of `value` in `unit`.
  public init(unit: HKUnit, doubleValue value: Double) {
    self.unit = unit
    self.value = value
    super.init()
  }

  /// Not available: create quantities with `init(unit:doubleValue:)`.
  @available(*, unavailable, message: "use HKQuantity(unit:doubleValue:)")
  public override init() { fatalError("HKQuantity() is not available") }

  /// Whether the quantity can be expressed in `unit` (both measure the same thing).
  public func `is`(compatibleWith unit: HKUnit) -> Bool { self.unit.isCompatible(with: unit) }

  /// The quantity's value in `unit`. An incompatible unit stops the program.
  public func doubleValue(for unit: HKUnit) -> Double {
    guard let converted = self.unit.convert(value, to: unit) else {
      fatalError(
        "HKQuantity.doubleValue(for:): attempt to convert incompatible units: "
          + "\(self.unit.unitString), \(unit.unitString)")
    }
    return converted
  }

  /// Orders this quantity against another after converting them to the same unit. Quantities
  /// of incompatible units stop the program.
  ///
  /// Both are compared in this quantity's unit and in the other's; when the two answers differ
  /// (rounding at the boundary) the quantities count as the same.
  public func compare(_ quantity: HKQuantity) -> ComparisonResult {
    guard
      let otherInMine = quantity.unit.convert(quantity.value, to: unit),
      let mineInOther = unit.convert(value, to: quantity.unit)
    else {
      fatalError(
        "HKQuantity.compare(_:): quantity \(quantity) has a unit incompatible with \(unit)")
    }
    let inMine = HKQuantity.order(value, otherInMine)
    let inOther = HKQuantity.order(mineInOther, quantity.value)
    return inMine == inOther ? inMine : .orderedSame
  }

  private static func order(_ left: Double, _ right: Double) -> ComparisonResult {
    left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
  }

  /// The value and unit as HealthKit prints them: `70 kg`, `120 count/min`, `45 %` (six
  /// significant digits; percentages shown out of 100).
  public override var description: String {
    let shown = unit == HKUnit.percent() ? value * 100 : value
    return String(format: "%g %@", shown, unit.unitString)
  }

  /// Equal when compatible and the same amount (`1000 g` equals `1 kg`).
  public override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? HKQuantity else { return false }
    if other === self { return true }
    return other.unit.isCompatible(with: unit) && compare(other) == .orderedSame
  }

  // Equal quantities may have different units and values, so nothing but a constant hash is
  // consistent with isEqual (HealthKit does the same).
  public override var hash: Int { 0 }

  public func copy(with zone: NSZone? = nil) -> Any { self }

  // MARK: NSSecureCoding

  private static let valueKey = "ValueKey"
  private static let unitKey = "UnitKey"

  public static var supportsSecureCoding: Bool { true }

  public func encode(with coder: NSCoder) {
    coder.encode(value, forKey: HKQuantity.valueKey)
    coder.encode(unit, forKey: HKQuantity.unitKey)
  }

  /// Decodes a quantity archived by `encode(with:)`; nil when the archive holds no valid unit.
  public required init?(coder: NSCoder) {
    guard let unit = coder.decodeObject(of: HKUnit.self, forKey: HKQuantity.unitKey) else {
      return nil
    }
    self.unit = unit
    self.value = coder.decodeDouble(forKey: HKQuantity.valueKey)
    super.init()
  }
}
