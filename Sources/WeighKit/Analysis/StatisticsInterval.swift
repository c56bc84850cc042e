/// The bucket size of `stats`: one day, one week or one calendar month.
public enum StatisticsInterval: String, CaseIterable, Sendable, Codable {
  /// Buckets from local midnight to the next local midnight (23 or 25 hours on a DST day).
  case daily
  /// Buckets from Monday 00:00 to the next Monday 00:00.
  case weekly
  /// Buckets from 00:00 on the 1st to 00:00 on the 1st of the next month.
  case monthly

  /// The first day of the bucket that holds `day`.
  public func bucketStart(containing day: CivilDate) -> CivilDate {
    switch self {
    case .daily: day
    case .weekly: day.monday
    case .monthly: day.firstOfMonth
    }
  }

  /// The first day of the bucket after the one that starts on `start`.
  public func nextBucketStart(after start: CivilDate) -> CivilDate {
    switch self {
    case .daily: start.adding(days: 1)
    case .weekly: start.adding(days: 7)
    case .monthly: start.firstOfNextMonth
    }
  }
}
