extension GoalProjection {
  /// `goal`'s lines: trend, goal, distance, rate, and the projection or why there is none.
  public func lines(unit: DisplayUnit) -> [String] {
    let toGo = abs(distance)
    let direction = distance > 0 ? "to lose" : distance < 0 ? "to gain" : ""
    var rows = [
      ("trend", unit.format(kilograms: trend)),
      ("goal", unit.format(kilograms: goal)),
      ("to go", "\(unit.format(kilograms: toGo)) \(direction)".trimmingTrailingSpaces()),
      ("rate", weeklyRate.map { WeightText.rate(kilogramsPerWeek: $0, unit: unit) } ?? "unknown"),
    ]
    let band = unit.format(kilograms: Self.maintenanceBand)
    switch status {
    case .atGoal:
      rows.append(("status", "at goal (within \(band) of it)"))
    case .projected(let date, let days):
      let when =
        days > 0
        ? "in \(English.counted(days, "day"))"
        : days == 0 ? "today" : "\(English.counted(-days, "day")) ago"
      rows.append(("projected", "\(date) (\(when))"))
    case .beyondThreeYears:
      rows.append(("projected", "more than 3 years away"))
    case .movingAway:
      rows.append(("status", "the trend is moving away from the goal"))
    case .flat:
      rows.append(("status", "the trend is flat; no projected date"))
    }
    return TextTable.labelled(rows)
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
