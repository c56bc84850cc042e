import Foundation

/// Average, minimum, maximum and count of the weights in one interval, as
/// `HKStatisticsCollectionQuery` reports them for a discrete quantity.
public struct StatisticsBucket: Equatable, Sendable {
  /// The local day the bucket starts on (midnight, Monday or the 1st).
  public var firstDay: CivilDate
  /// The first instant of the bucket (seconds since 1970 UTC).
  public var start: Int64
  /// The first instant after the bucket.
  public var end: Int64
  /// The number of readings in the bucket.
  public var count: Int
  /// Mean weight in kilograms; nil when the bucket is empty.
  public var average: Double?
  /// Lowest weight in kilograms; nil when the bucket is empty.
  public var minimum: Double?
  /// Highest weight in kilograms; nil when the bucket is empty.
  public var maximum: Double?

  /// A bucket with the given figures.
  public init(
    firstDay: CivilDate, start: Int64, end: Int64, count: Int, average: Double?,
    minimum: Double?, maximum: Double?
  ) {
    self.firstDay = firstDay
    self.start = start
    self.end = end
    self.count = count
    self.average = average
    self.minimum = minimum
    self.maximum = maximum
  }

  /// The buckets that cover `[start, end)`, each holding the readings in both it and the range.
  ///
  /// As with `HKStatisticsCollectionQuery`, the buckets are anchored in `zone` (local
  /// midnight, Monday 00:00, 00:00 on the 1st), so the first bucket may begin before `start`
  /// and the last may end after `end`; only readings inside `[start, end)` are counted. Empty
  /// buckets are returned only when `includeEmpty` is true. Every reading counts, whatever
  /// the daily policy.
  /// - Complexity: O(n log n + b) for n readings and b buckets.
  public static func buckets(
    of readings: [WeightReading], interval: StatisticsInterval, zone: ZonedClock,
    from start: Int64, to end: Int64, includeEmpty: Bool = false
  ) -> [StatisticsBucket] {
    guard start < end else { return [] }
    let inside = readings.filter { $0.instant >= start && $0.instant < end }
      .sorted { $0.instant < $1.instant }
    var result: [StatisticsBucket] = []
    var firstDay = interval.bucketStart(containing: zone.local(start).date)
    var bucketStart = zone.startOfDay(firstDay)
    var index = 0
    while bucketStart < end {
      let nextDay = interval.nextBucketStart(after: firstDay)
      let bucketEnd = zone.startOfDay(nextDay)
      var count = 0
      var sum = 0.0
      var low = Double.infinity
      var high = -Double.infinity
      while index < inside.count, inside[index].instant < bucketEnd {
        let kilograms = inside[index].kilograms
        count += 1
        sum += kilograms
        low = min(low, kilograms)
        high = max(high, kilograms)
        index += 1
      }
      if count > 0 || includeEmpty {
        result.append(
          StatisticsBucket(
            firstDay: firstDay, start: bucketStart, end: bucketEnd, count: count,
            average: count > 0 ? sum / Double(count) : nil, minimum: count > 0 ? low : nil,
            maximum: count > 0 ? high : nil))
      }
      firstDay = nextDay
      bucketStart = bucketEnd
    }
    return result
  }
}
