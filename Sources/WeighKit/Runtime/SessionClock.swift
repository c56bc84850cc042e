import Foundation

/// The session's clock and time zone: one part of a ``Session``.
///
/// The virtual clock, once set (`--clock`, `advance`), stands still between commands; before
/// that the wall clock is read. The zone is `--tz` or the store's setting, until `set tz`.
struct SessionClock {
  /// The virtual clock, once set; the wall clock before that.
  var virtualNow: Int64?
  /// The time zone's rules.
  private(set) var zone: ZonedClock
  /// The time zone's name as the user wrote it (Linux calls UTC "GMT").
  private(set) var zoneName: String

  /// A clock at `virtualNow` (the wall clock when nil) in the zone named `zoneName`.
  init(virtualNow: Int64?, zoneName: String) {
    self.virtualNow = virtualNow
    self.zoneName = zoneName
    zone = ZonedClock(zone: TimeZone(identifier: zoneName) ?? .gmt)
  }

  /// The current instant: the virtual clock when set, else the wall clock.
  var now: Int64 { virtualNow ?? Instant.seconds(of: Date()) }

  /// Uses the zone named `identifier` from now on (`set tz`).
  mutating func useTimeZone(_ identifier: String) {
    zoneName = identifier
    zone = ZonedClock(zone: TimeZone(identifier: identifier) ?? .gmt)
  }
}
