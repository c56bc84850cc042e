/// The IOM 2009 pre-pregnancy BMI categories, with their gestational weight-gain advice.
public enum PregnancyCategory: String, CaseIterable, Sendable {
  /// BMI below 18.5.
  case underweight
  /// BMI 18.5 to under 25.
  case normal
  /// BMI 25 to under 30.
  case overweight
  /// BMI 30 or more (IOM has no separate targets for obese classes II and III).
  case obese

  /// The category of a pre-pregnancy BMI.
  public init(bmi: Double) {
    switch BMIClass(bmi: bmi) {
    case .underweight: self = .underweight
    case .normal: self = .normal
    case .overweight: self = .overweight
    case .obeseI, .obeseII, .obeseIII: self = .obese
    }
  }

  /// Recommended total gain in kilograms over the whole pregnancy.
  public var totalGain: ClosedRange<Double> {
    switch self {
    case .underweight: 12.5...18
    case .normal: 11.5...16
    case .overweight: 7...11.5
    case .obese: 5...9
    }
  }

  /// Recommended weekly gain in kilograms in the second and third trimesters.
  public var weeklyGain: ClosedRange<Double> {
    switch self {
    case .underweight: 0.44...0.58
    case .normal: 0.35...0.50
    case .overweight: 0.23...0.33
    case .obese: 0.17...0.27
    }
  }
}
