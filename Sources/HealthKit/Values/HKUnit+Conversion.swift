import Foundation

// Conversions between compatible units, for HKQuantity and the rest of the module.

extension HKUnit {
  /// Whether values in this unit convert to `other` (the same dimension).
  func isCompatible(with other: HKUnit) -> Bool { dimension == other.dimension }

  /// How many `other` one of this unit is, or nil when the units are incompatible or the
  /// conversion is not a pure scale (temperatures with an offset such as `degC` ↔ `degF`, and
  /// `dBASPL`); `convert(_:to:)` handles those.
  func conversionFactor(to other: HKUnit) -> Double? {
    guard isCompatible(with: other), isProportional, other.isProportional else { return nil }
    return proportionalConversion(1, to: other)
  }

  /// `value` in this unit expressed in `other`, or nil when the units are incompatible.
  ///
  /// A unit that is exactly one temperature scale (`degC`, `degF`, `K`) converts with its
  /// offset, so 37 degC is 98.6 degF; inside a compound (`degC/min`) a temperature counts as
  /// a difference and only its scale applies, as in HealthKit. `dBASPL` converts to pressure
  /// on its logarithmic scale when it stands alone; compounds containing it do not convert.
  func convert(_ value: Double, to other: HKUnit) -> Double? {
    guard isCompatible(with: other) else { return nil }
    if self == other { return value }
    if isProportional, other.isProportional { return proportionalConversion(value, to: other) }
    guard let base = baseValue(of: value) else { return nil }
    return other.value(fromBase: base)
  }

  // MARK: Private

  /// The single factor of a unit that is one root to the first power, if it is one.
  private var soleFactor: UnitFactor? {
    guard factors.count == 1, let term = factors.first, term.exponent == 1 else { return nil }
    return term.factor
  }

  /// Whether converting from or to this unit is multiplication by a constant.
  private var isProportional: Bool {
    if let factor = soleFactor {
      switch factor.root.scale {
      case .linear: return true
      case .temperature(let offset, _): return offset == 0
      case .soundPressureLevel: return false
      }
    }
    return factors.allSatisfy { term in
      if case .soundPressureLevel = term.factor.root.scale { return false }
      return true
    }
  }

  /// The unit's size as a quotient of coefficient products and a power of ten, kept apart so
  /// that a conversion rounds as few times as possible.
  private var size: (numerator: Double, denominator: Double, decimalExponent: Int) {
    var numerator = 1.0
    var denominator = 1.0
    var decimalExponent = 0
    for term in factors {
      let power = Double(term.exponent)
      let coefficient = term.factor.coefficient
      if term.exponent > 0 {
        numerator *= term.exponent == 1 ? coefficient : Foundation.pow(coefficient, power)
      } else {
        denominator *= term.exponent == -1 ? coefficient : Foundation.pow(coefficient, -power)
      }
      // Powers are within ±2^31 and decimal exponents within ±20, so this cannot overflow.
      decimalExponent += term.factor.decimalExponent * term.exponent
    }
    return (numerator, denominator, decimalExponent)
  }

  private func proportionalConversion(_ value: Double, to other: HKUnit) -> Double {
    let from = size
    let to = other.size
    let scaled = value * (from.numerator * to.denominator) / (from.denominator * to.numerator)
    return HKUnit.scale(scaled, byPowerOfTen: from.decimalExponent - to.decimalExponent)
  }

  /// The value in the SI base of the unit's dimension (kelvin, pascal, kilogram …).
  private func baseValue(of value: Double) -> Double? {
    if let factor = soleFactor {
      switch factor.root.scale {
      case .temperature(let offset, let perKelvin):
        return HKUnit.scale(
          (value + offset) / perKelvin, byPowerOfTen: factor.prefix.decimalExponent)
      case .soundPressureLevel:
        return 2e-5 * Foundation.pow(10, value / 20)
      case .linear: break
      }
    }
    guard isProportional else { return nil }
    let size = size
    return HKUnit.scale(
      value * size.numerator / size.denominator, byPowerOfTen: size.decimalExponent)
  }

  /// The value in this unit of an amount given in the SI base of its dimension.
  private func value(fromBase base: Double) -> Double? {
    if let factor = soleFactor {
      switch factor.root.scale {
      case .temperature(let offset, let perKelvin):
        let kelvin = HKUnit.scale(base, byPowerOfTen: -factor.prefix.decimalExponent)
        return kelvin * perKelvin - offset
      case .soundPressureLevel:
        return 20 * Foundation.log10(base / 2e-5)
      case .linear: break
      }
    }
    guard isProportional else { return nil }
    let size = size
    return HKUnit.scale(
      base * size.denominator / size.numerator, byPowerOfTen: -size.decimalExponent)
  }

  /// `value × 10^power`, multiplying or dividing by exact powers of ten so that metric
  /// prefixes convert without rounding where the result is representable.
  static func scale(_ value: Double, byPowerOfTen power: Int) -> Double {
    // Beyond ±800 every finite non-zero Double has overflowed or underflowed already.
    var remaining = min(max(power, -800), 800)
    var result = value
    while remaining != 0 {
      let step = min(abs(remaining), 22)
      let factor = exactPowersOfTen[step]
      result = remaining > 0 ? result * factor : result / factor
      remaining += remaining > 0 ? -step : step
    }
    return result
  }

  /// 10⁰ … 10²², each exactly representable as a Double.
  private static let exactPowersOfTen: [Double] = {
    var powers: [Double] = [1]
    for _ in 1...22 { powers.append(powers[powers.count - 1] * 10) }
    return powers
  }()
}
