import Foundation
import Testing

@testable import WeighKit

@Suite struct CivilDateTests {
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
      #expect(CivilDate(daysSinceEpoch: current.daysSinceEpoch) == current)
      #expect(CivilDate.isValid(year: current.year, month: current.month, day: current.day))
      #expect(current.adding(days: -1) == previous)
      #expect(previous < current)
      #expect(current.isoWeekday == Int((previous.isoWeekday % 7) + 1))
      previous = current
    }
  }

  /// The day count as it was computed before its table (Howard Hinnant's days-from-civil).
  static func daysBefore(_ date: CivilDate) -> Int64 {
    let y = Int64(date.month <= 2 ? date.year - 1 : date.year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let m = Int64(date.month)
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(date.day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  @Test func dayCountsAsBeforeForEveryDayFromYearOneTo9999() {
    var mismatches = 0
    var previous: Int64?
    for year in 1...9999 {
      for month in 1...12 {
        for number in 1...CivilDate.daysIn(month: month, year: year) {
          let date = day(year, month, number)
          let count = date.daysSinceEpoch
          if count != Self.daysBefore(date) || previous.map({ count != $0 + 1 }) == true {
            mismatches += 1
          }
          previous = count
        }
      }
    }
    #expect(mismatches == 0)
    // Before year 1 and outside the months, the general formula.
    for date in [day(0, 3, 1), day(0, 2, 29), day(-1, 12, 31), day(-400, 1, 1), day(1, 1, 1)] {
      #expect(date.daysSinceEpoch == Self.daysBefore(date), "\(date)")
    }
  }

  @Test func weekdaysMondaysAndMonths() {
    #expect(day(2026, 1, 5).isoWeekday == 1)
    #expect(day(2026, 3, 29).isoWeekday == 7)
    #expect(day(2026, 3, 29).monday == day(2026, 3, 23))
    #expect(day(2026, 3, 23).monday == day(2026, 3, 23))
    #expect(day(2026, 12, 17).firstOfNextMonth == day(2027, 1, 1))
    #expect(day(2024, 2, 29).adding(years: 1) == day(2025, 2, 28))
    #expect(day(2024, 2, 29).adding(years: 4) == day(2028, 2, 29))
    #expect(day(2026, 3, 29).firstOfMonth == day(2026, 3, 1))
    #expect(day(2026, 1, 3).days(to: day(2025, 12, 31)) == -3)
    #expect(!CivilDate.isValid(year: 2023, month: 2, day: 29))
    #expect(CivilDate.daysIn(month: 2, year: 2000) == 29)
    #expect(CivilDate.daysIn(month: 2, year: 1900) == 28)
    #expect(!CivilDate.isValid(year: 2026, month: 4, day: 31))
    #expect(!CivilDate.isValid(year: 2026, month: 13, day: 1))
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
    #expect(Zones.berlin.startOfDay(spring) == 1_774_738_800)
    #expect(
      Zones.berlin.startOfDay(spring.adding(days: 1)) - Zones.berlin.startOfDay(spring)
        == 23 * 3600)
    let autumn = day(2026, 10, 25)
    #expect(Zones.berlin.startOfDay(autumn) == 1_792_879_200)
    #expect(
      Zones.berlin.startOfDay(autumn.adding(days: 1)) - Zones.berlin.startOfDay(autumn)
        == 25 * 3600)
  }

  @Test func localTimeFormatsWithOffset() {
    let berlin = Zones.berlin
    #expect(berlin.offsetISOText(instant(2026, 7, 1, 7, 5)) == "2026-07-01T07:05:00+02:00")
    let winter = instant(2026, 1, 3, 7, 30)
    #expect(berlin.minuteText(winter) == "2026-01-03 07:30")
    #expect(berlin.timeText(winter) == "07:30")
    #expect(berlin.secondText(winter + 15) == "2026-01-03 07:30:15")
    #expect(berlin.offsetText(at: winter) == "+01:00")
    #expect(Zones.utc.offsetISOText(0) == "1970-01-01T00:00:00+00:00")
    let kolkata = ZonedClock(identifier: "Asia/Kolkata")!
    #expect(kolkata.offsetISOText(0) == "1970-01-01T05:30:00+05:30")
    #expect(Zones.newYork.offsetISOText(0) == "1969-12-31T19:00:00-05:00")
  }

  @Test func civilDaysRoundTrip() {
    for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
      let date = CivilDate(daysSinceEpoch: days)
      #expect(date.daysSinceEpoch == days)
      #expect(CivilDate.split(date.seconds(at: 86_399)) == (date, 86_399))
    }
  }
}
