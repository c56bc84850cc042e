import Foundation
import HealthSim
import Testing

@testable import WeighKit

@Suite struct TrendTests {
  let lb = MassUnit.lb

  func days(_ values: [(CivilDate, Double)]) -> [DailyValue] {
    values.map { DailyValue(day: $0.0, kilograms: lb.toKilograms($0.1), readingCount: 1) }
  }

  @Test func trendWeightExampleOneFiftyThenOneFiftyTwo() {
    let trend = Trend(days: days([(day(2026, 1, 5), 150), (day(2026, 1, 6), 152)]))
    #expect(isClose(trend.points.map { lb.fromKilograms($0.trend) }.first, 150))
    #expect(isClose(trend.current.map(lb.fromKilograms), 150.2))
    // Two days: the slope is the difference, 0.2 lb a day, 1.4 lb a week.
    #expect(isClose(trend.weeklyRate.map(lb.fromKilograms), 1.4))
  }

  @Test func trendWeightExampleMondayToThursdayFill() {
    let trend = Trend(days: days([(day(2026, 1, 5), 150), (day(2026, 1, 8), 148)]))
    #expect(
      trend.points.map(\.day) == [
        day(2026, 1, 5), day(2026, 1, 6), day(2026, 1, 7), day(2026, 1, 8),
      ])
    #expect(trend.points.map(\.isInterpolated) == [false, true, true, false])
    let weights = trend.points.map { lb.fromKilograms($0.kilograms) }
    #expect(isClose(weights[1], 149 + 1.0 / 3))
    #expect(isClose(weights[2], 148 + 2.0 / 3))
    #expect(DisplayUnit.formatNumber(weights[1], decimals: 2) == "149.33")
    #expect(DisplayUnit.formatNumber(weights[2], decimals: 2) == "148.67")
    // T: 150; 150 + 0.1·(149.333 − 150) = 149.9333; 149.9333 + 0.1·(148.6667 − 149.9333) =
    // 149.80667; 149.80667 + 0.1·(148 − 149.80667) = 149.626.
    let trends = trend.points.map { lb.fromKilograms($0.trend) }
    #expect(isClose(trends[1], 149.933_333_333, 1e-8))
    #expect(isClose(trends[2], 149.806_666_667, 1e-8))
    #expect(isClose(trend.current.map(lb.fromKilograms), 149.626, 1e-9))
    // OLS over x = 0…3: x̄ = 1.5, Σ(x − x̄)·T = −0.624333…, Σ(x − x̄)² = 5.
    #expect(isClose(trend.dailySlope.map(lb.fromKilograms), -0.124_866_667, 1e-8))
    #expect(trend.rateDays == 4)
  }

  @Test func oneDayHasATrendButNoRate() {
    let trend = Trend(days: days([(day(2026, 1, 5), 150)]))
    #expect(isClose(trend.current.map(lb.fromKilograms), 150))
    #expect(trend.weeklyRate == nil)
    #expect(trend.rateDays == 1)
  }

  @Test func noDaysNoTrend() {
    let trend = Trend(days: [])
    #expect(trend.current == nil)
    #expect(trend.points.isEmpty)
  }

  @Test func rateUsesOnlyTheLastFourteenDays() {
    // 20 days: the first six are wild, the last 14 rise 0.05 kg a day exactly.
    var points: [TrendPoint] = []
    for index in 0..<20 {
      let value = index < 6 ? (index % 2 == 0 ? 90.0 : 50.0) : 70 + 0.05 * Double(index)
      points.append(
        TrendPoint(
          day: day(2026, 1, 1).adding(days: index), kilograms: value, isInterpolated: false,
          trend: value))
    }
    let trend = Trend(readingDays: points)
    #expect(trend.rateDays == 14)
    #expect(isClose(trend.weeklyRate, 0.35, 1e-12))
  }

  @Test func trendFromReadingsUsesTheDailyPolicy() {
    let readings = [
      reading(2026, 1, 5, 7, 0, 80), reading(2026, 1, 5, 20, 0, 90), reading(2026, 1, 6, 7, 0, 81),
    ]
    let first = Trend(readings: readings, policy: .first, zone: Zones.berlin)
    #expect(isClose(first.current, 80.1))
    let latest = Trend(readings: readings, policy: .latest, zone: Zones.berlin)
    #expect(isClose(latest.current, 90 + 0.1 * (81 - 90)))
  }

  @Test func aRangeOfPointsKeepsTheWholeHistorySmoothing() {
    let trend = Trend(days: days([(day(2026, 1, 1), 150), (day(2026, 1, 11), 140)]))
    let shown = trend.points(from: day(2026, 1, 10), through: day(2026, 1, 20))
    #expect(shown.map(\.day) == [day(2026, 1, 10), day(2026, 1, 11)])
    #expect(shown.last?.trend == trend.current)
  }

  // Fuzzing finding 6 (docs/reliability.md): two readings years apart span one trend day
  // per calendar day between them. Only the days with a reading are kept; the others are
  // computed when shown.
  @Test func aLongSpanKeepsOnlyTheDaysWithAReading() {
    let trend = Trend(days: days([(day(2026, 1, 1), 150), (day(9999, 8, 24), 160)]))
    #expect(trend.readingDays.map(\.day) == [day(2026, 1, 1), day(9999, 8, 24)])
    #expect(trend.dayCount == day(2026, 1, 1).days(to: day(9999, 8, 24)) + 1)
    #expect(trend.rateDays == 14)
    let shown = trend.points(from: day(5000, 1, 1), through: day(5000, 1, 3))
    #expect(shown.map(\.day) == [day(5000, 1, 1), day(5000, 1, 2), day(5000, 1, 3)])
    #expect(shown.allSatisfy { $0.isInterpolated })
  }

  /// The trend as it was computed before finding 6: every day stored, one after another.
  static func everyDay(_ values: [DailyValue]) -> [TrendPoint] {
    let sorted = values.sorted { $0.day < $1.day }
    var points: [TrendPoint] = []
    var trend = sorted.first?.kilograms ?? 0
    for (index, value) in sorted.enumerated() {
      if index > 0 {
        let previous = sorted[index - 1]
        let gap = previous.day.days(to: value.day)
        for step in 1..<max(gap, 1) {
          let weight =
            previous.kilograms + Double(step) * (value.kilograms - previous.kilograms) / Double(gap)
          trend += Trend.smoothing * (weight - trend)
          points.append(
            TrendPoint(
              day: previous.day.adding(days: step), kilograms: weight, isInterpolated: true,
              trend: trend))
        }
      }
      trend += Trend.smoothing * (value.kilograms - trend)
      points.append(
        TrendPoint(day: value.day, kilograms: value.kilograms, isInterpolated: false, trend: trend))
    }
    return points
  }

  @Test func theFilledDaysAreTheSameNumbersAsStoringEveryDay() {
    var generator = SeededGenerator(seed: 6)
    for _ in 0..<50 {
      var dayNumber = 0
      var values: [DailyValue] = []
      for _ in 0..<Int(generator.next() % 12 + 1) {
        dayNumber += Int(generator.next() % 40 + 1)
        let kilograms = 50 + Double(generator.next() % 5000) / 100
        values.append(
          DailyValue(
            day: day(2026, 1, 1).adding(days: dayNumber), kilograms: kilograms, readingCount: 1))
      }
      let expected = Self.everyDay(values)
      let trend = Trend(days: values.shuffled(using: &generator))
      // Bit for bit: == on Double.
      #expect(trend.points == expected)
      #expect(trend.current == expected.last?.trend)
      let first = expected[Int(generator.next() % UInt64(expected.count))].day
      let last = first.adding(days: Int(generator.next() % 30))
      #expect(
        trend.points(from: first, through: last)
          == expected.filter { $0.day >= first && $0.day <= last })
    }
  }

  @Test func aPartOfThePointsIsTheSameAsFilteringThem() {
    let trend = Trend(
      days: days([(day(2026, 1, 1), 150), (day(2026, 3, 1), 155), (day(2026, 3, 4), 154)]))
    let ranges = [
      (day(2025, 1, 1), day(2025, 12, 31)), (day(2025, 12, 31), day(2026, 1, 1)),
      (day(2026, 1, 15), day(2026, 2, 2)), (day(2026, 3, 4), day(2026, 3, 4)),
      (day(2026, 3, 5), day(2027, 1, 1)), (day(2026, 2, 1), day(2026, 1, 1)),
    ]
    for (first, last) in ranges {
      let expected = trend.points.filter { $0.day >= first && $0.day <= last }
      #expect(trend.points(from: first, through: last) == expected)
    }
  }
}
