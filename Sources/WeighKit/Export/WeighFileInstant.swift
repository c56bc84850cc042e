/// Instants in weigh's own files: `2026-01-03T06:30:00Z` (``UTCInstantText``), or plain
/// seconds since 1970 outside years 0–9999, so that every `Int64` survives a round trip.
public enum WeighFileInstant {
  /// The text for `instant`.
  public static func format(_ instant: Int64) -> String {
    UTCInstantText.range.contains(instant) ? UTCInstantText.text(instant) : String(instant)
  }

  /// The instant of `yyyy-MM-ddTHH:mm:ssZ` or of an integer; nil otherwise.
  public static func parse(_ text: String) -> Int64? {
    if let seconds = Int64(text) { return seconds }  // checked: parses text, nil when out of range
    return UTCInstantText.parse(text)
  }
}
