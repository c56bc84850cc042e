extension PregnancyRange {
  /// `range week n`'s lines: the range, the BMI category, the gain so far, and whether the
  /// latest weight (when there is one) is inside.
  public func lines(latestKilograms: Double?, unit: DisplayUnit) -> [String] {
    var rows = [
      ("week \(week)", WeightText.range(low: low, high: high, unit: unit)),
      (
        "class",
        "\(category.rawValue) (pre-pregnancy bmi \(DisplayUnit.formatNumber(prePregnancyBMI, decimals: 1)))"
      ),
      ("gain", WeightText.range(low: gain.lowerBound, high: gain.upperBound, unit: unit)),
    ]
    if let latestKilograms {
      let position =
        contains(latestKilograms)
        ? "inside" : latestKilograms < low ? "below the range" : "above the range"
      rows.append(("latest", "\(unit.format(kilograms: latestKilograms)), \(position)"))
    } else {
      rows.append(("latest", "none"))
    }
    return TextTable.labelled(rows)
  }
}
