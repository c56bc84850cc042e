extension StatisticsBucket {
  /// `stats`'s table: one row per bucket with average, min, max and count (`-` when empty).
  public static func tableLines(
    _ buckets: [StatisticsBucket], interval: StatisticsInterval, unit: DisplayUnit
  ) -> [String] {
    guard !buckets.isEmpty else { return ["no weights in the range"] }
    let first: String
    switch interval {
    case .daily: first = "day"
    case .weekly: first = "week of"
    case .monthly: first = "month"
    }
    func weight(_ kilograms: Double?) -> String {
      kilograms.map { unit.format(kilograms: $0) } ?? "-"
    }
    let rows = buckets.map { bucket in
      [
        interval == .monthly
          ? String(bucket.firstDay.description.prefix(7)) : bucket.firstDay.description,
        weight(bucket.average), weight(bucket.minimum), weight(bucket.maximum),
        String(bucket.count),
      ]
    }
    return TextTable.columns(header: [first, "average", "min", "max", "count"], rows: rows)
  }
}
