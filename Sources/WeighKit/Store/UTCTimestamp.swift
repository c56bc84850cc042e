/// The store's instants: `"2026-01-01T08:00:00Z"` in quotes, through ``UTCInstantText``.
enum UTCTimestamp {
  /// The instants written as text; others are written as seconds.
  static let range = UTCInstantText.range

  /// Writes `instant` as `"YYYY-MM-DDTHH:MM:SSZ"`; the instant must be in `range`.
  static func write(_ instant: Int64, into writer: inout JSONWriter) {
    writer.raw(byte: 0x22)
    UTCInstantText.append(instant, to: &writer.bytes)
    writer.raw(byte: 0x22)
  }

  /// Parses `YYYY-MM-DDTHH:MM:SSZ`; nil when the text is not exactly that, or not a real date.
  static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Int64? { UTCInstantText.parse(text) }
}
