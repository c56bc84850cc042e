import Foundation

/// Background wakes used on one UTC day, for the watchOS daily budget (O14).
public struct WakeBudget: Codable, Hashable, Sendable {
  /// The day, as whole days since 1970-01-01 UTC.
  public var day: Int64
  /// Background wakes on that day.
  public var wakes: Int

  /// A day's count.
  public init(day: Int64, wakes: Int) {
    self.day = day
    self.wakes = wakes
  }

  /// The UTC day holding `date`.
  public static func day(of date: Date) -> Int64 {
    // A date beyond any calendar (a damaged state) counts as day 0 rather than trapping.
    Int64(exactly: (date.timeIntervalSince1970 / 86_400).rounded(.down)) ?? 0
  }

  /// The start (UTC midnight) of the day after the one holding `date`.
  public static func startOfNextDay(after date: Date) -> Date {
    Date(timeIntervalSince1970: Double(day(of: date) + 1) * 86_400)
  }
}
