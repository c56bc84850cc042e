/// A calendar date of the proleptic Gregorian calendar, without a time or a time zone: the
/// one date type of weigh (the language, the importers and exporters, charts and statistics).
///
/// Days convert to and from a whole number of days since 1970-01-01, so stepping and
/// subtracting days is integer arithmetic and needs no `Calendar`.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The year (1900 … 9999 for dates of instants in range).
  public var year: Int
  /// The month, 1–12.
  public var month: Int
  /// The day of the month, 1–31.
  public var day: Int

  /// The date with the given year, month (1–12) and day of month (1–31); the caller checks
  /// the fields (``daysIn(month:year:)``).
  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date `days` days after 1970-01-01 (before it when negative).
  public init(daysSinceEpoch days: Int64) {
    // Howard Hinnant's civil-from-days: exact for the proleptic Gregorian calendar.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    self.init(year: Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), month: Int(m), day: Int(d))
  }

  /// Days from 1970-01-01 to this date (negative before it).
  public var daysSinceEpoch: Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    // From year 1 on, the 400-year eras need no floor and the days before a month are a
    // table: about 40 instructions fewer a date, every imported row (wjson10, callgrind).
    if y >= 0, (1...12).contains(month) {
      return y * 365 + y / 4 - y / 100 + y / 400 + Self.daysBeforeMonth[month - 1] + Int64(day)
        - 719_469
    }
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let m = Int64(month)
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date and the second of its day (0 ..< 86 400) of `seconds` counted from
  /// 1970-01-01T00:00 on a clock without a zone: UTC, or a local wall clock.
  public static func split(_ seconds: Int64) -> (date: CivilDate, secondOfDay: Int) {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    return (CivilDate(daysSinceEpoch: days), Int(seconds - days * 86_400))
  }

  /// Seconds from 1970-01-01T00:00 to `secondOfDay` on this date, on a clock without a zone.
  public func seconds(at secondOfDay: Int) -> Int64 {
    daysSinceEpoch * 86_400 + Int64(secondOfDay)
  }

  /// The days from 1 March to the first of each month, January to December (the year of a
  /// day counted from March, so that February's length comes last).
  private static let daysBeforeMonth: [Int64] = [
    306, 337, 0, 31, 61, 92, 122, 153, 184, 214, 245, 275,
  ]

  /// Whether `year`-`month`-`day` names a day of the calendar (no 31 April, no month 13).
  public static func isValid(year: Int, month: Int, day: Int) -> Bool {
    (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
  }

  /// The number of days in `month` of `year`.
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// ISO weekday: 1 for Monday … 7 for Sunday.
  public var isoWeekday: Int {
    let weekday = (daysSinceEpoch + 3) % 7  // 1970-01-01 was a Thursday
    return Int(weekday < 0 ? weekday + 7 : weekday) + 1
  }

  /// The Monday on or before this date.
  public var monday: CivilDate { adding(days: -(isoWeekday - 1)) }

  /// The first day of this date's month.
  public var firstOfMonth: CivilDate { CivilDate(year: year, month: month, day: 1) }

  /// The first day of the next month.
  public var firstOfNextMonth: CivilDate {
    month == 12
      ? CivilDate(year: year + 1, month: 1, day: 1)
      : CivilDate(year: year, month: month + 1, day: 1)
  }

  /// This date moved by `years` calendar years (29 February becomes 28 February when needed).
  public func adding(years: Int) -> CivilDate {
    let target = year + years
    let last = Self.daysIn(month: month, year: target)
    return CivilDate(year: target, month: month, day: min(day, last))
  }

  /// The date `days` days later (earlier when negative).
  public func adding(days: Int) -> CivilDate {
    CivilDate(daysSinceEpoch: daysSinceEpoch + Int64(days))  // checked: Int to Int64 widens
  }

  /// Whole days from this date to `other` (negative when `other` is earlier).
  public func days(to other: CivilDate) -> Int {
    // checked: days between dates of instants in ValueLimits.instant
    Int(other.daysSinceEpoch - daysSinceEpoch)
  }

  /// `2026-01-03`.
  public var description: String {
    "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
  }

  /// Orders dates by time.
  public static func < (a: CivilDate, b: CivilDate) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }
}

/// `value` in decimal with at least `width` digits (zeros in front), the sign before them.
func pad(_ value: Int, _ width: Int) -> String {
  var digits = 1
  var probe = value.magnitude
  while probe >= 10 {
    probe /= 10
    digits += 1
  }
  let sign = value < 0 ? 1 : 0
  let count = sign + max(width, digits)
  // Written in place: a date's or a time's fields are short enough to need no allocation.
  return String(unsafeUninitializedCapacity: count) { text in
    var rest = value.magnitude
    for index in stride(from: count - 1, through: sign, by: -1) {
      text[index] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    }
    if sign == 1 { text[0] = 0x2D }
    return count
  }
}
