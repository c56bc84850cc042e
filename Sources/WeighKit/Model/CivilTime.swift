import Foundation

/// A calendar date without a time zone.
public struct CivilDate: Equatable, Hashable, Comparable, Sendable {
  public var year: Int
  public var month: Int
  public var day: Int

  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date `days` days after 1970-01-01.
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

  /// Days from 1970-01-01 to this date.
  public var daysSinceEpoch: Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let m = Int64(month)
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// 1 for Monday … 7 for Sunday.
  public var isoWeekday: Int {
    let weekday = (daysSinceEpoch + 3) % 7  // 1970-01-01 was a Thursday
    return Int(weekday < 0 ? weekday + 7 : weekday) + 1
  }

  /// The number of days in `month` of `year`.
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// `2026-01-03`
  public var description: String {
    "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
  }

  public static func < (a: CivilDate, b: CivilDate) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }
}

/// Converts between instants (seconds since 1970 UTC) and local times of a time zone.
public struct ZonedClock: Sendable {
  public let zone: TimeZone
  private let fixedOffset: Int?

  public init(zone: TimeZone) {
    self.zone = zone
    // Zones without transitions need no lookup per instant.
    let probe = Date(timeIntervalSince1970: 1_767_225_600)
    fixedOffset =
      zone.nextDaylightSavingTimeTransition(after: probe) == nil
        && zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: 0)) == nil
      ? zone.secondsFromGMT(for: probe) : nil
  }

  /// The offset from UTC in seconds at `instant`.
  public func offset(at instant: Int64) -> Int {
    fixedOffset ?? zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
  }

  /// The local date and seconds since local midnight at `instant`.
  public func local(_ instant: Int64) -> (date: CivilDate, secondOfDay: Int) {
    let local = instant + Int64(offset(at: instant))
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    return (CivilDate(daysSinceEpoch: days), Int(local - days * 86_400))
  }

  /// The instant of a local date and time. In a gap (spring forward) the later offset is
  /// used; in an overlap (fall back) the earlier instant.
  public func instant(of date: CivilDate, secondOfDay: Int) -> Int64 {
    let local = date.daysSinceEpoch * 86_400 + Int64(secondOfDay)
    if let fixedOffset { return local - Int64(fixedOffset) }
    let first = local - Int64(offset(at: local))
    let second = local - Int64(offset(at: first))
    if second + Int64(offset(at: second)) == local { return min(first, second) }
    return first
  }

  /// The instant local midnight begins on `date`.
  public func startOfDay(_ date: CivilDate) -> Int64 { instant(of: date, secondOfDay: 0) }

  /// `2026-01-03 07:30`
  public func minuteText(_ instant: Int64) -> String {
    let (date, second) = local(instant)
    return "\(date.description) \(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2))"
  }

  /// `2026-01-03 07:30:15`
  public func secondText(_ instant: Int64) -> String {
    let (date, second) = local(instant)
    return
      "\(date.description) \(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2)):\(pad(second % 60, 2))"
  }

  /// `07:30`
  public func timeText(_ instant: Int64) -> String {
    let second = local(instant).secondOfDay
    return "\(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2))"
  }
}

func pad(_ value: Int, _ width: Int) -> String {
  let text = String(value)
  return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
}
