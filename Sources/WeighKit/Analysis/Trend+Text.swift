extension Trend {
  /// `trend`'s summary: the current trend with its day, and the weekly rate.
  public func summaryLines(unit: DisplayUnit) -> [String] {
    guard let current, let lastDay else { return ["no weights yet; log one, e.g. log 68.5kg"] }
    let rate =
      weeklyRate.map {
        "\(WeightText.rate(kilogramsPerWeek: $0, unit: unit)) (over \(rateDays) days)"
      }
      ?? "unknown (needs weights on 2 days)"
    return TextTable.labelled([
      ("trend", "\(unit.format(kilograms: current)) on \(lastDay)"),
      ("rate", rate),
    ])
  }

  /// One row per day: date, weight and trend; `~` marks a day filled in between readings.
  public static func tableLines(points: [TrendPoint], unit: DisplayUnit) -> [String] {
    let rows = points.map { point in
      [
        point.day.description,
        (point.isInterpolated ? "~" : "") + unit.format(kilograms: point.kilograms),
        unit.format(kilograms: point.trend),
      ]
    }
    return TextTable.columns(header: ["date", "weight", "trend"], rows: rows)
  }
}
