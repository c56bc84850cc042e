/// The IOM 2009 recommended weight range at one week of a singleton pregnancy.
///
/// Weeks 1–13 (first trimester): a gain of 0.5–2 kg spread linearly, `[0.5·w/13, 2·w/13]`.
/// Week w ≥ 13: `[0.5 + (w − 13)·low rate, 2 + (w − 13)·high rate]`, each bound capped at its
/// bound of the category's total gain. Both formulas agree at week 13.
public struct PregnancyRange: Equatable, Sendable {
  /// The weeks the range is defined for.
  public static let weeks = 1...42
  /// The last week of the first trimester, by this tool's convention.
  public static let firstTrimesterEnd = 13

  /// The pregnancy week, 1–42.
  public var week: Int
  /// The pre-pregnancy weight in kilograms.
  public var prePregnancyKilograms: Double
  /// The pre-pregnancy BMI.
  public var prePregnancyBMI: Double
  /// The IOM category of that BMI.
  public var category: PregnancyCategory
  /// The recommended gain so far in kilograms.
  public var gain: ClosedRange<Double>

  /// The lowest recommended weight in kilograms.
  public var low: Double { prePregnancyKilograms + gain.lowerBound }
  /// The highest recommended weight in kilograms.
  public var high: Double { prePregnancyKilograms + gain.upperBound }

  /// Whether `kilograms` lies in `low...high`.
  public func contains(_ kilograms: Double) -> Bool {
    kilograms >= low && kilograms <= high
  }

  /// The range at `week`, or why there is none.
  public static func at(
    week: Int, prePregnancyKilograms: Double?, heightMeters: Double?
  ) -> Result<PregnancyRange, PregnancyRangeError> {
    // The week is the command's own argument, so it is checked before the settings.
    guard weeks.contains(week) else { return .failure(.weekOutOfRange(week)) }
    guard let heightMeters, heightMeters > 0 else { return .failure(.missingHeight) }
    guard let prePregnancyKilograms, prePregnancyKilograms > 0 else {
      return .failure(.missingPrePregnancyWeight)
    }
    let bmi = BodyMassIndex(kilograms: prePregnancyKilograms, heightMeters: heightMeters).value
    let category = PregnancyCategory(bmi: bmi)
    return .success(
      PregnancyRange(
        week: week, prePregnancyKilograms: prePregnancyKilograms, prePregnancyBMI: bmi,
        category: category, gain: gain(week: week, category: category)))
  }

  /// The recommended gain in kilograms at `week` (1–42) for `category`.
  public static func gain(week: Int, category: PregnancyCategory) -> ClosedRange<Double> {
    let end = firstTrimesterEnd
    if week <= end {
      let share = Double(week) / Double(end)
      return (0.5 * share)...(2.0 * share)
    }
    let weeksAfter = Double(week - end)
    let low = min(0.5 + weeksAfter * category.weeklyGain.lowerBound, category.totalGain.lowerBound)
    let high = min(2.0 + weeksAfter * category.weeklyGain.upperBound, category.totalGain.upperBound)
    return low...high
  }
}
