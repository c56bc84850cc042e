import Foundation
import Testing

@testable import WeighKit

/// Properties that hold for any readings, checked over seeded pseudo-random data sets.
@Suite struct AnalysisInvariantTests {
  /// A small deterministic generator (64-bit LCG) so every run sees the same data.
  struct Generator {
    var state: UInt64
    mutating func next(_ range: Range<Int64>) -> Int64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return range.lowerBound + Int64((state >> 33) % UInt64(range.upperBound - range.lowerBound))
    }
  }

  func readings(seed: UInt64) -> [WeightReading] {
    var generator = Generator(state: seed)
    let start = instant(2026, 2, 20)
    return (0..<200).map { _ in
      WeightReading(
        instant: start + generator.next(0..<(120 * 86_400)),
        kilograms: 60 + Double(generator.next(0..<2000)) / 100)
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func bucketsCountEveryReadingOnceAndStartAtLocalMidnight(seed: UInt64) {
    let data = readings(seed: seed)
    let start = data.map(\.instant).min()!
    let end = data.map(\.instant).max()! + 1
    for interval in StatisticsInterval.allCases {
      let buckets = StatisticsBucket.buckets(
        of: data, interval: interval, zone: Zones.berlin, from: start, to: end,
        includeEmpty: true)
      #expect(buckets.map(\.count).reduce(0, +) == data.count)
      for (bucket, next) in zip(buckets, buckets.dropFirst()) {
        #expect(bucket.end == next.start)
      }
      for bucket in buckets {
        let local = Zones.berlin.local(bucket.start)
        #expect(local.date == bucket.firstDay)
        #expect(local.secondOfDay == 0)
        if let low = bucket.minimum, let high = bucket.maximum, let mean = bucket.average {
          #expect(low <= mean + 1e-9 && mean <= high + 1e-9)
        }
      }
    }
  }

  @Test(arguments: [6, 7, 8] as [UInt64])
  func trendCoversEveryDayAndStaysInsideTheWeights(seed: UInt64) {
    let data = readings(seed: seed)
    for policy in DailyPolicy.allCases {
      let days = DailyValue.days(of: data, policy: policy, zone: Zones.berlin)
      #expect(days.map(\.readingCount).reduce(0, +) == data.count)
      let trend = Trend(days: days)
      #expect(trend.points.count == days.first!.day.days(to: days.last!.day) + 1)
      #expect(trend.points.filter { !$0.isInterpolated }.count == days.count)
      let low = days.map(\.kilograms).min()!
      let high = days.map(\.kilograms).max()!
      #expect(trend.points.allSatisfy { $0.trend >= low - 1e-9 && $0.trend <= high + 1e-9 })
    }
  }

  @Test func aConstantWeightHasAFlatTrend() {
    let days = (0..<30).map {
      DailyValue(day: day(2026, 1, 1).adding(days: $0 * 2), kilograms: 72.5, readingCount: 1)
    }
    let trend = Trend(days: days)
    #expect(trend.points.allSatisfy { $0.trend == 72.5 })
    #expect(isClose(trend.weeklyRate, 0, 1e-12))
  }
}
