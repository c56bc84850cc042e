/// A row or record an importer did not take, with the line it starts on and why.
public struct ImportRejection: Error, Hashable, Sendable {
  /// The 1-based line the row or record starts on.
  public var line: Int
  /// Lower case, specific, naming the fix.
  public var reason: String
  /// The Apple Health type of the rejected record (`HKWorkoutTypeIdentifier` for a workout),
  /// so that the report counts it on its type's line; nil when unknown or not Apple's.
  public var recordType: String?

  /// A rejection.
  public init(line: Int, reason: String, recordType: String? = nil) {
    self.line = line
    self.reason = reason
    self.recordType = recordType
  }

  /// A row whose moment, `instant`, is after the clock `now` (an import takes nothing from the
  /// future; a minute's leeway is the caller's), both written in `zone`.
  static func afterTheClock(line: Int, instant: Int64, now: Int64, zone: ZonedClock) -> Self {
    ImportRejection(
      line: line,
      reason:
        "\(zone.minuteText(instant)) is after the clock (\(zone.minuteText(now))); move the clock forward or fix the date"
    )
  }

  /// The row's line in `file`, the file imported; ``DiagnosticRenderer`` writes it.
  public func location(in file: String) -> SourceLocation {
    SourceLocation(file: file, line: line)
  }
}
