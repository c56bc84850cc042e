/// The one writer and reader of instants as ISO 8601 UTC text, `2026-01-03T06:30:00Z`
/// (whole seconds), used by the store and by weigh's CSV and JSON files.
public enum UTCInstantText {
  /// The instants that have a four-digit year (0000-01-01 … 9999-12-31); outside them the
  /// files write plain seconds since 1970.
  public static let range: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

  /// Appends the 20 bytes of `instant`'s text; `instant` must lie in ``range``.
  public static func append(_ instant: Int64, to bytes: inout [UInt8]) {
    let (date, second) = CivilDate.split(instant)
    digits(date.year, 4, &bytes)
    bytes.append(0x2D)
    digits(date.month, 2, &bytes)
    bytes.append(0x2D)
    digits(date.day, 2, &bytes)
    bytes.append(0x54)
    digits(second / 3600, 2, &bytes)
    bytes.append(0x3A)
    digits(second / 60 % 60, 2, &bytes)
    bytes.append(0x3A)
    digits(second % 60, 2, &bytes)
    bytes.append(0x5A)
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
    guard text.count == 20, text[4] == 0x2D, text[7] == 0x2D, text[10] == 0x54,
      text[13] == 0x3A, text[16] == 0x3A, text[19] == 0x5A
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

  private static func digits(_ value: Int, _ count: Int, _ bytes: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      bytes.append(0x30 + UInt8(truncatingIfNeeded: rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }
}
