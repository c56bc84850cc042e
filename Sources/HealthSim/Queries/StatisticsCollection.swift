import Foundation

/// Statistics in equal calendar intervals anchored at a date (HKStatisticsCollection).
public struct StatisticsCollection: Sendable {
  /// The type.
  public let type: SampleType
  /// The start of one interval; intervals extend both ways from it (T7).
  public let anchorDate: Date
  /// The interval length as calendar components, e.g. one day.
  public let intervalComponents: DateComponents
  /// The calendar (and time zone) intervals follow, so a day is 23 or 25 h across DST.
  public let calendar: Calendar
  let buckets: [Int: HealthStatistics]

  /// The statistics of the interval containing `date`; nil when it has no samples.
  public func statistics(for date: Date) -> HealthStatistics? {
    buckets[
      StatisticsCollection.index(
        of: date, anchor: anchorDate, step: intervalComponents, calendar: calendar)]
  }

  /// The intervals with samples, chronologically.
  public func statistics() -> [HealthStatistics] {
    buckets.keys.sorted().map { buckets[$0]! }
  }

  /// Every interval overlapping [start, end], chronologically; empty ones have nil values.
  public func enumerateStatistics(from start: Date, to end: Date) -> [HealthStatistics] {
    let first = StatisticsCollection.index(
      of: start, anchor: anchorDate, step: intervalComponents, calendar: calendar)
    let last = StatisticsCollection.index(
      of: end, anchor: anchorDate, step: intervalComponents, calendar: calendar)
    guard first <= last else { return [] }
    return (first...last).map { index in
      buckets[index]
        ?? HealthStatistics(
          type: type, startDate: bucketStart(index), endDate: bucketStart(index + 1),
          merged: HealthStatistics.Values(), bySource: nil)
    }
  }

  /// The start of interval `index` (0 starts at the anchor).
  public func bucketStart(_ index: Int) -> Date {
    StatisticsCollection.start(
      of: index, anchor: anchorDate, step: intervalComponents, calendar: calendar)
  }

  static func start(of index: Int, anchor: Date, step: DateComponents, calendar: Calendar) -> Date {
    var scaled = DateComponents()
    if let year = step.year { scaled.year = year * index }
    if let month = step.month { scaled.month = month * index }
    if let week = step.weekOfYear { scaled.weekOfYear = week * index }
    if let day = step.day { scaled.day = day * index }
    if let hour = step.hour { scaled.hour = hour * index }
    if let minute = step.minute { scaled.minute = minute * index }
    if let second = step.second { scaled.second = second * index }
    return calendar.date(byAdding: scaled, to: anchor) ?? anchor
  }

  /// The index of the interval containing `date`.
  /// - Complexity: O(1) calendar steps for regular calendars.
  static func index(of date: Date, anchor: Date, step: DateComponents, calendar: Calendar) -> Int {
    let length = start(of: 1, anchor: anchor, step: step, calendar: calendar).timeIntervalSince(
      anchor)
    precondition(length > 0, "the interval must be positive")
    // checked: instants lie in 1900…9999 and intervals last a second or more
    var index = Int((date.timeIntervalSince(anchor) / length).rounded(.down))
    while start(of: index, anchor: anchor, step: step, calendar: calendar) > date { index -= 1 }
    while start(of: index + 1, anchor: anchor, step: step, calendar: calendar) <= date {
      index += 1
    }
    return index
  }
}
