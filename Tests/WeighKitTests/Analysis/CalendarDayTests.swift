import Foundation
import Testing

@testable import WeighKit

@Suite struct CalendarDayTests {
  @Test func dayNumbersMatchTheCivilCalendar() {
    #expect(day(1970, 1, 1).daysSinceEpoch == 0)
    #expect(day(2026, 1, 3).daysSinceEpoch == 20456)
    #expect(day(1969, 12, 31).daysSinceEpoch == -1)
    #expect(day(2000, 3, 1).daysSinceEpoch - day(2000, 2, 28).daysSinceEpoch == 2)
    #expect(day(1900, 3, 1).daysSinceEpoch - day(1900, 2, 28).daysSinceEpoch == 1)
  }

  @Test func componentsRoundTripOverFourCenturies() {
    var previous = day(1899, 12, 31)
    for number in day(1900, 1, 1).daysSinceEpoch...day(2300, 12, 31).daysSinceEpoch {
      let current = CivilDate(daysSinceEpoch: number)
      let c = current.components
      #expect(CivilDate(year: c.year, month: c.month, day: c.day) == current)
      #expect(current.isoWeekday == Int((previous.isoWeekday % 7) + 1))
      previous = current
    }
  }

  @Test func weekdaysMondaysAndMonths() {
    #expect(day(2026, 1, 5).isoWeekday == 1)
    #expect(day(2026, 3, 29).isoWeekday == 7)
    #expect(day(2026, 3, 29).monday == day(2026, 3, 23))
    #expect(day(2026, 3, 23).monday == day(2026, 3, 23))
    #expect(day(2026, 12, 17).firstOfNextMonth == day(2027, 1, 1))
    #expect(day(2024, 2, 29).adding(years: 1) == day(2025, 2, 28))
    #expect(day(2026, 1, 3).description == "2026-01-03")
  }

  @Test func localDayFollowsTheTimeZone() {
    // 23:30 UTC on 2 January is 00:30 on 3 January in Berlin.
    let late = instant(2026, 1, 2, 23, 30, in: Zones.utc)
    #expect(Zones.utc.local(late).date == day(2026, 1, 2))
    #expect(Zones.berlin.local(late).date == day(2026, 1, 3))
    #expect(Zones.utc.local(-1).date == day(1969, 12, 31))
  }

  @Test func dstDaysAreTwentyThreeAndTwentyFiveHours() {
    let spring = day(2026, 3, 29)
    #expect(spring.startInstant(in: Zones.berlin) == 1_774_738_800)
    #expect(
      spring.adding(days: 1).startInstant(in: Zones.berlin) - spring.startInstant(in: Zones.berlin)
        == 23 * 3600)
    let autumn = day(2026, 10, 25)
    #expect(autumn.startInstant(in: Zones.berlin) == 1_792_879_200)
    #expect(
      autumn.adding(days: 1).startInstant(in: Zones.berlin) - autumn.startInstant(in: Zones.berlin)
        == 25 * 3600)
  }

  @Test func localTimeFormatsWithOffset() {
    let summer = LocalTime(instant: instant(2026, 7, 1, 7, 5), zone: Zones.berlin)
    #expect(summer.iso8601 == "2026-07-01T07:05:00+02:00")
    let winter = LocalTime(instant: instant(2026, 1, 3, 7, 30), zone: Zones.berlin)
    #expect(winter.dateMinute == "2026-01-03 07:30")
    #expect(winter.offsetText == "+01:00")
    let utc = LocalTime(instant: 0, zone: Zones.utc)
    #expect(utc.iso8601 == "1970-01-01T00:00:00+00:00")
    let kolkata = LocalTime(instant: 0, zone: ZonedClock(identifier: "Asia/Kolkata")!)
    #expect(kolkata.iso8601 == "1970-01-01T05:30:00+05:30")
    let newYork = LocalTime(instant: 0, zone: Zones.newYork)
    #expect(newYork.iso8601 == "1969-12-31T19:00:00-05:00")
  }
}
