import Foundation
import Testing

@testable import WeighKit

@Suite struct HealthSummaryTests {
  @Test func jsonHasEveryKeyInOrder() {
    let summary = HealthSummary(
      glucose: 105, glucoseInstant: instant(2026, 1, 3, 8, 15),
      weightKilograms: 68.5, weightInstant: instant(2026, 1, 3, 7, 30),
      steps: 8000, activeEnergyKilocalories: 350.25, exerciseMinutes: nil)
    #expect(
      summary.json(zone: Zones.berlin)
        == "{\"glucose_mg_dl\": 105, \"glucose_timestamp\": \"2026-01-03T08:15:00+01:00\", "
        + "\"weight_lbs\": 151, \"weight_timestamp\": \"2026-01-03T07:30:00+01:00\", "
        + "\"steps\": 8000, \"active_energy_kcal\": 350.3, \"exercise_minutes\": null}")
  }

  @Test func jsonParsesAndKeepsNulls() throws {
    let text = HealthSummary().json(zone: Zones.utc)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(Set(object.keys) == Set(HealthSummary.keys))
    #expect(object.values.allSatisfy { $0 is NSNull })
    #expect(text.contains("\"exercise_minutes\": null}"))
  }

  @Test func textLinesAreAligned() {
    let summary = HealthSummary(
      weightKilograms: 68.5, weightInstant: instant(2026, 1, 3, 7, 30), steps: 4321)
    #expect(
      summary.lines(unit: .kg, zone: Zones.berlin) == [
        "glucose:       none",
        "weight:        68.5 kg at 2026-01-03 07:30",
        "steps:         4321",
        "active energy: none",
        "exercise:      none",
      ])
  }
}
