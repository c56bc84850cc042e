import Foundation
import Testing

@testable import WeighKit

@Suite struct StatisticsBucketTests {
  @Test func dailyBucketsAcrossTheSpringDSTChange() {
    let readings = [
      reading(2026, 3, 28, 23, 59, 70),
      reading(2026, 3, 29, 0, 0, 71),
      reading(2026, 3, 29, 23, 30, 73),
      reading(2026, 3, 30, 0, 10, 69),
    ]
    let buckets = StatisticsBucket.buckets(
      of: readings, interval: .daily, zone: Zones.berlin,
      from: instant(2026, 3, 28), to: instant(2026, 3, 31))
    #expect(buckets.map(\.firstDay) == [day(2026, 3, 28), day(2026, 3, 29), day(2026, 3, 30)])
    #expect(buckets.map(\.count) == [1, 2, 1])
    #expect(buckets[1].end - buckets[1].start == 23 * 3600)
    #expect(buckets[1].average == 72)
    #expect(buckets[1].minimum == 71)
    #expect(buckets[1].maximum == 73)
  }

  @Test func autumnDayIsTwentyFiveHours() {
    let buckets = StatisticsBucket.buckets(
      of: [reading(2026, 10, 25, 12, 0, 70)], interval: .daily, zone: Zones.berlin,
      from: instant(2026, 10, 25), to: instant(2026, 10, 26))
    #expect(buckets.count == 1)
    #expect(buckets[0].end - buckets[0].start == 25 * 3600)
  }

  @Test func weeklyBucketsStartOnMondayEvenBeforeTheRange() {
    // Wednesday 25 March to Wednesday 1 April: the weeks of Monday 23 and Monday 30 March.
    let readings = [
      reading(2026, 3, 24, 8, 0, 80),  // before the range: not counted
      reading(2026, 3, 25, 8, 0, 70),
      reading(2026, 3, 29, 8, 0, 72),
      reading(2026, 3, 30, 8, 0, 74),
      reading(2026, 4, 1, 8, 0, 90),  // at or after the end: not counted
    ]
    let buckets = StatisticsBucket.buckets(
      of: readings, interval: .weekly, zone: Zones.berlin,
      from: instant(2026, 3, 25), to: instant(2026, 4, 1))
    #expect(buckets.map(\.firstDay) == [day(2026, 3, 23), day(2026, 3, 30)])
    #expect(buckets[0].start == instant(2026, 3, 23))
    #expect(buckets[0].end == instant(2026, 3, 30))
    #expect(buckets[0].end - buckets[0].start == 7 * 86400 - 3600)
    #expect(buckets.map(\.count) == [2, 1])
    #expect(buckets[0].average == 71)
  }

  @Test func monthlyBucketsAndEmptyOnes() {
    let readings = [reading(2026, 1, 31, 22, 0, 70), reading(2026, 3, 1, 0, 0, 68)]
    let compact = StatisticsBucket.buckets(
      of: readings, interval: .monthly, zone: Zones.berlin,
      from: instant(2026, 1, 15), to: instant(2026, 3, 15))
    #expect(compact.map(\.firstDay) == [day(2026, 1, 1), day(2026, 3, 1)])
    let full = StatisticsBucket.buckets(
      of: readings, interval: .monthly, zone: Zones.berlin,
      from: instant(2026, 1, 15), to: instant(2026, 3, 15), includeEmpty: true)
    #expect(full.map(\.firstDay) == [day(2026, 1, 1), day(2026, 2, 1), day(2026, 3, 1)])
    #expect(full[1].count == 0)
    #expect(full[1].average == nil)
    #expect(full[1].end - full[1].start == 28 * 86400)
  }

  @Test func anEmptyRangeHasNoBuckets() {
    #expect(
      StatisticsBucket.buckets(
        of: [WeightReading(instant: 5, kilograms: 70)], interval: .daily, zone: Zones.utc,
        from: 10, to: 10, includeEmpty: true
      ).isEmpty)
  }
}
