/// The one writer and reader of instants as ISO 8601 UTC text, `2026-01-03T06:30:00Z`
/// (whole seconds), used by the store and by weigh's CSV and JSON files.
public enum UTCInstantText {
  /// The instants that have a four-digit year (0000-01-01 … 9999-12-31); outside them the
  /// files write plain seconds since 1970.
  public static let range: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

  /// Appends the 20 bytes of `instant`'s text; `instant` must lie in ``range``.
  public static func append(_ instant: Int64, to bytes: inout [UInt8]) {
    bytes.append(addingCapacity: 20) { span in
      span.withUnsafeMutableBufferPointer { buffer, initialized in
        write(instant, at: buffer.baseAddress! + initialized)
        initialized += 20
      }
    }
  }

  /// Writes the 20 bytes of `instant`'s text at `text`; `instant` must lie in ``range``.
  /// Each field's two or four digits from unsigned arithmetic (an import writes two
  /// instants a row).
  static func write(_ instant: Int64, at text: UnsafeMutablePointer<UInt8>) {
    let days = instant >= 0 ? instant / 86_400 : (instant - 86_399) / 86_400
    let (year, month, day) = civil(days: days)
    func pair(_ value: UInt32, at offset: Int) {  // 0 … 99
      text[offset] = 0x30 + UInt8(truncatingIfNeeded: value / 10)
      text[offset + 1] = 0x30 + UInt8(truncatingIfNeeded: value % 10)
    }
    pair(year / 100, at: 0)
    pair(year % 100, at: 2)
    text[4] = 0x2D
    pair(month, at: 5)
    text[7] = 0x2D
    pair(day, at: 8)
    text[10] = 0x54
    let secondOfDay = UInt32(truncatingIfNeeded: instant &- days &* 86_400)  // 0 … 86 399
    pair(secondOfDay / 3600, at: 11)
    text[13] = 0x3A
    pair(secondOfDay / 60 % 60, at: 14)
    text[16] = 0x3A
    pair(secondOfDay % 60, at: 17)
    text[19] = 0x5A
  }

  /// The year, month and day of `days` counted from 1970-01-01, for the days of ``range``
  /// (0000-01-01 … 9999-12-31), as `CivilDate(daysSinceEpoch:)` finds them (checked on every
  /// day of the range, `UTCInstantTextTests`).
  ///
  /// Why not `CivilDate`: its signed arithmetic, with a branch for the eras before year 0
  /// and divisions by variables' signs, was 237 instructions of an imported row's 2,200 in
  /// the store (callgrind, 100,000 MyFitnessPal rows, wstore11). Here the days are counted
  /// from 1 March of year -400, so every quantity is unsigned and below 2^32, and each
  /// division is by a constant (a multiplication): the year of the century and the day of
  /// the year come out of one 64-bit product, the month and the day of one 32-bit one (the
  /// affine maps of a calendar in which March is the first month and February the last,
  /// so that its lengths are the regular 31, 30, 31, 30, 31 pattern up to its last day).
  @inline(__always)
  static func civil(days: Int64) -> (year: UInt32, month: UInt32, day: UInt32) {
    // 719 468 days from 0000-03-01 to 1970-01-01, and one era of 146 097 days (400 years)
    // more: at least 146 037 for 0000-01-01, at most 3 798 461 for 9999-12-31.
    let shifted = UInt32(truncatingIfNeeded: days &+ (719_468 + 146_097))
    let quarterDays = 4 &* shifted &+ 3  // below 2^24
    let century = quarterDays / 146_097
    let dayOfCentury = quarterDays % 146_097 / 4
    // 2^32 / 365.25 × 4 ≈ 2 939 745: the high word is the year of the century, the low one
    // the fraction of it passed, which gives the day of the year.
    let product = UInt64(4 &* dayOfCentury &+ 3) &* 2_939_745
    let yearOfCentury = UInt32(truncatingIfNeeded: product >> 32)
    let dayOfYear = UInt32(truncatingIfNeeded: product) / 2_939_745 / 4  // 0 = 1 March
    // Months of 153/5 days on average, from March (3) on: the high half is the month, the
    // low half the day within it.
    let monthAndDay = 2_141 &* dayOfYear &+ 197_913
    let month = monthAndDay >> 16
    let day = (monthAndDay & 0xFFFF) / 2_141 + 1
    let january = dayOfYear >= 306  // January and February belong to the next year
    let year = 100 &* century &+ yearOfCentury &+ (january ? 1 : 0) &- 400
    return (year, january ? month &- 12 : month, day)
  }

  /// The text of `instant`; `instant` must lie in ``range``.
  public static func text(_ instant: Int64) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(20)
    append(instant, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Parses exactly `YYYY-MM-DDTHH:MM:SSZ`; nil for any other text or an impossible date.
  ///
  /// - Complexity: O(1), without allocating.
  public static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
    UTCInstantWords.parse(text)
  }

  /// `parse` digit by digit: what `UTCInstantWords` is checked against.
  static func parseByDigits(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard text.count == 20, text[19] == 0x5A else { return nil }
    return parseWallClock(UnsafeBufferPointer(rebasing: text[0..<19]))
  }

  /// `2026-01-01T08:00:00` (the text `append` writes without its `Z`: a wall-clock time,
  /// as `entries.json`'s `fileTime`), as seconds since 1970 read as if UTC; nil otherwise.
  static func parseWallClock(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard text.count == 19, text[4] == 0x2D, text[7] == 0x2D, text[10] == 0x54,
      text[13] == 0x3A, text[16] == 0x3A
    else { return nil }
    func number(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for index in start..<(start + count) {
        let digit = text[index] &- 0x30
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      CivilDate.isValid(year: year, month: month, day: day), hour < 24, minute < 60,
      second < 60
    else { return nil }
    return CivilDate(year: year, month: month, day: day)
      .seconds(at: hour * 3600 + minute * 60 + second)
  }

  /// Parses exactly `YYYY-MM-DDTHH:MM:SSZ` from a string.
  public static func parse(_ text: String) -> Int64? {
    var copy = text
    return copy.withUTF8 { parse($0) }
  }
}
