/// Instants in weigh's own files: `2026-01-03T06:30:00Z` (UTC, whole seconds), or plain
/// seconds since 1970 outside years 1–9999, so that every `Int64` survives a round trip.
public enum WeighFileInstant {
  /// The text for `instant`.
  public static func format(_ instant: Int64) -> String {
    guard instant >= -62_135_596_800, instant <= 253_402_300_799 else { return String(instant) }
    let (days, second) = HealthExportDate.floorDivide(instant, 86_400)
    let (year, month, day) = HealthExportDate.civil(fromDays: days)
    let p = HealthExportDate.pad
    // checked: a second of the day, 0…86399
    return "\(p(year, 4))-\(p(month, 2))-\(p(day, 2))T\(p(Int(second / 3600), 2)):"
      // checked: a second of the day, 0…86399
      + "\(p(Int(second / 60 % 60), 2)):\(p(Int(second % 60), 2))Z"
  }

  /// The instant of `yyyy-MM-ddTHH:mm:ssZ` or of an integer; nil otherwise.
  public static func parse(_ text: String) -> Int64? {
    if let seconds = Int64(text) { return seconds }  // checked: parses text, nil when out of range
    guard text.count == 20, text.hasSuffix("Z") else { return nil }
    let parts = text.dropLast().split(separator: "T")
    guard parts.count == 2, let (year, month, day) = LocalDateTime.isoDate(parts[0]),
      let clock = LocalDateTime.time(parts[1]), parts[1].count == 8,
      let local = LocalDateTime(
        year: year, month: month, day: day, hour: clock.0, minute: clock.1, second: clock.2)
    else { return nil }
    return local.utcSeconds
  }
}
