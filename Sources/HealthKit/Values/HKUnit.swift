import Foundation

/// A unit of measure: a product of prefixed base units raised to integer powers, such as
/// `kg`, `count/min` or `mmol<180.15588000005408>/L`.
///
/// Units are immutable values compared by their canonical `unitString`. Create them with the
/// named constructors (`HKUnit.gramUnit(with: .kilo)`), from a unit string
/// (`HKUnit(from: "mg/dL")`), or by combining other units.
public class HKUnit: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// The factors, merged by symbol, without zero powers, in canonical (symbol) order.
  let factors: [PoweredFactor]
  /// What the unit measures.
  let dimension: UnitDimension
  private let canonicalString: String

  /// The largest power a factor may have; unit strings with larger ones are invalid, and
  /// `unitRaised(toPower:)` clamps to it.
  static let exponentLimit = 2_147_483_647

  required init(factors: [PoweredFactor]) {
    let merged = HKUnit.canonical(factors)
    self.factors = merged
    var dimension = UnitDimension.none
    for term in merged {
      dimension = dimension.adding(term.factor.root.dimension, times: term.exponent)
    }
    self.dimension = dimension
    self.canonicalString = HKUnit.format(merged)
    super.init()
  }

  convenience init(_ factor: UnitFactor) {
    self.init(factors: [PoweredFactor(factor: factor, exponent: 1)])
  }

  /// Not available: create units with the named constructors or `init(from:)`.
  @available(*, unavailable, message: "use a named constructor or HKUnit(from:)")
  public override init() { fatalError("HKUnit() is not available; use HKUnit(from:)") }

  /// The unit a unit string describes, such as `count`, `kg`, `m/s^2` or `mg/dL`.
  ///
  /// An invalid string stops the program, as HealthKit raises an exception for it; the message
  /// names the position and what was expected there.
  public convenience init(from string: String) {
    switch UnitStringParser.parse(string) {
    case .success(let factors): self.init(factors: factors)
    case .failure(let error): fatalError("HKUnit(from:): \(error)")
    }
  }

  /// The unit a unit string describes, or nil when the string is not a valid unit string.
  static func parse(_ string: String) -> HKUnit? {
    guard case .success(let factors) = UnitStringParser.parse(string) else { return nil }
    return HKUnit(factors: factors)
  }

  /// The canonical unit string, which `init(from:)` reads back as an equal unit.
  ///
  /// Factors with positive powers come first, joined by `·`, then `/` and those with negative
  /// powers (`kg/m^2`, `mL/kg·min`); a unit with only negative powers prints as `1/s`, the
  /// null unit as `()`. Factors are ordered by their symbols.
  public var unitString: String { canonicalString }

  /// Whether this is the null unit, the unit of a plain number (e.g. `g/g`).
  public func isNull() -> Bool { factors.isEmpty }

  /// The product of this unit and `unit`.
  public func unitMultiplied(by unit: HKUnit) -> HKUnit {
    HKUnit(factors: factors + unit.factors)
  }

  /// The quotient of this unit by `unit`.
  public func unitDivided(by unit: HKUnit) -> HKUnit {
    unitMultiplied(by: unit.reciprocal())
  }

  /// This unit raised to an integer power; powers beyond ±2147483647 are clamped.
  public func unitRaised(toPower power: Int) -> HKUnit {
    HKUnit(
      factors: factors.map { term in
        let (product, overflow) = term.exponent.multipliedReportingOverflow(by: power)
        let negative = (term.exponent < 0) != (power < 0)
        let clamped =
          overflow
          ? (negative ? -HKUnit.exponentLimit : HKUnit.exponentLimit)
          : min(max(product, -HKUnit.exponentLimit), HKUnit.exponentLimit)
        return PoweredFactor(factor: term.factor, exponent: clamped)
      })
  }

  /// The reciprocal of this unit (`1/s` for `s`).
  public func reciprocal() -> HKUnit { unitRaised(toPower: -1) }

  public override var description: String { canonicalString }

  public override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? HKUnit else { return false }
    return other === self || other.canonicalString == canonicalString
  }

  public override var hash: Int { canonicalString.hashValue }

  public func copy(with zone: NSZone? = nil) -> Any { self }

  // MARK: NSSecureCoding

  private static let unitStringKey = "HKUnitStringKey"

  public static var supportsSecureCoding: Bool { true }

  public func encode(with coder: NSCoder) {
    coder.encode(canonicalString as NSString, forKey: HKUnit.unitStringKey)
  }

  /// Decodes a unit archived by `encode(with:)`; nil when the archive holds no valid unit
  /// string.
  public required convenience init?(coder: NSCoder) {
    guard
      let string = coder.decodeObject(of: NSString.self, forKey: HKUnit.unitStringKey),
      case .success(let factors) = UnitStringParser.parse(string as String)
    else { return nil }
    self.init(factors: factors)
  }

  // MARK: Canonical form

  private static func canonical(_ factors: [PoweredFactor]) -> [PoweredFactor] {
    var order: [String] = []
    var merged: [String: PoweredFactor] = [:]
    for term in factors {
      let key = term.factor.symbol
      if let existing = merged[key] {
        let (sum, overflow) = existing.exponent.addingReportingOverflow(term.exponent)
        let clamped =
          overflow
          ? (term.exponent < 0 ? -exponentLimit : exponentLimit)
          : min(max(sum, -exponentLimit), exponentLimit)
        merged[key] = PoweredFactor(factor: term.factor, exponent: clamped)
      } else {
        order.append(key)
        merged[key] = term
      }
    }
    return order.sorted().compactMap { key in
      guard let term = merged[key], term.exponent != 0 else { return nil }
      return term
    }
  }

  private static func format(_ factors: [PoweredFactor]) -> String {
    func join(_ terms: [PoweredFactor], sign: Int) -> String {
      terms.map { term in
        let power = term.exponent * sign
        return power == 1 ? term.factor.symbol : "\(term.factor.symbol)^\(power)"
      }.joined(separator: "·")
    }
    let numerator = join(factors.filter { $0.exponent > 0 }, sign: 1)
    let denominator = join(factors.filter { $0.exponent < 0 }, sign: -1)
    switch (numerator.isEmpty, denominator.isEmpty) {
    case (true, true): return "()"
    case (false, true): return numerator
    case (true, false): return "1/" + denominator
    case (false, false): return numerator + "/" + denominator
    }
  }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// HealthKit's molar mass of glucose in grams per mole, for blood glucose in
/// `mmol<180.15588000005408>/L`.
public let HKUnitMolarMassBloodGlucose: Double = 180.155_880_000_054_08
