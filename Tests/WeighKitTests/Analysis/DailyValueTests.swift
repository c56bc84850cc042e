import Foundation
import Testing

@testable import WeighKit

@Suite struct DailyValueTests {
  // Three readings on 3 January (given out of order) and one on 5 January.
  let readings = [
    reading(2026, 1, 3, 13, 0, 70.6),
    reading(2026, 1, 3, 7, 30, 70.0),
    reading(2026, 1, 3, 21, 0, 71.0),
    reading(2026, 1, 5, 6, 0, 69.5),
  ]

  @Test func firstLatestAverage() {
    let first = DailyValue.days(of: readings, policy: .first, zone: Zones.berlin)
    #expect(first.map(\.day) == [day(2026, 1, 3), day(2026, 1, 5)])
    #expect(first.map(\.kilograms) == [70.0, 69.5])
    #expect(first.map(\.readingCount) == [3, 1])
    let latest = DailyValue.days(of: readings, policy: .latest, zone: Zones.berlin)
    #expect(latest.map(\.kilograms) == [71.0, 69.5])
    let average = DailyValue.days(of: readings, policy: .average, zone: Zones.berlin)
    #expect(isClose(average[0].kilograms, (70.0 + 70.6 + 71.0) / 3))
  }

  @Test func morningTakesTheFirstBeforeNoonElseTheFirst() {
    let afternoonOnly = [reading(2026, 1, 4, 18, 0, 72.0), reading(2026, 1, 4, 12, 0, 71.5)]
    let days = DailyValue.days(
      of: readings + afternoonOnly, policy: .morning, zone: Zones.berlin)
    #expect(days.map(\.kilograms) == [70.0, 71.5, 69.5])
  }

  @Test func daysAreCalendarDaysOfTheGivenZone() {
    // 23:30 and 00:30 UTC are one Berlin day (00:30 and 01:30 on 4 January) but two UTC days.
    let pair = [
      reading(2026, 1, 3, 23, 30, 70, in: Zones.utc), reading(2026, 1, 4, 0, 30, 71, in: Zones.utc),
    ]
    #expect(DailyValue.days(of: pair, policy: .first, zone: Zones.berlin).count == 1)
    #expect(DailyValue.days(of: pair, policy: .first, zone: Zones.utc).count == 2)
  }

  @Test func equalInstantsKeepTheirOrder() {
    let tied = [
      WeightReading(instant: 1000, kilograms: 70), WeightReading(instant: 1000, kilograms: 71),
    ]
    #expect(DailyValue.days(of: tied, policy: .first, zone: Zones.utc)[0].kilograms == 70)
    #expect(DailyValue.days(of: tied, policy: .latest, zone: Zones.utc)[0].kilograms == 71)
  }

  @Test func noReadingsNoDays() {
    #expect(DailyValue.days(of: [], policy: .average, zone: Zones.utc).isEmpty)
  }
}
