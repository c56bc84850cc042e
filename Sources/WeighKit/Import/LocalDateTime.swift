import Foundation

/// A wall-clock date and time without an offset, as vendor files write them: a
/// ``CivilDate`` and a second of its day, turned into an instant by ``ZonedClock``.
public struct LocalDateTime: Hashable, Sendable {
  /// The calendar date.
  public var date: CivilDate
  /// Seconds since local midnight, 0 ..< 86 400.
  public var secondOfDay: Int

  /// A local date and time; nil when a field is out of range.
  public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
    guard CivilDate.isValid(year: year, month: month, day: day), (0..<24).contains(hour),
      (0..<60).contains(minute), (0..<60).contains(second)
    else { return nil }
    date = CivilDate(year: year, month: month, day: day)
    secondOfDay = hour * 3600 + minute * 60 + second
  }

  /// The instant this wall-clock time names in `zone`, by ``ZonedClock``'s rule (a time
  /// skipped by a clock change moves forward by the gap; a time that occurs twice is the
  /// earlier instant).
  public func instant(in zone: ZonedClock) -> Int64 {
    zone.instant(of: date, secondOfDay: secondOfDay)
  }

  /// The wall-clock time as seconds since 1970 read as if UTC: what the file says, the same
  /// in every zone (`Entry.fileTime`).
  public var wallSeconds: Int64 { date.seconds(at: secondOfDay) }

  /// Two or three numbers (three when `widths.2` is given) separated by `separator`, each
  /// with as many digits as its width allows, read from UTF-8 bytes; the numbers not written
  /// are 0.
  static func numbers<Bytes: Sequence<UInt8>>(
    _ utf8: Bytes, separator: UInt8,
    widths: (ClosedRange<Int>, ClosedRange<Int>, ClosedRange<Int>?)
  ) -> (Int, Int, Int)? {
    let separators = widths.2 == nil ? 1 : 2
    var parts = (0, 0, 0)
    var count = 0
    var value = 0
    var digits = 0
    // A loop without a closure per number: this ran for every Fitbit log's date and time.
    for byte in utf8 {
      if count < separators, byte == separator {
        guard (count == 0 ? widths.0 : widths.1).contains(digits) else { return nil }
        if count == 0 { parts.0 = value } else { parts.1 = value }
        count += 1
        value = 0
        digits = 0
        continue
      }
      let digit = byte &- 0x30
      guard digit < 10 else { return nil }
      digits += 1
      // Past nine digits no width fits: the value no longer matters.
      if digits <= 9 { value = value * 10 + Int(digit) }  // checked: at most 9 digits
    }
    guard count == separators,
      (count == 1 ? widths.1 : (widths.2 ?? widths.1)).contains(digits)
    else { return nil }
    if count == 1 { parts.1 = value } else { parts.2 = value }
    return parts
  }

  /// `yyyy-MM-dd`.
  static func isoDate(_ text: Substring) -> (Int, Int, Int)? {
    isoDate(bytes: text.utf8)
  }

  /// `yyyy-MM-dd` from UTF-8 bytes.
  static func isoDate<Bytes: Sequence<UInt8>>(bytes: Bytes) -> (Int, Int, Int)? {
    numbers(bytes, separator: 0x2D, widths: (4...4, 1...2, 1...2))
  }

  /// `HH:mm`, `HH:mm:ss` or `HH:mm:ss.fraction` (the fraction is dropped).
  static func time(_ text: Substring) -> (Int, Int, Int)? {
    let whole = text.split(separator: ".", maxSplits: 1).first ?? text
    return clock(whole.utf8)
  }

  /// ``time(_:)`` of ASCII bytes (a byte past ASCII may join a point to a character, which
  /// `time(_:)` does not split at: the caller reads such text as a string).
  static func time<Bytes: Collection<UInt8>>(ascii text: Bytes) -> (Int, Int, Int)? {
    // What `split(separator: ".", maxSplits: 1).first` gives: the first run of bytes other
    // than a point; the whole text when there is none.
    var start = text.startIndex
    while start != text.endIndex, text[start] == 0x2E { text.formIndex(after: &start) }
    var end = start
    while end != text.endIndex, text[end] != 0x2E { text.formIndex(after: &end) }
    return start != end ? clock(text[start..<end]) : clock(text)
  }

  /// ``time(_:)`` of a string, read from its bytes when they are ASCII.
  static func time(_ text: String) -> (Int, Int, Int)? {
    guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return time(Substring(text)) }
    return time(ascii: text.utf8)
  }

  /// `HH:mm:ss` or `HH:mm`.
  private static func clock<Bytes: Sequence<UInt8>>(_ utf8: Bytes) -> (Int, Int, Int)? {
    if let n = numbers(utf8, separator: 0x3A, widths: (1...2, 2...2, 2...2)) { return n }
    return numbers(utf8, separator: 0x3A, widths: (1...2, 2...2, nil))
  }

  /// `yyyy-MM-dd HH:mm[:ss]` (also with `T`) or `dd.MM.yyyy HH:mm` (openScale 2.x legacy).
  public static func parse(_ text: String) -> LocalDateTime? {
    let trimmed = text.trimmedWhitespace
    let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "T" })
    guard parts.count == 2, let clock = time(parts[1]) else { return nil }
    if let (year, month, day) = isoDate(parts[0]) {
      return LocalDateTime(
        year: year, month: month, day: day, hour: clock.0, minute: clock.1, second: clock.2)
    }
    if let n = numbers(parts[0].utf8, separator: 0x2E, widths: (1...2, 1...2, 4...4)) {
      return LocalDateTime(
        year: n.2, month: n.1, day: n.0, hour: clock.0, minute: clock.1, second: clock.2)
    }
    return nil
  }
}
