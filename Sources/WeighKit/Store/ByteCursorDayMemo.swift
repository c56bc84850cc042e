/// The date text of the day ``ByteCursor/instantKeepingDate(_:last:)`` wrote last, so that
/// the next instant of that day copies its ten bytes instead of working them out again.
struct ByteCursorDayMemo {
  /// The day (counted from 1970-01-01) whose date is kept; `Int64.min` (no day of an
  /// instant's text) before any is.
  private(set) var day = Int64.min
  /// The date's first eight bytes and last two, as they lie in memory.
  private(set) var first: UInt64 = 0
  private(set) var rest: UInt16 = 0

  /// Keeps `day`, whose ten bytes of date lie at `date`.
  mutating func keep(day: Int64, date: UnsafePointer<UInt8>) {
    let raw = UnsafeRawPointer(date)
    self.day = day
    first = raw.loadUnaligned(as: UInt64.self)
    rest = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
  }
}
