import Foundation

/// Checked arithmetic on instants: seconds since 1970-01-01T00:00:00Z kept inside
/// ``ValueLimits/instant`` (1900 to the end of 9999).
public enum Instant {
  /// `1900-01-01 and 9999-12-31`, for messages.
  public static let rangeText = "1900-01-01 and 9999-12-31"

  /// Whether `instant` lies in the documented range.
  public static func isValid(_ instant: Int64) -> Bool { ValueLimits.instant.contains(instant) }

  /// `instant + span`, or nil when the result leaves the range (or would overflow).
  public static func adding(_ span: TimeSpan, to instant: Int64) -> Int64? {
    let (sum, overflow) = instant.addingReportingOverflow(span.seconds)
    return !overflow && isValid(sum) ? sum : nil
  }

  /// `instant - span`, or nil when the result leaves the range (or would overflow).
  public static func subtracting(_ span: TimeSpan, from instant: Int64) -> Int64? {
    let (difference, overflow) = instant.subtractingReportingOverflow(span.seconds)
    return !overflow && isValid(difference) ? difference : nil
  }

  /// `date` in whole seconds, rounded down and clamped to the documented range, so that a
  /// date from anywhere (Foundation's `distantFuture`, a damaged file) never traps.
  public static func seconds(of date: Date) -> Int64 {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    guard !seconds.isNaN else { return ValueLimits.instant.lowerBound }
    if seconds <= Double(ValueLimits.instant.lowerBound) { return ValueLimits.instant.lowerBound }
    if seconds >= Double(ValueLimits.instant.upperBound) { return ValueLimits.instant.upperBound }
    return Int64(seconds)
  }
}
