import Testing

@testable import WeighKit

@Test func poundsConvertExactly() {
  #expect(MassUnit.lb.toKilograms(1) == 0.45359237)
  #expect(abs(MassUnit.st.toKilograms(1) - 14 * 0.45359237) < 1e-12)
  #expect(DisplayUnit.lb.format(kilograms: 68.5) == "151.0 lb")
  #expect(DisplayUnit.kg.format(kilograms: 68.55) == "68.6 kg")
}
