/// One ATTD 2019 target for most adults with type 1 or type 2 diabetes.
public enum GlucoseTarget: String, CaseIterable, Sendable {
  /// More than 70% of readings in 70–180 mg/dL.
  case timeInRange = "tir >70%"
  /// Fewer than 4% of readings below 70 mg/dL (very low included).
  case belowRange = "below 70 <4%"
  /// Fewer than 1% of readings below 54 mg/dL.
  case veryLow = "below 54 <1%"
  /// Fewer than 25% of readings above 180 mg/dL (very high included).
  case aboveRange = "above 180 <25%"
  /// Fewer than 5% of readings above 250 mg/dL.
  case veryHigh = "above 250 <5%"
  /// A coefficient of variation of 36% or less.
  case variability = "cv <=36%"

  /// The label printed by `glucose`.
  public var label: String { rawValue }
}
