import Foundation
import Testing

@testable import WeighKit

@Suite struct AnalysisTextTests {
  let lb = MassUnit.lb

  @Test func trendSummaryAndTable() {
    let twoDays = Trend(days: [
      DailyValue(day: day(2026, 1, 5), kilograms: lb.toKilograms(150), readingCount: 1),
      DailyValue(day: day(2026, 1, 6), kilograms: lb.toKilograms(152), readingCount: 1),
    ])
    #expect(
      twoDays.summaryLines(unit: .lb) == [
        "trend: 150.2 lb on 2026-01-06",
        "rate:  +1.4 lb/week (over 2 days)",
      ])
    let oneDay = Trend(days: [DailyValue(day: day(2026, 1, 5), kilograms: 70, readingCount: 1)])
    #expect(oneDay.summaryLines(unit: .kg)[1] == "rate:  unknown (needs weights on 2 days)")
    #expect(Trend(days: []).summaryLines(unit: .kg) == ["no weights yet; log one, e.g. log 68.5kg"])

    let filled = Trend(days: [
      DailyValue(day: day(2026, 1, 5), kilograms: lb.toKilograms(150), readingCount: 1),
      DailyValue(day: day(2026, 1, 8), kilograms: lb.toKilograms(148), readingCount: 1),
    ])
    #expect(
      Trend.tableLines(points: filled.points, unit: .lb) == [
        "date           weight     trend",
        "2026-01-05   150.0 lb  150.0 lb",
        "2026-01-06  ~149.3 lb  149.9 lb",
        "2026-01-07  ~148.7 lb  149.8 lb",
        "2026-01-08   148.0 lb  149.6 lb",
      ])
  }

  @Test func statsTable() {
    let readings = [
      reading(2026, 3, 25, 8, 0, 70), reading(2026, 3, 29, 8, 0, 72),
      reading(2026, 3, 30, 8, 0, 74),
    ]
    let buckets = StatisticsBucket.buckets(
      of: readings, interval: .weekly, zone: Zones.berlin,
      from: instant(2026, 3, 25), to: instant(2026, 4, 1))
    #expect(
      StatisticsBucket.tableLines(buckets, interval: .weekly, unit: .kg) == [
        "week of     average      min      max  count",
        "2026-03-23  71.0 kg  70.0 kg  72.0 kg      2",
        "2026-03-30  74.0 kg  74.0 kg  74.0 kg      1",
      ])
    let monthly = StatisticsBucket.buckets(
      of: readings, interval: .monthly, zone: Zones.berlin,
      from: instant(2026, 2, 1), to: instant(2026, 4, 1), includeEmpty: true)
    let lines = StatisticsBucket.tableLines(monthly, interval: .monthly, unit: .kg)
    #expect(lines[1] == "2026-02        -        -        -      0")
    #expect(lines[2].hasPrefix("2026-03  72.0 kg"))
    #expect(
      StatisticsBucket.tableLines([], interval: .daily, unit: .kg) == ["no weights in the range"])
  }

  @Test func bmiLines() {
    #expect(
      BodyMassIndex.lines(kilograms: 70, weightSource: "trend", heightMeters: 1.75, unit: .kg) == [
        "bmi:    22.9 (normal, 18.5-24.9)",
        "weight: 70.0 kg (trend)",
        "height: 175 cm",
      ])
    let imperial = BodyMassIndex.lines(
      kilograms: 70, weightSource: "latest", heightMeters: 1.75, unit: .lb)
    #expect(imperial[1] == "weight: 154.3 lb (latest)")
    #expect(imperial[2] == "height: 5 ft 9 in")
  }

  @Test func pregnancyRangeLines() throws {
    let range = try PregnancyRange.at(week: 20, prePregnancyKilograms: 60, heightMeters: 1.65).get()
    #expect(
      range.lines(latestKilograms: 64, unit: .kg) == [
        "week 20: 63.0-65.5 kg",
        "class:   normal (pre-pregnancy bmi 22.0)",
        "gain:    3.0-5.5 kg",
        "latest:  64.0 kg, inside",
      ])
    #expect(range.lines(latestKilograms: 66, unit: .kg).last == "latest:  66.0 kg, above the range")
    #expect(range.lines(latestKilograms: 62, unit: .kg).last == "latest:  62.0 kg, below the range")
    #expect(range.lines(latestKilograms: nil, unit: .kg).last == "latest:  none")
  }

  @Test func glucoseLines() {
    let values =
      Array(repeating: 120.0, count: 72) + Array(repeating: 60.0, count: 3)
      + Array(repeating: 200.0, count: 21) + Array(repeating: 300.0, count: 4)
    let lines = GlucoseSummary(milligramsPerDeciliter: values).lines()
    #expect(
      Array(lines[0..<4]) == [
        "readings: 100",
        "mean:     142.2 mg/dL",
        "sd:       47.7 mg/dL",
        "cv:       33.6%",
      ])
    #expect(lines[4] == "")
    #expect(lines[5] == "band         mg/dL  readings  share")
    #expect(lines[6] == "very low       <54         0   0.0%")
    #expect(lines[8] == "in range    70-180        72  72.0%")
    #expect(lines[11] == "")
    #expect(lines[12] == "target          value  met")
    #expect(lines[13] == "tir >70%        72.0%  yes")
    #expect(lines[16] == "above 180 <25%  25.0%   no")
    #expect(lines[18] == "cv <=36%        33.6%  yes")
    #expect(lines.count == 19)
    #expect(GlucoseSummary(milligramsPerDeciliter: []).lines() == ["no glucose readings"])
  }

  @Test func goalLines() {
    let start = day(2026, 1, 1)
    #expect(
      GoalProjection(goal: 70, trend: 80, dailySlope: -0.1, lastDay: start).lines(unit: .kg) == [
        "trend:     80.0 kg",
        "goal:      70.0 kg",
        "to go:     10.0 kg to lose",
        "rate:      -0.7 kg/week",
        "projected: 2026-04-11 (in 100 days)",
      ])
    let away = GoalProjection(goal: 70, trend: 60, dailySlope: -0.1, lastDay: start).lines(
      unit: .kg)
    #expect(away[2] == "to go:  10.0 kg to gain")
    #expect(away.last == "status: the trend is moving away from the goal")
    let atGoal = GoalProjection(goal: 70, trend: 70.5, dailySlope: nil, lastDay: start).lines(
      unit: .lb)
    #expect(atGoal[3] == "rate:   unknown")
    #expect(atGoal.last == "status: at goal (within 2.5 lb of it)")
    let far = GoalProjection(goal: 70, trend: 90, dailySlope: -0.001, lastDay: start).lines(
      unit: .kg)
    #expect(far.last == "projected: more than 3 years away")
  }

  @Test func dayLines() {
    let readings = [
      reading(2026, 1, 3, 13, 0, 70.6), reading(2026, 1, 3, 7, 30, 70.0),
      reading(2026, 1, 3, 21, 0, 71.0), reading(2026, 1, 4, 7, 0, 69.0),
    ]
    #expect(
      DailyValue.dayLines(
        readings: readings, day: day(2026, 1, 3), policy: .latest, zone: Zones.berlin, unit: .kg
      ) == [
        "07:30  70.0 kg",
        "13:00  70.6 kg",
        "21:00  71.0 kg",
        "2026-01-03 (latest): 71.0 kg",
      ])
    #expect(
      DailyValue.dayLines(
        readings: readings, day: day(2026, 1, 9), policy: .first, zone: Zones.berlin, unit: .kg)
        == ["no weights on 2026-01-09"])
  }

  @Test func signedWeights() {
    #expect(WeightText.signed(kilograms: 0.04, unit: .kg) == "0.0 kg")
    #expect(WeightText.signed(kilograms: -0.04, unit: .kg) == "0.0 kg")
    #expect(WeightText.signed(kilograms: 0.45359237, unit: .lb) == "+1.0 lb")
    #expect(WeightText.rate(kilogramsPerWeek: -0.5, unit: .kg) == "-0.5 kg/week")
  }
}
