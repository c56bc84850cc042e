import Foundation

/// The one conversion between instants (seconds since 1970 UTC) and the local date and time
/// of a time zone, used by the language, every importer and exporter, charts and statistics.
///
/// A local time that a daylight-saving change skips (a gap) moves forward by the length of
/// the gap: it is read with the offset in force before the change, so 02:30 on a day that
/// jumps from 02:00 to 03:00 is the instant the clock reads 03:30. A local time that occurs
/// twice (an overlap) is the earlier of its two instants.
public struct ZonedClock: Sendable {
  /// The time zone.
  public let zone: TimeZone
  private let fixedOffset: Int?

  /// The clock of `zone`.
  public init(zone: TimeZone) {
    self.zone = zone
    // A zone without a change since the earliest instant in range needs no look-up per
    // instant.
    let earliest = Date(timeIntervalSince1970: TimeInterval(ValueLimits.instant.lowerBound))
    fixedOffset =
      zone.nextDaylightSavingTimeTransition(after: earliest) == nil
      ? zone.secondsFromGMT(for: earliest) : nil
  }

  /// The clock of the zone named `identifier` (`Europe/Berlin`); nil for an unknown name.
  public init?(identifier: String) {
    guard let zone = TimeZone(identifier: identifier) else { return nil }
    self.init(zone: zone)
  }

  /// The clock of UTC.
  public static let utc = ZonedClock(zone: TimeZone(secondsFromGMT: 0) ?? .gmt)

  /// The offset from UTC in seconds at `instant`.
  public func offset(at instant: Int64) -> Int {
    fixedOffset ?? zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
  }

  /// The local date and seconds since local midnight (0 ..< 86 400) at `instant`.
  public func local(_ instant: Int64) -> (date: CivilDate, secondOfDay: Int) {
    CivilDate.split(instant + Int64(offset(at: instant)))
  }

  /// The instant of a local date and time, by the rule above: in a gap the offset before the
  /// change, in an overlap the earlier instant.
  ///
  /// - Complexity: two offset look-ups away from a change, four next to one.
  public func instant(of date: CivilDate, secondOfDay: Int) -> Int64 {
    instant(ofWall: date.seconds(at: secondOfDay))
  }

  /// ``instant(of:secondOfDay:)`` of a local time as seconds since 1970 read as if UTC.
  func instant(ofWall local: Int64) -> Int64 {
    if let fixedOffset { return local - Int64(fixedOffset) }
    // Every instant that reads `local` lies within ±18 h of it (the widest offsets), and no
    // zone of the tz database changes its offset twice within two days after 1900, so the
    // offsets a day either side are those before and after the one change that can concern it.
    let before = offset(at: local - 86_400)
    let after = offset(at: local + 86_400)
    if before == after { return local - Int64(before) }
    let early = local - Int64(before)
    let late = local - Int64(after)
    let earlyReads = offset(at: early) == before
    let lateReads = offset(at: late) == after
    switch (earlyReads, lateReads) {
    case (true, true): return min(early, late)
    case (true, false): return early
    case (false, true): return late
    case (false, false): return early  // a gap: the offset before the change
    }
  }

  /// The instant local midnight begins on `date` (the first instant of the day when a change
  /// skips midnight).
  public func startOfDay(_ date: CivilDate) -> Int64 { instant(of: date, secondOfDay: 0) }

  /// `2026-01-03 07:30`
  public func minuteText(_ instant: Int64) -> String {
    let (date, second) = local(instant)
    return "\(date) \(clockText(second))"
  }

  /// `2026-01-03 07:30:15`
  public func secondText(_ instant: Int64) -> String {
    let (date, second) = local(instant)
    return "\(date) \(clockText(second)):\(pad(second % 60, 2))"
  }

  /// `07:30`
  public func timeText(_ instant: Int64) -> String { clockText(local(instant).secondOfDay) }

  /// `2026-01-03T07:30:00+01:00`: ISO 8601 with the zone's offset (`+00:00` for UTC).
  public func offsetISOText(_ instant: Int64) -> String {
    let (date, second) = local(instant)
    return "\(date)T\(clockText(second)):\(pad(second % 60, 2))\(offsetText(at: instant))"
  }

  /// `+01:00`, `-05:30`, `+00:00`: the offset at `instant`.
  public func offsetText(at instant: Int64) -> String {
    let offset = offset(at: instant)
    let minutes = abs(offset) / 60
    return (offset < 0 ? "-" : "+") + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
  }

  private func clockText(_ secondOfDay: Int) -> String {
    "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2))"
  }
}
