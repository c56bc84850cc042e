import Foundation

/// The trend line as TrendWeight computes it, with the current trend and the weekly rate.
///
/// One value per day (a `DailyPolicy`), linear fill of days without a reading between two days
/// with readings, then `T = T + 0.1·(W − T)` seeded with the first day's weight. The weekly rate
/// is the least-squares slope of the last 14 trend days (x = 0, 1, …) times 7.
///
/// Only the days with a reading are kept, each with its trend; the days between two of them
/// are computed again when they are asked for, from the earlier one, by the same arithmetic in
/// the same order, so they are the same numbers bit for bit. Memory follows the readings, not
/// the calendar days they span (a reading in 1900 and one in 9999 are three million days
/// apart).
public struct Trend: Equatable, Sendable {
  /// The smoothing factor of the exponential moving average (TrendWeight, Hacker's Diet).
  public static let smoothing = 0.1
  /// How many trailing trend days the weekly rate is fitted over.
  public static let rateWindow = 14

  /// The days with a reading, oldest first, each with the trend on that day.
  public private(set) var readingDays: [TrendPoint]
  /// The last `rateWindow` days (or fewer), filled days included: what the weekly rate is
  /// fitted over, kept so that the rate does not walk the last gap again.
  private var lastDays: [TrendPoint]

  /// A trend whose days with a reading are `readingDays` (oldest first, trends given); the
  /// days between them are filled as `init(days:)` fills them.
  public init(readingDays: [TrendPoint]) {
    self.readingDays = readingDays
    lastDays = []
    if let last = readingDays.last {
      lastDays = points(from: last.day.adding(days: 1 - Self.rateWindow), through: last.day)
    }
  }

  /// The trend of `days` (one value per day, in any order, no two on the same day).
  /// - Complexity: O(d log d + s) time for d days with values spanning s calendar days;
  ///   O(d) memory.
  public init(days: [DailyValue]) {
    let sorted = days.sorted { $0.day < $1.day }
    var readingDays: [TrendPoint] = []
    readingDays.reserveCapacity(sorted.count)
    var trend = sorted.first?.kilograms ?? 0
    // The most recent days, trimmed now and then (amortized O(1) a day).
    var recent: [TrendPoint] = []
    func keep(_ point: TrendPoint) {
      recent.append(point)
      if recent.count >= 4 * Self.rateWindow { recent.removeFirst(recent.count - Self.rateWindow) }
    }
    for value in sorted {
      if let previous = readingDays.last {
        // The filled days change the trend; only where it ends up is kept.
        Self.walkGap(after: previous, before: value.day, kilograms: value.kilograms) {
          trend = $0.trend
          keep($0)
          return true
        }
      }
      trend += Self.smoothing * (value.kilograms - trend)
      let point = TrendPoint(
        day: value.day, kilograms: value.kilograms, isInterpolated: false, trend: trend)
      readingDays.append(point)
      keep(point)
    }
    self.readingDays = readingDays
    lastDays = Array(recent.suffix(Self.rateWindow))
  }

  /// The trend of raw readings: daily values under `policy` in `zone`, then as above.
  public init(readings: [WeightReading], policy: DailyPolicy, zone: ZonedClock) {
    self.init(days: DailyValue.days(of: readings, policy: policy, zone: zone))
  }

  /// Every day from the first to the last day with a reading, oldest first, computed now
  /// (one point per calendar day: `points(from:through:)` computes only a part).
  public var points: [TrendPoint] {
    guard let first = readingDays.first, let last = readingDays.last else { return [] }
    return points(from: first.day, through: last.day)
  }

  /// The last day with a reading and its trend.
  public var lastPoint: TrendPoint? { readingDays.last }

  /// The current trend weight in kilograms: the value on the last day with a reading.
  public var current: Double? { readingDays.last?.trend }

  /// The last day with a reading.
  public var lastDay: CivilDate? { readingDays.last?.day }

  /// How many calendar days the trend spans, from its first to its last day with a reading.
  public var dayCount: Int {
    guard let first = readingDays.first, let last = readingDays.last else { return 0 }
    return first.day.days(to: last.day) + 1
  }

  /// How many trend days the weekly rate is fitted over: up to the last 14.
  public var rateDays: Int { min(dayCount, Self.rateWindow) }

  /// The least-squares slope of the trend over the last `rateDays` days, in kilograms per day.
  ///
  /// With fewer than 14 days the fit uses all of them. A single day has no slope: nil.
  public var dailySlope: Double? {
    let n = rateDays
    guard n >= 2 else { return nil }
    let window = lastDays.suffix(n)
    var sumX = 0.0
    var sumY = 0.0
    var sumXY = 0.0
    var sumXX = 0.0
    for (x, point) in window.enumerated() {
      let x = Double(x)
      sumX += x
      sumY += point.trend
      sumXY += x * point.trend
      sumXX += x * x
    }
    let count = Double(n)
    return (count * sumXY - sumX * sumY) / (count * sumXX - sumX * sumX)
  }

  /// The weekly rate in kilograms per week (slope × 7; negative when losing); nil with fewer
  /// than two days.
  public var weeklyRate: Double? { dailySlope.map { $0 * 7 } }

  /// The days in `first...last`, for showing part of a trend computed over the whole history
  /// (the smoothing depends on every earlier day).
  ///
  /// The day with a reading at or before `first` is found by binary search; the filled days
  /// from there on are computed, and only the shown ones kept.
  /// - Complexity: O(log d + g + k) for k days shown and a gap of g days before the first.
  public func points(from first: CivilDate, through last: CivilDate) -> [TrendPoint] {
    guard let start = readingDays.first?.day, let end = readingDays.last?.day,
      first <= last, first <= end, last >= start
    else { return [] }
    let from = max(first, start)
    let through = min(last, end)
    var shown: [TrendPoint] = []
    shown.reserveCapacity(from.days(to: through) + 1)
    // The last day with a reading at or before `from`: the walk starts there.
    var index = max(Self.firstIndex(in: readingDays) { $0.day > from } - 1, 0)
    while index < readingDays.count {
      let reading = readingDays[index]
      if reading.day > through { break }
      if reading.day >= from { shown.append(reading) }
      guard index + 1 < readingDays.count else { break }
      let next = readingDays[index + 1]
      Self.walkGap(after: reading, before: next.day, kilograms: next.kilograms) { point in
        guard point.day <= through else { return false }
        if point.day >= from { shown.append(point) }
        return true
      }
      index += 1
    }
    return shown
  }

  /// Hands `visit` each filled day after the reading day `previous` up to (not including)
  /// `next`, whose weight is `kilograms`: the linear fill and the trend as it moves, until
  /// `visit` returns false.
  static func walkGap(
    after previous: TrendPoint, before next: CivilDate, kilograms: Double,
    _ visit: (TrendPoint) -> Bool
  ) {
    let gap = previous.day.days(to: next)
    var trend = previous.trend
    for step in stride(from: 1, to: gap, by: 1) {
      let weight =
        previous.kilograms + Double(step) * (kilograms - previous.kilograms) / Double(gap)
      trend += smoothing * (weight - trend)
      let point = TrendPoint(
        day: previous.day.adding(days: step), kilograms: weight, isInterpolated: true, trend: trend)
      guard visit(point) else { return }
    }
  }

  /// The first index whose point satisfies `isAtOrAfter` (which is false, then true, along
  /// the points), or the end index.
  static func firstIndex(in points: [TrendPoint], where isAtOrAfter: (TrendPoint) -> Bool) -> Int {
    var low = 0
    var high = points.count
    while low < high {
      let middle = low + (high - low) / 2
      if isAtOrAfter(points[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
