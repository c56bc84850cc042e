/// Which value stands for a day with several readings (`set daily`).
public enum DailyPolicy: String, CaseIterable, Sendable, Codable {
  /// The earliest reading of the day (TrendWeight's rule; the default).
  case first
  /// The earliest reading before 12:00 local time, or the earliest reading when none is.
  case morning
  /// The last reading of the day.
  case latest
  /// The mean of the day's readings.
  case average
}
