import Foundation

/// A calendar date (proleptic Gregorian) without a time or a time zone.
///
/// Days are counted as whole numbers since 1970-01-01, so stepping and subtracting days is
/// integer arithmetic and needs no `Calendar`.
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Days since 1970-01-01 (negative before it).
  public let dayNumber: Int64

  /// The day `dayNumber` days after 1970-01-01.
  public init(dayNumber: Int64) {
    self.dayNumber = dayNumber
  }

  /// The day with the given year, month (1–12) and day of month (1–31).
  public init(year: Int, month: Int, day: Int) {
    dayNumber = CivilDate(year: year, month: month, day: day).daysSinceEpoch
  }

  /// The local calendar day that contains `instant` (seconds since 1970 UTC) in `timeZone`.
  public init(instant: Int64, timeZone: TimeZone) {
    let local =
      // checked: a zone offset; Int to Int64 widens
      instant + Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
    dayNumber = Self.floorDivide(local, 86_400)
  }

  /// Year, month (1–12) and day of month.
  public var components: (year: Int, month: Int, day: Int) {
    let date = CivilDate(daysSinceEpoch: dayNumber)
    return (date.year, date.month, date.day)
  }

  /// The year.
  public var year: Int { components.year }
  /// The month, 1–12.
  public var month: Int { components.month }
  /// The day of the month, 1–31.
  public var day: Int { components.day }

  /// ISO weekday: 1 = Monday … 7 = Sunday.
  public var isoWeekday: Int {
    // 1970-01-01 was a Thursday (ISO 4).
    Int(Self.floorModulo(dayNumber + 3, 7)) + 1  // checked: a weekday, 0…6
  }

  /// The Monday on or before this day.
  public var monday: CalendarDay { adding(days: -(isoWeekday - 1)) }

  /// The first day of this day's month.
  public var firstOfMonth: CalendarDay {
    let c = components
    return CalendarDay(year: c.year, month: c.month, day: 1)
  }

  /// The first day of the next month.
  public var firstOfNextMonth: CalendarDay {
    let c = components
    return c.month == 12
      ? CalendarDay(year: c.year + 1, month: 1, day: 1)
      : CalendarDay(year: c.year, month: c.month + 1, day: 1)
  }

  /// This day moved by `years` calendar years (29 February becomes 28 February when needed).
  public func adding(years: Int) -> CalendarDay {
    let c = components
    var result = CalendarDay(year: c.year + years, month: c.month, day: c.day)
    if result.day != c.day { result = result.adding(days: -result.day) }
    return result
  }

  /// The day `days` days later (earlier when negative).
  public func adding(days: Int) -> CalendarDay {
    CalendarDay(dayNumber: dayNumber + Int64(days))  // checked: Int to Int64 widens
  }

  /// Whole days from this day to `other` (negative when `other` is earlier).
  public func days(to other: CalendarDay) -> Int {
    Int(other.dayNumber - dayNumber)  // checked: days between instants in ValueLimits.instant
  }

  /// The first instant (seconds since 1970 UTC) of this day in `timeZone`.
  ///
  /// On a day whose midnight is skipped by a DST change this is the first instant that exists.
  public func startInstant(in timeZone: TimeZone) -> Int64 {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    // Noon always exists and always lies inside the day, so startOfDay finds the right one.
    let noonUTC = dayNumber * 86_400 + 43_200
    let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(noonUTC)))
    // checked: a zone offset; Int to Int64 widens
    let noon = Date(timeIntervalSince1970: Double(noonUTC - Int64(offset)))
    return Instant.seconds(of: calendar.startOfDay(for: noon))
  }

  /// `2026-01-03`.
  public var description: String {
    let c = components
    return "\(Self.pad(c.year, 4))-\(Self.pad(c.month, 2))-\(Self.pad(c.day, 2))"
  }

  /// Orders days by date.
  public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
    lhs.dayNumber < rhs.dayNumber
  }

  static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 {
    a - floorDivide(a, b) * b
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    var text = String(abs(value))
    while text.count < width { text = "0" + text }
    return value < 0 ? "-" + text : text
  }
}
