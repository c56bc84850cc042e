import Foundation

/// An instant as a wall clock in one time zone shows it.
public struct LocalTime: Equatable, Sendable {
  /// The local calendar day.
  public var day: CalendarDay
  /// Seconds since local midnight (wall clock), 0 ..< 86 400.
  public var secondsIntoDay: Int
  /// The zone's offset from UTC at the instant, in seconds.
  public var offsetSeconds: Int

  /// The wall-clock reading of `instant` (seconds since 1970 UTC) in `timeZone`.
  public init(instant: Int64, timeZone: TimeZone) {
    let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
    let local = instant + Int64(offset)  // checked: a zone offset; Int to Int64 widens
    day = CalendarDay(dayNumber: CalendarDay.floorDivide(local, 86_400))
    // checked: a second of the day, 0…86399
    secondsIntoDay = Int(CalendarDay.floorModulo(local, 86_400))
    offsetSeconds = offset
  }

  /// `07:30`.
  public var hourMinute: String {
    "\(CalendarDay.pad(secondsIntoDay / 3600, 2)):\(CalendarDay.pad(secondsIntoDay / 60 % 60, 2))"
  }

  /// `07:30:15`.
  public var hourMinuteSecond: String {
    hourMinute + ":" + CalendarDay.pad(secondsIntoDay % 60, 2)
  }

  /// `+01:00`, `-05:30`, `+00:00`.
  public var offsetText: String {
    let sign = offsetSeconds < 0 ? "-" : "+"
    let minutes = abs(offsetSeconds) / 60
    return sign + CalendarDay.pad(minutes / 60, 2) + ":" + CalendarDay.pad(minutes % 60, 2)
  }

  /// `2026-01-03T07:30:00+01:00`: ISO 8601 with the zone's offset.
  public var iso8601: String { "\(day)T\(hourMinuteSecond)\(offsetText)" }

  /// `2026-01-03 07:30`: how listings show an instant.
  public var dateMinute: String { "\(day) \(hourMinute)" }
}
