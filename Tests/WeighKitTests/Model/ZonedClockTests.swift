import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// The zones the conversion is checked in: a European and an American daylight-saving zone,
/// Lord Howe's 30-minute shift, Apia's skipped 30 December 2011, Kathmandu's +05:45, UTC.
private let zoneNames = [
  "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "Asia/Kathmandu",
  "UTC",
]
private let clocks = zoneNames.map { ZonedClock(identifier: $0)! }

/// Seconds since 1970 of a UTC date and time, for readable expectations.
private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Int64 {
  CivilDate(year: year, month: month, day: day).seconds(at: hour * 3600 + minute * 60)
}

/// What the documented rule says a local time is, worked out from Foundation's offsets alone
/// (not from ``ZonedClock/instant(of:secondOfDay:)``): the earliest instant whose wall clock
/// reads `local`; when none does (a gap), `local` read with the offset before the change.
private func documentedInstant(of local: Int64, in zone: TimeZone) -> Int64? {
  func offset(_ instant: Int64) -> Int64 {
    Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))))
  }
  // Every offset in force within a day and a bit of `local`, sampled every 15 minutes.
  var offsets = Set<Int64>()
  for step in stride(from: local - 100_000, through: local + 100_000, by: 900) {
    offsets.insert(offset(step))
  }
  let readers = offsets.map { local - $0 }.filter { $0 + offset($0) == local }
  if let earliest = readers.min() { return earliest }
  // A gap: the change from `before` to `after` falls between the two readings of `local`.
  for before in offsets {
    for after in offsets where after > before {
      if offset(local - after) == before, offset(local - before) == after {
        return local - before
      }
    }
  }
  return nil
}

@Suite struct ZonedClockTests {
  let berlin = ZonedClock(identifier: "Europe/Berlin")!

  @Test func aTimeBeforeASpringGapKeepsItsOffset() {
    // 01:30 on 29 March 2026 in Berlin is still winter time (+01:00).
    let date = CivilDate(year: 2026, month: 3, day: 29)
    #expect(berlin.instant(of: date, secondOfDay: 5400) == utc(2026, 3, 29, 0, 30))
    #expect(berlin.instant(of: date, secondOfDay: 7199) == utc(2026, 3, 29, 0, 59) + 59)
  }

  @Test func aTimeInASpringGapMovesForwardByTheGap() {
    // 02:00–02:59 do not exist; 02:30 is read as 03:30 summer time.
    let date = CivilDate(year: 2026, month: 3, day: 29)
    let gap = berlin.instant(of: date, secondOfDay: 9000)
    #expect(gap == utc(2026, 3, 29, 1, 30))
    #expect(berlin.minuteText(gap) == "2026-03-29 03:30")
    #expect(berlin.instant(of: date, secondOfDay: 7200) == utc(2026, 3, 29, 1, 0))
    #expect(berlin.instant(of: date, secondOfDay: 10_800) == utc(2026, 3, 29, 1, 0))
  }

  @Test func aTimeInAnAutumnOverlapIsTheEarlierInstant() {
    // 02:00–02:59 happen twice on 25 October 2026: first at +02:00, then at +01:00.
    let date = CivilDate(year: 2026, month: 10, day: 25)
    #expect(berlin.instant(of: date, secondOfDay: 9000) == utc(2026, 10, 25, 0, 30))
    #expect(berlin.instant(of: date, secondOfDay: 7200) == utc(2026, 10, 25, 0, 0))
    #expect(berlin.instant(of: date, secondOfDay: 10_800) == utc(2026, 10, 25, 2, 0))
    #expect(berlin.local(utc(2026, 10, 25, 1, 30)) == (date, 9000))
  }

  @Test func newYorkLordHoweApiaAndKathmandu() throws {
    let newYork = try #require(ZonedClock(identifier: "America/New_York"))
    // 02:30 on 8 March 2026 is skipped (EST to EDT): 03:30 EDT.
    let spring = CivilDate(year: 2026, month: 3, day: 8)
    #expect(newYork.instant(of: spring, secondOfDay: 9000) == utc(2026, 3, 8, 7, 30))
    // 01:30 on 1 November 2026 happens twice: the EDT one first.
    let autumn = CivilDate(year: 2026, month: 11, day: 1)
    #expect(newYork.instant(of: autumn, secondOfDay: 5400) == utc(2026, 11, 1, 5, 30))
    let lordHowe = try #require(ZonedClock(identifier: "Australia/Lord_Howe"))
    // Clocks go from 02:00 to 02:30 on 4 October 2026 (+10:30 to +11:00): 02:15 is 02:45.
    let lordHoweSpring = CivilDate(year: 2026, month: 10, day: 4)
    let skipped = lordHowe.instant(of: lordHoweSpring, secondOfDay: 8100)
    #expect(lordHowe.minuteText(skipped) == "2026-10-04 02:45")
    // Apia skipped Friday 30 December 2011 (-10:00 to +14:00): noon that day is noon the next.
    let apia = try #require(ZonedClock(identifier: "Pacific/Apia"))
    let lost = apia.instant(of: CivilDate(year: 2011, month: 12, day: 30), secondOfDay: 43_200)
    #expect(apia.minuteText(lost) == "2011-12-31 12:00")
    #expect(lost == utc(2011, 12, 30, 22, 0))
    let kathmandu = try #require(ZonedClock(identifier: "Asia/Kathmandu"))
    let date = CivilDate(year: 2026, month: 1, day: 3)
    #expect(kathmandu.instant(of: date, secondOfDay: 27_000) == utc(2026, 1, 3, 1, 45))
    #expect(kathmandu.offsetText(at: 1_767_225_600) == "+05:45")
  }

  @Test func everyInstantReadsBackToItselfOrAnEarlierReadingOfTheSameClock() async {
    await propertyCheck(
      count: 400, input: Gen.int(in: Int(utc(1900, 1, 1, 0, 0))...Int(utc(2100, 1, 1, 0, 0)))
    ) { seconds in
      let instant = Int64(seconds)
      for (name, clock) in zip(zoneNames, clocks) {
        let (date, second) = clock.local(instant)
        let back = clock.instant(of: date, secondOfDay: second)
        #expect(back <= instant, "\(name) \(instant)")
        #expect(clock.local(back) == (date, second), "\(name) \(instant)")
        #expect(back == documentedInstant(of: date.seconds(at: second), in: clock.zone))
      }
    }
  }

  @Test func everyLocalTimeConvertsByTheDocumentedRule() async {
    let first = Int(CivilDate(year: 1900, month: 1, day: 2).daysSinceEpoch)
    let last = Int(CivilDate(year: 2099, month: 12, day: 31).daysSinceEpoch)
    await propertyCheck(
      count: 400, input: Gen.int(in: first...last), Gen.int(in: 0...86_399)
    ) { day, second in
      let date = CivilDate(daysSinceEpoch: Int64(day))
      for (name, clock) in zip(zoneNames, clocks) {
        let instant = clock.instant(of: date, secondOfDay: second)
        let expected = documentedInstant(of: date.seconds(at: second), in: clock.zone)
        #expect(instant == expected, "\(name) \(date) \(second)")
      }
    }
  }

  /// Local times every 5 minutes around each clock change from 2000 to 2030, and around
  /// Apia's lost day: exactly the times a random sample rarely hits.
  @Test(arguments: zoneNames)
  func localTimesAroundEveryChangeFollowTheRule(name: String) throws {
    let clock = try #require(ZonedClock(identifier: name))
    var changes: [Int64] = [utc(2011, 12, 30, 10, 0)]
    var next = clock.zone.nextDaylightSavingTimeTransition(
      after: Date(timeIntervalSince1970: TimeInterval(utc(2000, 1, 1, 0, 0))))
    while let change = next, change.timeIntervalSince1970 < TimeInterval(utc(2030, 1, 1, 0, 0)) {
      changes.append(Instant.seconds(of: change))
      next = clock.zone.nextDaylightSavingTimeTransition(after: change)
    }
    for change in changes {
      let (date, _) = clock.local(change)
      let midnight = date.seconds(at: 0)
      for local in stride(from: midnight - 86_400, to: midnight + 2 * 86_400, by: 300) {
        let (day, second) = CivilDate.split(local)
        let instant = clock.instant(of: day, secondOfDay: second)
        #expect(instant == documentedInstant(of: local, in: clock.zone), "\(name) \(day) \(second)")
        // Back to itself, or forward by a gap (never backward).
        let reading = clock.local(instant)
        #expect(reading.date.seconds(at: reading.secondOfDay) >= local, "\(name) \(day) \(second)")
      }
    }
  }
}
