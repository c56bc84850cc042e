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

  /// Parses `yyyy-MM-dd HH:mm:ss ±hhmm` (or iOS 8's `yyyyMMddHHmmss±hhmm`) by hand; nil when
  /// the text has another shape or an impossible field (month 13, 31 April, hour 24).
  ///
  /// - Complexity: O(n) in the length of the text, without allocating.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> HealthExportDate? {
    var reader = Reader()
    return reader.parse(bytes)
  }

  /// Reads Apple's dates one after the other, remembering the last day and the last UTC
  /// offset read: an export's dates come in order, so most share both with the one before,
  /// and their calendar arithmetic is done once per day instead of once per date. What it
  /// accepts is what `parse` accepts.
  struct Reader {
    /// The digits of the last day read (`yyyyMMdd` as bytes) and its days since 1970.
    private var dayKey: UInt64 = 0
    private var days: Int64 = 0
    /// The sign and digits of the last offset read (`±hhmm` as bytes) and its seconds.
    private var offsetKey: UInt64 = 0
    private var offset = 0

    /// Parses one date as `HealthExportDate.parse` does.
    ///
    /// - Complexity: O(1) (the text is at most 25 bytes), without allocating.
    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> HealthExportDate? {
      // iOS 8 and early iOS 9 wrote the same fields without separators: 20150603050217+0100.
      let compact = bytes.count == 19
      guard
        compact
          || (bytes.count == 25 && bytes[4] == 0x2D && bytes[7] == 0x2D && bytes[10] == 0x20
            && bytes[13] == 0x3A && bytes[16] == 0x3A && bytes[19] == 0x20)
      else { return nil }
      // Where each field starts: yyyy MM dd HH mm ss ± hh mm.
      let at = compact ? (0, 4, 6, 8, 10, 12, 14, 15, 17) : (0, 5, 8, 11, 14, 17, 20, 21, 23)
      var key: UInt64 = 0
      Self.append(bytes, at.0, 4, to: &key)
      Self.append(bytes, at.1, 2, to: &key)
      Self.append(bytes, at.2, 2, to: &key)
      if key != dayKey {
        guard let year = HealthExportDate.digits(bytes, at.0, 4),
          let month = HealthExportDate.digits(bytes, at.1, 2),
          let day = HealthExportDate.digits(bytes, at.2, 2),
          CivilDate.isValid(year: year, month: month, day: day)
        else { return nil }
        days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        dayKey = key
      }
      guard let hour = HealthExportDate.digits(bytes, at.3, 2),
        let minute = HealthExportDate.digits(bytes, at.4, 2),
        let second = HealthExportDate.digits(bytes, at.5, 2), hour < 24, minute < 60, second < 60
      else { return nil }
      key = 0
      Self.append(bytes, at.6, 5, to: &key)
      if key != offsetKey {
        let signByte = bytes[at.6]
        guard signByte == 0x2B || signByte == 0x2D,
          let offsetHours = HealthExportDate.digits(bytes, at.7, 2),
          let offsetMinutes = HealthExportDate.digits(bytes, at.8, 2), offsetHours < 24,
          offsetMinutes < 60
        else { return nil }
        offset = (offsetHours * 3600 + offsetMinutes * 60) * (signByte == 0x2D ? -1 : 1)
        offsetKey = key
      }
      // checked: hour, minute and second are below 24, 60 and 60
      let local = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
      // checked: an offset of at most ±23:59, from 2+2 digits
      return HealthExportDate(instant: local - Int64(offset), offsetSeconds: Int32(offset))
    }

    /// Appends `count` bytes from `start` to `key`, a byte each (at most eight in all).
    @inline(__always)
    private static func append(
      _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int, to key: inout UInt64
    ) {
      for index in start..<(start + count) {
        key = key << 8 | UInt64(bytes[index])  // checked: a byte widens
      }
    }

  }

  /// Parses `yyyy-MM-dd HH:mm:ss ±hhmm` from a string.
  public static func parse(_ text: String) -> HealthExportDate? {
    var copy = text
    return copy.withUTF8 { parse($0) }
  }
}

extension HealthExportDate {
  /// The number written with `count` decimal digits of `bytes` from `start`, or nil: the
  /// fixed-place date readers' field (Apple's dates, and CSV's ISO dates in `CSVDateShapes`).
  @inline(__always)
  static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
    var value = 0
    for index in start..<(start + count) {
      let digit = bytes[index] &- 0x30
      guard digit <= 9 else { return nil }
      value = value * 10 + Int(digit)  // checked: a digit widens
    }
    return value
  }
}
