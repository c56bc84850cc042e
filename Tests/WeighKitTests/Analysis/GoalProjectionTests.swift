import Testing

@testable import WeighKit

@Suite struct GoalProjectionTests {
  let start = day(2026, 1, 1)

  @Test func projectsTheDateTowardTheGoal() {
    // 10 kg above the goal, losing 0.1 kg a day: 100 days.
    let goal = GoalProjection(goal: 70, trend: 80, dailySlope: -0.1, lastDay: start)
    #expect(goal.status == .projected(date: day(2026, 4, 11), days: 100))
    #expect(goal.distance == 10)
    #expect(isClose(goal.weeklyRate, -0.7))
  }

  @Test func daysCountFromTodayNotFromTheLastReading() {
    // The date is the last day plus 100 days; 29 days later, 71 are left.
    let today = start.adding(days: 29)
    let goal = GoalProjection(goal: 70, trend: 80, dailySlope: -0.1, lastDay: start, today: today)
    #expect(goal.status == .projected(date: day(2026, 4, 11), days: 71))
    let passed = GoalProjection(
      goal: 78, trend: 80, dailySlope: -0.1, lastDay: start, today: today)
    #expect(passed.status == .projected(date: day(2026, 1, 21), days: -9))
    #expect(passed.lines(unit: .kg).last == "projected: 2026-01-21 (9 days ago)")
  }

  @Test func partialDaysRoundDown() {
    // 5 kg below the goal, gaining 0.3 kg a day: 16.67 days, shown as 16.
    let goal = GoalProjection(goal: 65, trend: 60, dailySlope: 0.3, lastDay: start)
    #expect(goal.status == .projected(date: day(2026, 1, 17), days: 16))
  }

  @Test func movingAwayFlatAndAtGoal() {
    #expect(
      GoalProjection(goal: 70, trend: 80, dailySlope: 0.1, lastDay: start).status == .movingAway)
    #expect(
      GoalProjection(goal: 70, trend: 60, dailySlope: -0.1, lastDay: start).status == .movingAway)
    #expect(GoalProjection(goal: 70, trend: 80, dailySlope: 0, lastDay: start).status == .flat)
    #expect(GoalProjection(goal: 70, trend: 80, dailySlope: nil, lastDay: start).status == .flat)
    #expect(
      GoalProjection(goal: 70, trend: 71.134, dailySlope: 0.5, lastDay: start).status == .atGoal)
    #expect(
      GoalProjection(goal: 70, trend: 68.9, dailySlope: -0.5, lastDay: start).status == .atGoal)
    #expect(
      GoalProjection(goal: 70, trend: 71.2, dailySlope: 0.5, lastDay: start).status == .movingAway)
  }

  @Test func moreThanThreeYearsOut() {
    // 2026-01-01 plus 3 years is 2029-01-01, 1096 days later (2028 is a leap year).
    let onTheDay = GoalProjection(
      goal: 70, trend: 70 + 1.2 * 1096, dailySlope: -1.2, lastDay: start)
    #expect(onTheDay.status == .projected(date: day(2029, 1, 1), days: 1096))
    let dayAfter = GoalProjection(
      goal: 70, trend: 70 + 1.2 * 1097.5, dailySlope: -1.2, lastDay: start)
    #expect(dayAfter.status == .beyondThreeYears(days: 1097))
  }

  @Test func fromATrend() {
    let trend = Trend(days: [
      DailyValue(day: start, kilograms: 80, readingCount: 1),
      DailyValue(day: start.adding(days: 1), kilograms: 70, readingCount: 1),
    ])
    // Trend 80 then 79: slope −1 kg a day, 4 kg above a 75 kg goal, so 4 days after day 2.
    let goal = GoalProjection(goal: 75, trend: trend)
    #expect(goal?.status == .projected(date: start.adding(days: 5), days: 4))
    #expect(GoalProjection(goal: 75, trend: Trend(days: [])) == nil)
  }
}
