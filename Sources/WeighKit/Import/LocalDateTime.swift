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

  /// Numbers separated by the given one-byte separators, e.g. `2026-01-03` with `-`.
  static func numbers(_ text: Substring, separators: [Character], widths: [ClosedRange<Int>])
    -> [Int]?
  {
    var parts: [Int] = []
    var current = ""
    var index = 0
    for character in text {
      if index < separators.count, character == separators[index] {
        // checked: parses text, nil when out of range
        guard widths[parts.count].contains(current.count), let value = Int(current) else {
          return nil
        }
        parts.append(value)
        current = ""
        index += 1
      } else if character.isASCII, character.isNumber {
        current.append(character)
      } else {
        return nil
      }
    }
    guard parts.count == separators.count, widths[parts.count].contains(current.count),
      let value = Int(current)  // checked: parses text, nil when out of range
    else { return nil }
    parts.append(value)
    return parts
  }

  /// `yyyy-MM-dd`.
  static func isoDate(_ text: Substring) -> (Int, Int, Int)? {
    guard let n = numbers(text, separators: ["-", "-"], widths: [4...4, 1...2, 1...2]) else {
      return nil
    }
    return (n[0], n[1], n[2])
  }

  /// `HH:mm`, `HH:mm:ss` or `HH:mm:ss.fraction` (the fraction is dropped).
  static func time(_ text: Substring) -> (Int, Int, Int)? {
    let whole = text.split(separator: ".", maxSplits: 1).first ?? text
    if let n = numbers(whole, separators: [":", ":"], widths: [1...2, 2...2, 2...2]) {
      return (n[0], n[1], n[2])
    }
    if let n = numbers(whole, separators: [":"], widths: [1...2, 2...2]) { return (n[0], n[1], 0) }
    return nil
  }

  /// `yyyy-MM-dd HH:mm[:ss]` (also with `T`) or `dd.MM.yyyy HH:mm` (openScale 2.x legacy).
  public static func parse(_ text: String) -> LocalDateTime? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "T" })
    guard parts.count == 2, let clock = time(parts[1]) else { return nil }
    if let (year, month, day) = isoDate(parts[0]) {
      return LocalDateTime(
        year: year, month: month, day: day, hour: clock.0, minute: clock.1, second: clock.2)
    }
    if let n = numbers(parts[0], separators: [".", "."], widths: [1...2, 1...2, 4...4]) {
      return LocalDateTime(
        year: n[2], month: n[1], day: n[0], hour: clock.0, minute: clock.1, second: clock.2)
    }
    return nil
  }
}
