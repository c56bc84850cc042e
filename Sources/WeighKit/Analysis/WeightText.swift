/// Weight phrases shared by the analysis renderers, in a display unit to 0.1.
public enum WeightText {
  /// `+0.4 kg`, `-1.2 lb`, `0.0 kg`: a change with its sign.
  public static func signed(kilograms: Double, unit: DisplayUnit) -> String {
    let text = DisplayUnit.formatNumber(unit.mass.fromKilograms(kilograms), decimals: 1)
    let sign = text.hasPrefix("-") || Double(text) == 0 ? "" : "+"
    return "\(sign)\(text) \(unit.rawValue)"
  }

  /// `-0.4 kg/week`.
  public static func rate(kilogramsPerWeek: Double, unit: DisplayUnit) -> String {
    signed(kilograms: kilogramsPerWeek, unit: unit) + "/week"
  }

  /// `63.0-65.5 kg`.
  public static func range(low: Double, high: Double, unit: DisplayUnit) -> String {
    let mass = unit.mass
    return DisplayUnit.formatNumber(mass.fromKilograms(low), decimals: 1) + "-"
      + DisplayUnit.formatNumber(mass.fromKilograms(high), decimals: 1) + " " + unit.rawValue
  }

  /// `175 cm` for kilogram users, `5 ft 9 in` for pound and stone users.
  public static func height(meters: Double, unit: DisplayUnit) -> String {
    if unit == .kg { return DisplayUnit.formatNumber(meters * 100, decimals: 0) + " cm" }
    let inches = Int(rounding: meters / 0.0254, clampedTo: 0...1_000_000)
    return "\(inches / 12) ft \(inches % 12) in"
  }

  /// A number to `decimals` places with a `%` sign.
  public static func percent(_ value: Double, decimals: Int = 1) -> String {
    DisplayUnit.formatNumber(value, decimals: decimals) + "%"
  }
}
