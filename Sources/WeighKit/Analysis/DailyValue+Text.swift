import Foundation

extension DailyValue {
  /// `day`'s lines: each reading of the day with its time, then the value that stands for the
  /// day under `policy`.
  public static func dayLines(
    readings: [WeightReading], day: CivilDate, policy: DailyPolicy, zone: ZonedClock,
    unit: DisplayUnit
  ) -> [String] {
    let ofDay = readings.filter { zone.local($0.instant).date == day }
    guard let value = days(of: ofDay, policy: policy, zone: zone).first else {
      return ["no weights on \(day)"]
    }
    let ordered = ofDay.enumerated().sorted {
      ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset)
    }.map(\.element)
    var lines = ordered.map {
      "\(zone.timeText($0.instant))  \(unit.format(kilograms: $0.kilograms))"
    }
    lines.append("\(day) (\(policy.rawValue)): \(unit.format(kilograms: value.kilograms))")
    return lines
  }
}
