/// Where the trend stands against a goal weight, and when it would get there.
public struct GoalProjection: Equatable, Sendable {
  /// Half the width of TrendWeight's maintenance band around the goal, in kilograms.
  public static let maintenanceBand = 1.134

  /// How the trend relates to the goal.
  public enum Status: Equatable, Sendable {
    /// The trend is within ±1.134 kg of the goal.
    case atGoal
    /// The trend moves toward the goal and gets there on `date`, `days` days after today
    /// (negative when the date has passed since the last reading).
    case projected(date: CivilDate, days: Int)
    /// The trend moves toward the goal so slowly that the date is more than 3 years out.
    case beyondThreeYears(days: Int)
    /// The trend moves away from the goal.
    case movingAway
    /// The trend is flat (or there are too few days for a rate).
    case flat
  }

  /// The goal in kilograms.
  public var goal: Double
  /// The current trend in kilograms.
  public var trend: Double
  /// The trend's slope in kilograms per day, when known.
  public var dailySlope: Double?
  /// The projection.
  public var status: Status

  /// Trend minus goal in kilograms: positive when above the goal.
  public var distance: Double { trend - goal }

  /// The weekly rate in kilograms per week, when known.
  public var weeklyRate: Double? { dailySlope.map { $0 * 7 } }

  /// Projects `trend` toward `goal`: the date is the last day plus ⌊|(trend − goal) / slope|⌋
  /// days, as TrendWeight shows it; the days to go and the 3-year limit count from `today`
  /// (the session's clock; the last day when nil), not from the last reading.
  public init(
    goal: Double, trend: Double, dailySlope: Double?, lastDay: CivilDate, today: CivilDate? = nil
  ) {
    let today = today ?? lastDay
    self.goal = goal
    self.trend = trend
    self.dailySlope = dailySlope
    let distance = trend - goal
    // A hair of tolerance so that a trend printed on the band's edge counts as inside it.
    if abs(distance) <= Self.maintenanceBand + 1e-9 {
      status = .atGoal
    } else if let slope = dailySlope, slope != 0 {
      if (distance > 0) == (slope > 0) {
        status = .movingAway
      } else {
        // checked: clamped to 0…1e9 on this line
        let fromLastDay = Int((abs(distance / slope)).rounded(.down).clamped(to: 0...1e9))
        let date = lastDay.adding(days: fromLastDay)
        let days = today.days(to: date)
        status =
          date > today.adding(years: 3)
          ? .beyondThreeYears(days: days) : .projected(date: date, days: days)
      }
    } else {
      status = .flat
    }
  }

  /// The projection of `trend` toward `goal`, counted from `today`; nil when the trend has
  /// no days.
  public init?(goal: Double, trend: Trend, today: CivilDate? = nil) {
    guard let current = trend.current, let lastDay = trend.lastDay else { return nil }
    self.init(
      goal: goal, trend: current, dailySlope: trend.dailySlope, lastDay: lastDay, today: today)
  }
}

extension Double {
  fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
    Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
  }
}
