import Foundation
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
    let trend = Trend(points: points)
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

  // Fuzzing finding 6 (docs/reliability.md): two readings years apart make one point per day
  // between them. The points are allocated once, and showing a part of them copies only
  // that part.
  @Test func aLongSpanIsAllocatedOnce() {
    let trend = Trend(days: days([(day(2026, 1, 1), 150), (day(2027, 8, 24), 160)]))
    #expect(trend.points.count == 601)
    // Grown by doubling, 601 points would sit in room for about 1,024.
    #expect(trend.points.capacity <= trend.points.count + trend.points.count / 64)
  }

  @Test func showingEveryDayReturnsThePointsWithoutACopy() {
    let trend = Trend(days: days([(day(2026, 1, 1), 150), (day(2027, 8, 24), 160)]))
    let all = trend.points(from: day(1999, 1, 1), through: day(2100, 1, 1))
    let storage = trend.points.withUnsafeBufferPointer { $0.baseAddress }
    #expect(all.withUnsafeBufferPointer { $0.baseAddress } == storage)
    #expect(all == trend.points)
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
