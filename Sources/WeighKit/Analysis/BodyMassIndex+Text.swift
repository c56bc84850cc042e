extension BodyMassIndex {
  /// `bmi`'s lines: the value with its WHO class, and the weight and height it came from.
  /// `weightSource` names the weight used, e.g. `trend` or `latest`.
  public static func lines(
    kilograms: Double, weightSource: String, heightMeters: Double, unit: DisplayUnit
  ) -> [String] {
    let bmi = BodyMassIndex(kilograms: kilograms, heightMeters: heightMeters)
    return TextTable.labelled([
      (
        "bmi",
        "\(DisplayUnit.formatNumber(bmi.value, decimals: 1)) (\(bmi.whoClass.label), \(bmi.whoClass.rangeText))"
      ),
      ("weight", "\(unit.format(kilograms: kilograms)) (\(weightSource))"),
      ("height", WeightText.height(meters: heightMeters, unit: unit)),
    ])
  }
}
