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

  /// A moment written with the offset `zone` has at that moment (+0100 in winter, +0200 in
  /// summer for Europe/Amsterdam).
  public init(instant: Int64, zone: ZonedClock) {
    // checked: a zone offset, within ±18 h
    self.init(instant: instant, offsetSeconds: Int32(zone.offset(at: instant)))
  }

  /// `2026-01-03 07:30:00 +0100`.
  public var description: String {
    // checked: Int32 to Int64 widens
    let (date, second) = CivilDate.split(instant + Int64(offsetSeconds))
    let sign = offsetSeconds < 0 ? "-" : "+"
    let offsetMinutes = abs(Int(offsetSeconds)) / 60  // checked: Int32 to Int widens
    return "\(date) \(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2)):\(pad(second % 60, 2)) "
      + "\(sign)\(pad(offsetMinutes / 60, 2))\(pad(offsetMinutes % 60, 2))"
  }

  /// Parses `yyyy-MM-dd HH:mm:ss ±hhmm` (or iOS 8's `yyyyMMddHHmmss±hhmm`) by hand; nil when the text has another shape or an
  /// impossible field (month 13, 31 April, hour 24).
  ///
  /// - Complexity: O(n) in the length of the text, without allocating.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> HealthExportDate? {
    // iOS 8 and early iOS 9 wrote the same fields without separators: 20150603050217+0100.
    let compact = bytes.count == 19
    guard
      compact
        || (bytes.count == 25 && bytes[4] == 0x2D && bytes[7] == 0x2D && bytes[10] == 0x20
          && bytes[13] == 0x3A && bytes[16] == 0x3A && bytes[19] == 0x20)
    else { return nil }
    // Where each field starts: yyyy MM dd HH mm ss ± hh mm.
    let at =
      compact ? (0, 4, 6, 8, 10, 12, 14, 15, 17) : (0, 5, 8, 11, 14, 17, 20, 21, 23)
    func digits(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for index in start..<(start + count) {
        let digit = Int(bytes[index]) &- 0x30  // checked: a byte
        guard digit >= 0, digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard let year = digits(at.0, 4), let month = digits(at.1, 2), let day = digits(at.2, 2),
      let hour = digits(at.3, 2), let minute = digits(at.4, 2), let second = digits(at.5, 2),
      let offsetHours = digits(at.7, 2), let offsetMinutes = digits(at.8, 2)
    else { return nil }
    let signByte = bytes[at.6]
    guard signByte == 0x2B || signByte == 0x2D,
      CivilDate.isValid(year: year, month: month, day: day), hour < 24, minute < 60,
      second < 60, offsetHours < 24, offsetMinutes < 60
    else { return nil }
    let offset = (offsetHours * 3600 + offsetMinutes * 60) * (signByte == 0x2D ? -1 : 1)
    let local = CivilDate(year: year, month: month, day: day)
      .seconds(at: hour * 3600 + minute * 60 + second)
    // checked: an offset of at most ±99:59, from 2+2 digits
    return HealthExportDate(instant: local - Int64(offset), offsetSeconds: Int32(offset))
  }

  /// Parses `yyyy-MM-dd HH:mm:ss ±hhmm` from a string.
  public static func parse(_ text: String) -> HealthExportDate? {
    var copy = text
    return copy.withUTF8 { parse($0) }
  }
}
