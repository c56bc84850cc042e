import Foundation

/// A unit of mass that weigh reads and displays.
///
/// Conversions use the exact factors 1 lb = 0.45359237 kg and 1 st = 14 lb.
public enum MassUnit: String, CaseIterable, Sendable, Codable {
  case kg
  case g
  case lb
  case st

  /// Kilograms in one of this unit.
  public var kilograms: Double {
    switch self {
    case .kg: 1
    case .g: 0.001
    case .lb: 0.45359237
    case .st: 6.35029318
    }
  }

  /// Converts `value` in this unit to kilograms.
  public func toKilograms(_ value: Double) -> Double { value * kilograms }

  /// Converts `kilograms` to this unit.
  public func fromKilograms(_ kilograms: Double) -> Double { kilograms / self.kilograms }
}

/// The units a weight can be shown in (`set unit`, `--unit`).
public enum DisplayUnit: String, CaseIterable, Sendable, Codable {
  case kg
  case lb
  case st

  /// The mass unit this display unit shows.
  public var mass: MassUnit {
    switch self {
    case .kg: .kg
    case .lb: .lb
    case .st: .st
    }
  }

  /// `68.5 kg`: the weight in this unit, rounded to 0.1 of the unit for display only.
  public func format(kilograms: Double) -> String {
    "\(Self.formatNumber(mass.fromKilograms(kilograms), decimals: 1)) \(rawValue)"
  }

  /// A number rounded half away from zero to `decimals` places, without a trailing `-0`.
  ///
  /// Any Double is shown without trapping: magnitudes of 1e15 and more (where a fixed number
  /// of decimals means nothing) show in Swift's shortest form (`9.2e+17`), and non-finite
  /// values as `inf`, `-inf` or `nan`. `decimals` is clamped to 0…9.
  public static func formatNumber(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
    guard abs(value) < largestFixed else {
      // Whole numbers up to 2^63 (sync versions, counts) still show as written.
      if decimals <= 0, let whole = Int64(exactly: value.rounded()) { return String(whole) }
      return "\(value)"
    }
    let decimals = min(max(decimals, 0), 9)
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    // A tiny nudge so that 68.55 (stored as 68.54999…) shows as 68.6, as a person expects;
    // capped, so that it never moves a large number by a whole unit.
    let exact = value * scale
    let nudge = min(abs(exact) * 1e-12, 1e-6)
    let nudged = exact < 0 ? exact - nudge : exact + nudge
    var rounded = nudged.rounded(.toNearestOrAwayFromZero) / scale
    if rounded == 0 { rounded = 0 }
    // |value| < 1e15 and scale ≤ 1e9 keep every product below 1e24, but Int64 ends near
    // 9.2e18: large values with many decimals lose their fraction instead of trapping.
    let scaledMagnitude = (abs(rounded) * scale).rounded()
    guard let scaled = Int64(exactly: scaledMagnitude), let unit = Int64(exactly: scale) else {
      return "\(rounded.rounded())"
    }
    let negative = rounded < 0
    if decimals == 0 { return (negative ? "-" : "") + String(scaled) }
    let whole = scaled / unit
    var fraction = String(scaled % unit)
    while fraction.count < decimals { fraction = "0" + fraction }
    return (negative ? "-" : "") + "\(whole).\(fraction)"
  }

  /// `value` with `decimals` decimals, or, when that would show a value that is not zero as
  /// zero (0.12 kcal at 0 decimals), with two significant digits (`0.12`, `0.0041`), at
  /// most 9 decimals (smaller values keep the plain text).
  public static func formatNonZero(_ value: Double, decimals: Int) -> String {
    let text = formatNumber(value, decimals: decimals)
    guard value != 0, value.isFinite, text.allSatisfy({ $0 == "0" || $0 == "." || $0 == "-" })
    else { return text }
    // |value| rounds to zero, so it is below 1 and above 1e-324: 0 to 324 leading zeros.
    let leading = Int(-(log10(abs(value))).rounded(.down))  // checked: 0 to 324
    var shown = formatNumber(value, decimals: min(max(decimals, leading + 2), 9))
    // Below a billionth: no shorter text says more than the plain one.
    guard !shown.allSatisfy({ $0 == "0" || $0 == "." || $0 == "-" }) else { return text }
    while shown.hasSuffix("0"), shown.contains("."),
      !shown.dropLast().allSatisfy({
        $0 == "0" || $0 == "." || $0 == "-"
      })
    {
      shown.removeLast()
    }
    return shown
  }

  /// Magnitudes from here on are shown in exponent form.
  static let largestFixed = 1e15
}
