import Foundation

@testable import WeighKit

/// Time zones the analysis tests use.
enum Zones {
  static let berlin = ZonedClock(identifier: "Europe/Berlin")!
  static let utc = ZonedClock(identifier: "UTC")!
  static let newYork = ZonedClock(identifier: "America/New_York")!
}

/// Seconds since 1970 of a wall-clock time in `zone`, computed by Foundation's Calendar so the
/// tests do not lean on the arithmetic under test.
func instant(
  _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0,
  in zone: ZonedClock = Zones.berlin
) -> Int64 {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = zone.zone
  let date = calendar.date(
    from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
  return Int64(date.timeIntervalSince1970)
}

func day(_ year: Int, _ month: Int, _ day: Int) -> CivilDate {
  CivilDate(year: year, month: month, day: day)
}

func reading(
  _ year: Int, _ month: Int, _ dayOfMonth: Int, _ hour: Int, _ minute: Int = 0,
  _ kilograms: Double, in zone: ZonedClock = Zones.berlin
) -> WeightReading {
  WeightReading(
    instant: instant(year, month, dayOfMonth, hour, minute, in: zone), kilograms: kilograms)
}

func isClose(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
  guard let a else { return false }
  return abs(a - b) <= tolerance
}
