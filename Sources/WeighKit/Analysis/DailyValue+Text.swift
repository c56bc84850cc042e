import Foundation

extension DailyValue {
  /// `day`'s lines: each reading of the day with its time, then the value that stands for the
  /// day under `policy`.
  public static func dayLines(
    readings: [WeightReading], day: CalendarDay, policy: DailyPolicy, timeZone: TimeZone,
    unit: DisplayUnit
  ) -> [String] {
    let ofDay = readings.filter { CalendarDay(instant: $0.instant, timeZone: timeZone) == day }
    guard let value = days(of: ofDay, policy: policy, timeZone: timeZone).first else {
      return ["no weights on \(day)"]
    }
    let ordered = ofDay.enumerated().sorted {
      ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset)
    }.map(\.element)
    var lines = ordered.map {
      "\(LocalTime(instant: $0.instant, timeZone: timeZone).hourMinute)  \(unit.format(kilograms: $0.kilograms))"
    }
    lines.append("\(day) (\(policy.rawValue)): \(unit.format(kilograms: value.kilograms))")
    return lines
  }
}
