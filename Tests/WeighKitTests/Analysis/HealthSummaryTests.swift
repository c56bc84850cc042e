import Foundation
import Testing

@testable import WeighKit

@Suite struct HealthSummaryTests {
  @Test func jsonFollowsTheContractKeysInOrderUnrounded() {
    let summary = HealthSummary(
      glucose: 105, glucoseInstant: instant(2026, 1, 3, 8, 15),
      weightKilograms: 68.5, weightInstant: instant(2026, 1, 3, 7, 30),
      steps: 8000, activeEnergyKilocalories: 350.25, exerciseMinutes: nil)
    let pounds = 68.5 / 0.45359237
    #expect(
      SummaryJSON.line(of: summary)
        == "{\"glucose_mg_dl\": 105, \"glucose_timestamp\": \(instant(2026, 1, 3, 8, 15)), "
        + "\"weight_lbs\": \(pounds), \"weight_timestamp\": \(instant(2026, 1, 3, 7, 30)), "
        + "\"steps\": 8000, \"active_energy_kcal\": 350.25}")
  }

  @Test func jsonLeavesOutWhatIsMissingAndParses() throws {
    #expect(SummaryJSON.line(of: HealthSummary()) == "{}")
    let text = SummaryJSON.line(
      of: HealthSummary(weightKilograms: 70, weightInstant: 1_767_254_400))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(Set(object.keys) == ["weight_lbs", "weight_timestamp"])
    #expect(object["weight_timestamp"] as? Int == 1_767_254_400)
    #expect(object["weight_lbs"] as? Double == 70 / 0.45359237)
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
