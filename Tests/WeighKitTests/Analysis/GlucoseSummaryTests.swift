import Testing

@testable import WeighKit

@Suite struct GlucoseSummaryTests {
  @Test func bandsAtAndBetweenTheBounds() {
    let cases: [(Double, GlucoseBand)] = [
      (40, .veryLow), (53, .veryLow), (53.9, .veryLow), (54, .low), (69, .low), (69.5, .low),
      (70, .inRange), (180, .inRange), (180.4, .high), (181, .high), (250, .high),
      (250.5, .veryHigh), (251, .veryHigh),
    ]
    for (value, band) in cases {
      #expect(GlucoseBand(milligramsPerDeciliter: value) == band, "\(value) mg/dL")
    }
  }

  @Test func meanSampleSDAndShares() {
    let summary = GlucoseSummary(milligramsPerDeciliter: [
      50, 60, 69.5, 70, 100, 180, 180.4, 200, 250, 251,
    ])
    #expect(summary.count == 10)
    #expect(isClose(summary.mean, 141.09))
    #expect(isClose(summary.standardDeviation, 79.729_772_078, 1e-8))
    #expect(summary.bandCounts == [.veryLow: 1, .low: 2, .inRange: 3, .high: 3, .veryHigh: 1])
    #expect(isClose(summary.timeInRange, 30))
    #expect(isClose(summary.timeBelowRange, 30))
    #expect(isClose(summary.timeAboveRange, 40))
  }

  @Test func sdIsTheSampleNotThePopulationOne() {
    // 100 and 200: mean 150, sample SD √(2·50²/1) = 70.71, population SD would be 50.
    let summary = GlucoseSummary(milligramsPerDeciliter: [100, 200])
    #expect(isClose(summary.standardDeviation, 70.710_678_118, 1e-8))
    #expect(isClose(summary.coefficientOfVariation, 47.140_452_079, 1e-8))
    #expect(summary.meets(.variability) == false)
  }

  @Test func attdTargets() {
    // 72% in range, 3% low, 21% high, 4% very high: mean 142.2, SD 47.73, CV 33.56%.
    let values =
      Array(repeating: 120.0, count: 72) + Array(repeating: 60.0, count: 3)
      + Array(repeating: 200.0, count: 21) + Array(repeating: 300.0, count: 4)
    let summary = GlucoseSummary(milligramsPerDeciliter: values)
    #expect(isClose(summary.coefficientOfVariation, 33.563_827_95, 1e-7))
    #expect(summary.meets(.timeInRange) == true)
    #expect(summary.meets(.belowRange) == true)
    #expect(summary.meets(.veryLow) == true)
    #expect(summary.meets(.aboveRange) == false)  // exactly 25% is not below 25%
    #expect(summary.meets(.veryHigh) == true)
    #expect(summary.meets(.variability) == true)
  }

  @Test func fewReadings() {
    let none = GlucoseSummary(milligramsPerDeciliter: [])
    #expect(none.mean == nil)
    #expect(none.timeInRange == 0)
    #expect(none.meets(.timeInRange) == nil)
    let one = GlucoseSummary(milligramsPerDeciliter: [45])
    #expect(one.mean == 45)
    #expect(one.standardDeviation == nil)
    #expect(one.meets(.variability) == nil)
    #expect(one.meets(.veryLow) == false)
  }
}
