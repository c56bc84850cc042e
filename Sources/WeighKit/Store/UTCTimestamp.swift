/// Converts between seconds since 1970 and the store's `2026-01-01T08:00:00Z` text, by
/// arithmetic on the proleptic Gregorian calendar (no Foundation, no allocation).
enum UTCTimestamp {
  /// The first and last instants that have a four-digit year (0000-01-01 … 9999-12-31).
  static let range: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

  /// Writes `instant` as `YYYY-MM-DDTHH:MM:SSZ` in quotes; the instant must be in `range`.
  static func write(_ instant: Int64, into writer: inout JSONWriter) {
    let days = floorDivide(instant, 86_400)
    // checked: a second of the day of an instant in range
    let secondOfDay = Int(instant - days * 86_400)
    // checked: days of an instant in ValueLimits.instant
    let (year, month, day) = civil(fromDays: Int(days))
    writer.raw(byte: 0x22)
    digits(year, 4, &writer)
    writer.raw(byte: 0x2D)
    digits(month, 2, &writer)
    writer.raw(byte: 0x2D)
    digits(day, 2, &writer)
    writer.raw(byte: 0x54)
    digits(secondOfDay / 3600, 2, &writer)
    writer.raw(byte: 0x3A)
    digits(secondOfDay / 60 % 60, 2, &writer)
    writer.raw(byte: 0x3A)
    digits(secondOfDay % 60, 2, &writer)
    writer.raw(byte: 0x5A)
    writer.raw(byte: 0x22)
  }

  /// Parses `YYYY-MM-DDTHH:MM:SSZ`; nil when the text is not exactly that, or not a real date.
  static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard text.count == 20, text[4] == 0x2D, text[7] == 0x2D, text[10] == 0x54,
      text[13] == 0x3A, text[16] == 0x3A, text[19] == 0x5A
    else { return nil }
    func number(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for index in start..<(start + count) {
        let digit = text[index] &- 0x30
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)  // checked: a decimal digit
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
      hour < 24, minute < 60, second < 60
    else { return nil }
    let days = Int64(days(fromCivil: year, month, day))  // checked: Int to Int64 widens
    // checked: Int to Int64 widens
    return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  private static func digits(_ value: Int, _ count: Int, _ writer: inout JSONWriter) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      writer.raw(byte: 0x30 + UInt8(rest / divisor))  // checked: one decimal digit, 0…9
      rest %= divisor
      divisor /= 10
    }
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return value % divisor < 0 ? quotient - 1 : quotient
  }

  private static func daysInMonth(_ year: Int, _ month: Int) -> Int {
    CivilDate.daysIn(month: month, year: year)
  }

  private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
    // checked: days of a date of years 0…9999
    Int(CivilDate(year: year, month: month, day: day).daysSinceEpoch)
  }

  private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let date = CivilDate(daysSinceEpoch: Int64(days))  // checked: Int to Int64 widens
    return (date.year, date.month, date.day)
  }
}
