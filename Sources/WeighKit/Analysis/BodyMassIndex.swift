/// Body mass index: weight in kilograms over height in metres squared.
public struct BodyMassIndex: Equatable, Sendable {
  /// The BMI in kg/m².
  public var value: Double

  /// The BMI of `kilograms` at `heightMeters`.
  public init(kilograms: Double, heightMeters: Double) {
    value = kilograms / (heightMeters * heightMeters)
  }

  /// The WHO class of the value.
  public var whoClass: BMIClass { BMIClass(bmi: value) }
}
