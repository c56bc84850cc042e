import Foundation

/// The trend line as TrendWeight computes it, with the current trend and the weekly rate.
///
/// One value per day (a `DailyPolicy`), linear fill of days without a reading between two days
/// with readings, then `T = T + 0.1·(W − T)` seeded with the first day's weight. The weekly rate
/// is the least-squares slope of the last 14 trend days (x = 0, 1, …) times 7.
public struct Trend: Equatable, Sendable {
  /// The smoothing factor of the exponential moving average (TrendWeight, Hacker's Diet).
  public static let smoothing = 0.1
  /// How many trailing trend days the weekly rate is fitted over.
  public static let rateWindow = 14

  /// Every day from the first to the last day with a reading, oldest first.
  public var points: [TrendPoint]

  /// A trend over already computed points.
  public init(points: [TrendPoint]) {
    self.points = points
  }

  /// The trend of `days` (one value per day, in any order, no two on the same day).
  /// - Complexity: O(d log d + s) for d days with values spanning s calendar days.
  public init(days: [DailyValue]) {
    let sorted = days.sorted { $0.day < $1.day }
    var points: [TrendPoint] = []
    // One point per calendar day: reserved up front, so a long span (a reading in 1900 and
    // one in 9999 make three million days) is allocated once instead of grown by copying.
    if let first = sorted.first, let last = sorted.last {
      points.reserveCapacity(first.day.days(to: last.day) + 1)
    }
    var trend = sorted.first?.kilograms ?? 0
    func append(_ day: CivilDate, _ weight: Double, _ filled: Bool) {
      trend += Self.smoothing * (weight - trend)
      points.append(TrendPoint(day: day, kilograms: weight, isInterpolated: filled, trend: trend))
    }
    for (index, value) in sorted.enumerated() {
      if index > 0 {
        let previous = sorted[index - 1]
        let gap = previous.day.days(to: value.day)
        for step in stride(from: 1, to: gap, by: 1) {
          let weight =
            previous.kilograms + Double(step) * (value.kilograms - previous.kilograms) / Double(gap)
          append(previous.day.adding(days: step), weight, true)
        }
      }
      append(value.day, value.kilograms, false)
    }
    self.points = points
  }

  /// The trend of raw readings: daily values under `policy` in `zone`, then as above.
  public init(readings: [WeightReading], policy: DailyPolicy, zone: ZonedClock) {
    self.init(days: DailyValue.days(of: readings, policy: policy, zone: zone))
  }

  /// The current trend weight in kilograms: the value on the last day with a reading.
  public var current: Double? { points.last?.trend }

  /// The last day with a reading.
  public var lastDay: CivilDate? { points.last?.day }

  /// How many trend days the weekly rate is fitted over: up to the last 14.
  public var rateDays: Int { min(points.count, Self.rateWindow) }

  /// The least-squares slope of the trend over the last `rateDays` days, in kilograms per day.
  ///
  /// With fewer than 14 days the fit uses all of them. A single day has no slope: nil.
  public var dailySlope: Double? {
    let n = rateDays
    guard n >= 2 else { return nil }
    let window = points.suffix(n)
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

  /// The points whose day lies in `first...last`, for showing part of a trend computed over
  /// the whole history (the smoothing depends on every earlier day).
  ///
  /// The points are sorted by day, so the bounds are found by binary search and only the
  /// shown days are copied; a range covering every day returns the points as they are.
  /// - Complexity: O(log n + k) for k points shown.
  public func points(from first: CivilDate, through last: CivilDate) -> [TrendPoint] {
    let lower = Self.firstIndex(in: points) { $0.day >= first }
    let upper = Self.firstIndex(in: points) { $0.day > last }
    guard lower < upper else { return [] }
    if lower == 0, upper == points.count { return points }
    return Array(points[lower..<upper])
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
