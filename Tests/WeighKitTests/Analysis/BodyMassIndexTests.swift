import Testing

@testable import WeighKit

@Suite struct BodyMassIndexTests {
  @Test func valueIsKilogramsOverMetresSquared() {
    let bmi = BodyMassIndex(kilograms: 70, heightMeters: 1.75)
    #expect(isClose(bmi.value, 22.857_142_857, 1e-9))
    #expect(bmi.whoClass == .normal)
  }

  @Test func whoClassBoundaries() {
    let cases: [(Double, BMIClass)] = [
      (16, .underweight), (18.49, .underweight), (18.5, .normal), (24.9, .normal),
      (24.95, .normal), (25, .overweight), (29.99, .overweight), (30, .obeseI),
      (34.99, .obeseI), (35, .obeseII), (39.99, .obeseII), (40, .obeseIII), (55, .obeseIII),
    ]
    for (value, expected) in cases {
      #expect(BMIClass(bmi: value) == expected, "bmi \(value)")
    }
    #expect(BMIClass.obeseII.label == "obese II")
  }
}
