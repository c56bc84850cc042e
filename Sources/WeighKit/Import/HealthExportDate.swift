import Foundation

/// A moment as Apple's export writes it: `2026-01-03 07:30:00 +0100`, wall clock plus offset.
public struct HealthExportDate: Hashable, Sendable, CustomStringConvertible {
  /// Seconds since 1970-01-01T00:00:00Z.
  public var instant: Int64
  /// The UTC offset the moment was written with, in seconds (3600 for `+0100`).
  public var offsetSeconds: Int32

  /// A moment with an explicit UTC offset.
  public init(instant: Int64, offsetSeconds: Int32) {
    self.instant = instant
    self.offsetSeconds = offsetSeconds
  }

  /// A moment written with the offset `timeZone` has at that moment (+0100 in winter,
  /// +0200 in summer for Europe/Amsterdam).
  public init(instant: Int64, timeZone: TimeZone) {
    let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    // checked: a zone offset, within ±18 h
    self.init(instant: instant, offsetSeconds: Int32(offset))
  }

  /// `2026-01-03 07:30:00 +0100`.
  public var description: String {
    let local = instant + Int64(offsetSeconds)  // checked: Int32 to Int64 widens
    let (days, secondOfDay) = Self.floorDivide(local, 86_400)
    let (year, month, day) = Self.civil(fromDays: days)
    let sign = offsetSeconds < 0 ? "-" : "+"
    let offsetMinutes = abs(Int(offsetSeconds)) / 60  // checked: Int32 to Int widens
    return "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2)) "
      // checked: a second of the day, 0…86399
      + "\(Self.pad(Int(secondOfDay / 3600), 2)):\(Self.pad(Int(secondOfDay / 60 % 60), 2)):"
      + "\(Self.pad(Int(secondOfDay % 60), 2)) \(sign)"  // checked: a second of the day, 0…86399
      + "\(Self.pad(offsetMinutes / 60, 2))\(Self.pad(offsetMinutes % 60, 2))"
  }

  /// Parses `yyyy-MM-dd HH:mm:ss ±hhmm` by hand; nil when the text has another shape or an
  /// impossible field (month 13, 31 April, hour 24).
  ///
  /// - Complexity: O(n) in the length of the text, without allocating.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> HealthExportDate? {
    guard bytes.count == 25, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20,
      bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x20
    else { return nil }
    func digits(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for index in start..<(start + count) {
        let digit = Int(bytes[index]) &- 0x30  // checked: a byte
        guard digit >= 0, digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
      let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
      let offsetHours = digits(21, 2), let offsetMinutes = digits(23, 2)
    else { return nil }
    let signByte = bytes[20]
    guard signByte == 0x2B || signByte == 0x2D, (1...12).contains(month),
      day >= 1, day <= daysInMonth(year: year, month: month), hour < 24, minute < 60,
      second < 60, offsetHours < 24, offsetMinutes < 60
    else { return nil }
    let offset = (offsetHours * 3600 + offsetMinutes * 60) * (signByte == 0x2D ? -1 : 1)
    let local =
      days(year: year, month: month, day: day) * 86_400
      + Int64(hour * 3600 + minute * 60 + second)  // checked: Int to Int64 widens
    // checked: an offset of at most ±99:59, from 2+2 digits
    return HealthExportDate(instant: local - Int64(offset), offsetSeconds: Int32(offset))
  }

  /// Parses `yyyy-MM-dd HH:mm:ss ±hhmm` from a string.
  public static func parse(_ text: String) -> HealthExportDate? {
    var copy = text
    return copy.withUTF8 { parse($0) }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date.
  static func days(year: Int, month: Int, day: Int) -> Int64 {
    let shiftedYear = Int64(month <= 2 ? year - 1 : year)  // checked: Int to Int64 widens
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)  // checked: Int to Int64 widens
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1  // checked: Int to Int64 widens
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date of a day count since 1970-01-01.
  static func civil(fromDays count: Int64) -> (year: Int, month: Int, day: Int) {
    let shifted = count + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)  // checked: a day of the month
    let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)  // checked: a month
    // checked: a year of an instant in range
    let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  /// The number of days in a month of the proleptic Gregorian calendar.
  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    return (quotient, value - quotient * divisor)
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }
}
