import Foundation

/// The day's health summary of ViiRaa: latest glucose and weight, and the day's activity.
public struct HealthSummary: Equatable, Sendable {
  /// The JSON keys, in the order they are written.
  public static let keys = [
    "glucose_mg_dl", "glucose_timestamp", "weight_lbs", "weight_timestamp", "steps",
    "active_energy_kcal", "exercise_minutes",
  ]

  /// The latest glucose reading in mg/dL.
  public var glucose: Double?
  /// When it was taken (seconds since 1970 UTC).
  public var glucoseInstant: Int64?
  /// The latest weight in kilograms.
  public var weightKilograms: Double?
  /// When it was taken.
  public var weightInstant: Int64?
  /// The day's step count.
  public var steps: Double?
  /// The day's active energy in kcal.
  public var activeEnergyKilocalories: Double?
  /// The day's exercise minutes.
  public var exerciseMinutes: Double?

  /// A summary; any part may be missing.
  public init(
    glucose: Double? = nil, glucoseInstant: Int64? = nil, weightKilograms: Double? = nil,
    weightInstant: Int64? = nil, steps: Double? = nil, activeEnergyKilocalories: Double? = nil,
    exerciseMinutes: Double? = nil
  ) {
    self.glucose = glucose
    self.glucoseInstant = glucoseInstant
    self.weightKilograms = weightKilograms
    self.weightInstant = weightInstant
    self.steps = steps
    self.activeEnergyKilocalories = activeEnergyKilocalories
    self.exerciseMinutes = exerciseMinutes
  }

  /// Plain aligned lines for `summary`, weights in `unit`.
  public func lines(unit: DisplayUnit, zone: ZonedClock) -> [String] {
    func at(_ instant: Int64?) -> String {
      instant.map { " at " + zone.minuteText($0) } ?? ""
    }
    let rows: [(String, String)] = [
      ("glucose", glucose.map { number($0) + " mg/dL" + at(glucoseInstant) } ?? "none"),
      ("weight", weightKilograms.map { unit.format(kilograms: $0) + at(weightInstant) } ?? "none"),
      ("steps", steps.map { number($0) } ?? "none"),
      ("active energy", activeEnergyKilocalories.map { number($0) + " kcal" } ?? "none"),
      ("exercise", exerciseMinutes.map { number($0) + " min" } ?? "none"),
    ]
    return TextTable.labelled(rows)
  }

  private func number(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "null" }
    let text = DisplayUnit.formatNumber(value, decimals: 1)
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }
}
