// PLACEHOLDER (not committed): replaced by the units branch.
import HealthSim

public class HKUnit: NSObject, @unchecked Sendable {
  public let unitString: String
  let unit: HealthUnit?
  public convenience init(from string: String) { self.init(string) }
  init(_ string: String) {
    unitString = string
    unit = HealthUnit(from: string)
  }
  public class func gramUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(prefix == .kilo ? "kg" : "g") }
  public class func pound() -> HKUnit { HKUnit("lb") }
  public class func count() -> HKUnit { HKUnit("count") }
  public class func kilocalorie() -> HKUnit { HKUnit("kcal") }
  public class func minute() -> HKUnit { HKUnit("min") }
  public class func percent() -> HKUnit { HKUnit("%") }
  public class func meter() -> HKUnit { HKUnit("m") }
  public class func millimeterOfMercury() -> HKUnit { HKUnit("mmHg") }
  public func unitDivided(by unit: HKUnit) -> HKUnit { HKUnit(unitString + "/" + unit.unitString) }
  override public func isEqual(_ object: Any?) -> Bool { (object as? HKUnit)?.unitString == unitString }
  override public var hash: Int { unitString.hashValue }
  func conversionFactor(to other: HKUnit) -> Double? {
    guard let a = unit, let b = other.unit, a.dimension == b.dimension else { return nil }
    return a.canonicalFactor / b.canonicalFactor
  }
  func convert(_ value: Double, to other: HKUnit) -> Double? { conversionFactor(to: other).map { value * $0 } }
}
public enum HKMetricPrefix: Int, Sendable { case none = 0, kilo = 9 }
public let HKUnitMolarMassBloodGlucose: Double = 180.15588000005408
public class HKQuantity: NSObject, @unchecked Sendable {
  let unit: HKUnit
  let value: Double
  public init(unit: HKUnit, doubleValue value: Double) { self.unit = unit; self.value = value }
  public func `is`(compatibleWith unit: HKUnit) -> Bool { self.unit.conversionFactor(to: unit) != nil }
  public func doubleValue(for unit: HKUnit) -> Double { self.unit.convert(value, to: unit)! }
}
