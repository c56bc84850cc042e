/// The WHO adult BMI classes.
///
/// Bounds are half-open, so a value between the printed classes (24.95) falls in the lower
/// class: < 18.5, 18.5 ..< 25, 25 ..< 30, 30 ..< 35, 35 ..< 40, ≥ 40.
public enum BMIClass: String, CaseIterable, Sendable {
  /// BMI below 18.5.
  case underweight
  /// BMI 18.5 to under 25.
  case normal
  /// BMI 25 to under 30.
  case overweight
  /// BMI 30 to under 35.
  case obeseI = "obese I"
  /// BMI 35 to under 40.
  case obeseII = "obese II"
  /// BMI 40 or more.
  case obeseIII = "obese III"

  /// The class of a BMI value in kg/m².
  public init(bmi: Double) {
    switch bmi {
    case ..<18.5: self = .underweight
    case ..<25: self = .normal
    case ..<30: self = .overweight
    case ..<35: self = .obeseI
    case ..<40: self = .obeseII
    default: self = .obeseIII
    }
  }

  /// The label printed by `bmi`: `normal`, `obese I`, …
  public var label: String { rawValue }

  /// The printed BMI range of the class, e.g. `18.5-24.9`.
  public var rangeText: String {
    switch self {
    case .underweight: "<18.5"
    case .normal: "18.5-24.9"
    case .overweight: "25-29.9"
    case .obeseI: "30-34.9"
    case .obeseII: "35-39.9"
    case .obeseIII: ">=40"
    }
  }
}
