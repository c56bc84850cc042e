import Testing

@testable import WeighKit

@Suite struct PregnancyRangeTests {
  func range(_ week: Int, _ pre: Double = 60, _ height: Double = 1.65) -> PregnancyRange? {
    try? PregnancyRange.at(week: week, prePregnancyKilograms: pre, heightMeters: height).get()
  }

  @Test func firstTrimesterSpreadsLinearly() throws {
    // 60 kg at 1.65 m: BMI 22.04, normal.
    let week1 = try #require(range(1))
    #expect(week1.category == .normal)
    #expect(isClose(week1.prePregnancyBMI, 22.038_567_5, 1e-6))
    #expect(isClose(week1.gain.lowerBound, 0.5 / 13))
    #expect(isClose(week1.gain.upperBound, 2.0 / 13))
    let week13 = try #require(range(13))
    #expect(isClose(week13.low, 60.5))
    #expect(isClose(week13.high, 62))
  }

  @Test func laterWeeksUseTheWeeklyRates() throws {
    // Normal: 0.5 + 7·0.35 = 2.95 and 2 + 7·0.50 = 5.5.
    let week20 = try #require(range(20))
    #expect(isClose(week20.low, 62.95))
    #expect(isClose(week20.high, 65.5))
    #expect(week20.contains(62.95))
    #expect(week20.contains(65.5))
    #expect(!week20.contains(62.94))
    #expect(!week20.contains(65.51))
    // Week 41: 2 + 28·0.5 = 16 = the total; week 42 would be 16.5, capped at 16.
    #expect(isClose(range(41)?.high, 76))
    #expect(isClose(range(42)?.high, 76))
    #expect(isClose(range(42)?.low, 60 + 0.5 + 29 * 0.35))
  }

  @Test func boundsCapAtTheTotalRange() throws {
    // Underweight (45 kg at 1.65 m, BMI 16.5) at week 42: 0.5 + 29·0.44 = 13.26 → 12.5,
    // 2 + 29·0.58 = 18.82 → 18.
    let under = try #require(range(42, 45))
    #expect(under.category == .underweight)
    #expect(isClose(under.gain.lowerBound, 12.5))
    #expect(isClose(under.gain.upperBound, 18))
    // Obese (100 kg, BMI 36.7) at week 30: 0.5 + 17·0.17 = 3.39 and 2 + 17·0.27 = 6.59.
    let obese = try #require(range(30, 100))
    #expect(obese.category == .obese)
    #expect(isClose(obese.gain.lowerBound, 3.39))
    #expect(isClose(obese.gain.upperBound, 6.59))
    // Overweight (75 kg, BMI 27.5) at week 40: 0.5 + 27·0.23 = 6.71, 2 + 27·0.33 = 10.91.
    let over = try #require(range(40, 75))
    #expect(over.category == .overweight)
    #expect(isClose(over.gain.upperBound, 10.91))
  }

  @Test func errorsAreValues() {
    #expect(
      PregnancyRange.at(week: 20, prePregnancyKilograms: 60, heightMeters: nil)
        == .failure(.missingHeight))
    #expect(
      PregnancyRange.at(week: 20, prePregnancyKilograms: nil, heightMeters: 1.65)
        == .failure(.missingPrePregnancyWeight))
    #expect(
      PregnancyRange.at(week: 0, prePregnancyKilograms: 60, heightMeters: 1.65)
        == .failure(.weekOutOfRange(0)))
    #expect(
      PregnancyRange.at(week: 43, prePregnancyKilograms: nil, heightMeters: nil)
        == .failure(.weekOutOfRange(43)))
    #expect(PregnancyRangeError.weekOutOfRange(43).message.contains("1 to 42"))
  }
}
