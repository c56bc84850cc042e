import Foundation

/// The value that stands for one calendar day under a `DailyPolicy`.
public struct DailyValue: Equatable, Sendable {
  /// The local calendar day.
  public var day: CivilDate
  /// The chosen (or averaged) weight in kilograms.
  public var kilograms: Double
  /// How many readings fell on the day.
  public var readingCount: Int

  /// A day's value.
  public init(day: CivilDate, kilograms: Double, readingCount: Int) {
    self.day = day
    self.kilograms = kilograms
    self.readingCount = readingCount
  }

  /// One value per calendar day of `zone` that has readings, oldest day first.
  ///
  /// Readings need not be sorted; readings at the same instant keep their given order.
  /// - Complexity: O(n log n) for n readings.
  public static func days(
    of readings: [WeightReading], policy: DailyPolicy, zone: ZonedClock
  ) -> [DailyValue] {
    let ordered = readings.enumerated().sorted {
      ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset)
    }.map(\.element)
    var result: [DailyValue] = []
    var index = 0
    while index < ordered.count {
      let day = zone.local(ordered[index].instant).date
      var end = index + 1
      while end < ordered.count,
        zone.local(ordered[end].instant).date == day
      {
        end += 1
      }
      let group = ordered[index..<end]
      result.append(
        DailyValue(
          day: day, kilograms: value(of: group, policy: policy, zone: zone),
          readingCount: group.count))
      index = end
    }
    return result
  }

  private static func value(
    of group: ArraySlice<WeightReading>, policy: DailyPolicy, zone: ZonedClock
  ) -> Double {
    switch policy {
    case .first:
      return group.first!.kilograms
    case .latest:
      return group.last!.kilograms
    case .average:
      return group.reduce(0) { $0 + $1.kilograms } / Double(group.count)
    case .morning:
      let morning = group.first { secondsIntoDay($0.instant, zone: zone) < 12 * 3600 }
      return (morning ?? group.first!).kilograms
    }
  }

  /// Seconds since local midnight as a wall clock in `zone` shows them.
  static func secondsIntoDay(_ instant: Int64, zone: ZonedClock) -> Int {
    zone.local(instant).secondOfDay
  }
}
