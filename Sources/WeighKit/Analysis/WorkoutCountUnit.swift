/// What the count of a `workout` command counts.
public enum WorkoutCountUnit: String, CaseIterable, Sendable, Codable {
  /// Repetitions, estimated at 2 seconds each.
  case reps
  /// Seconds.
  case seconds = "s"
  /// Minutes.
  case minutes = "min"

  /// Seconds each counted unit lasts.
  public var secondsPerUnit: Double {
    switch self {
    case .reps: 2
    case .seconds: 1
    case .minutes: 60
    }
  }

  /// The workout duration in seconds for `count` of this unit.
  public func duration(count: Double) -> Double { count * secondsPerUnit }
}
