import Foundation
import HealthSim
import Testing

@testable import WeighKit

@Suite struct NumericDomainTests {
  @Test func formatNumberShowsAnyDoubleWithoutTrapping() {
    #expect(DisplayUnit.formatNumber(68.55, decimals: 1) == "68.6")
    #expect(DisplayUnit.formatNumber(-0.04, decimals: 1) == "0.0")
    #expect(DisplayUnit.formatNumber(-2.5, decimals: 0) == "-3")
    #expect(DisplayUnit.formatNumber(9.2e17, decimals: 1) == "9.2e+17")
    #expect(DisplayUnit.formatNumber(-1e308, decimals: 0) == "-1e+308")
    #expect(DisplayUnit.formatNumber(.infinity, decimals: 1) == "inf")
    #expect(DisplayUnit.formatNumber(-.infinity, decimals: 1) == "-inf")
    #expect(DisplayUnit.formatNumber(.nan, decimals: 1) == "nan")
    #expect(DisplayUnit.formatNumber(999_999_999_999_999, decimals: 0) == "999999999999999")
    #expect(DisplayUnit.formatNumber(1_000_000_000_000.4, decimals: 0) == "1000000000000")
    #expect(DisplayUnit.formatNumber(9_007_199_254_740_991, decimals: 0) == "9007199254740991")
    #expect(DisplayUnit.formatNumber(123_456_789_012.5, decimals: 9) == "123456789013.0")
    #expect(DisplayUnit.formatNumber(1.5, decimals: 40) == "1.500000000")
    #expect(DisplayUnit.formatNumber(1.5, decimals: -3) == "2")
    #expect(DisplayUnit.kg.format(kilograms: .greatestFiniteMagnitude).hasSuffix(" kg"))
  }

  @Test func measuresFollowValueLimits() {
    #expect(Measure.mass.contains(0.001))
    #expect(!Measure.mass.contains(0))
    #expect(Measure.mass.contains(1000))
    #expect(!Measure.mass.contains(1000.000_001))
    #expect(!Measure.mass.contains(.nan))
    #expect(Measure.steps.contains(0))
    #expect(!Measure.steps.contains(1_000_001))
    #expect(!Measure.glucose.contains(0))
    #expect(Measure.glucose.contains(10_000))
    #expect(Measure.exerciseMinutes.contains(1440))
    #expect(!Measure.energy.contains(-1))
    #expect(
      Measure.mass.problem(with: 1200)
        == "a weight must be more than 0 kg and at most 1000 kg, got 1200.0 kg")
    #expect(
      Measure.steps.problem(with: 8e17)
        == "a step count must be from 0 to 1000000 steps, got 8e+17 steps")
    #expect(Measure.height.problem(with: 1.7) == nil)
  }

  @Test func simulationRangesMatchValueLimits() {
    let scale = SimulationDefinition.Model.scale(SimulatedScale(startKilograms: 70))
    let glucose = SimulationDefinition.Model.glucose(
      SimulatedGlucoseMonitor(startMilligramsPerDeciliter: 100))
    let steps = SimulationDefinition.Model.steps(SimulatedStepCounter(meanSteps: 100))
    #expect(scale.validValues == ValueLimits.kilograms)
    #expect(glucose.validValues == ValueLimits.milligramsPerDeciliter)
    #expect(steps.validValues == ValueLimits.steps)
    for value in [-1, 0, 0.004, 0.01, 70, 1000, 1000.01, .infinity, .nan] {
      #expect(scale.accepts(value) == Measure.mass.contains(value), "\(value)")
      #expect(glucose.accepts(value) == Measure.glucose.contains(value), "\(value)")
      #expect(steps.accepts(value) == Measure.steps.contains(value), "\(value)")
    }
  }

  @Test func decimalTextIsStrict() {
    #expect(DecimalText.parse("71.25") == 71.25)
    #expect(DecimalText.parse("-0.5") == -0.5)
    #expect(DecimalText.parse("+3") == 3)
    #expect(DecimalText.parse(".5") == 0.5)
    #expect(DecimalText.parse("5.") == 5)
    for text in [
      "0x46", "71.25\0", "1e-320", "1e5", "inf", "-inf", "nan", "1e999", "", ".", "-", "1.2.3",
      " 70", "70kg", "٧٠", String(repeating: "9", count: 41),
    ] {
      #expect(DecimalText.parse(text) == nil, "\(text.debugDescription)")
    }
    // 400 digits overflow to infinity, which is refused.
    #expect(DecimalText.parse(String(repeating: "9", count: 40)) == 1e40)
    #expect(DecimalText.parseJSONNumber("1.5e2") == 150)
    #expect(DecimalText.parseJSONNumber("1e-320") == nil)
    #expect(DecimalText.parseJSONNumber("1e999") == nil)
    #expect(DecimalText.parseJSONNumber("0x46") == nil)
    #expect(DecimalText.parseJSONNumber("0") == 0)
  }

  @Test func wholeNumbersAreCheckedAgainstTheirRange() {
    #expect(DecimalText.parseWhole("42", in: ValueLimits.syncVersion) == 42)
    #expect(DecimalText.parseWhole("+7", in: ValueLimits.syncVersion) == 7)
    #expect(DecimalText.parseWhole("9007199254740991", in: ValueLimits.syncVersion) != nil)
    #expect(DecimalText.parseWhole("9007199254740992", in: ValueLimits.syncVersion) == nil)
    #expect(DecimalText.parseWhole("99999999999999999999", in: ValueLimits.syncVersion) == nil)
    #expect(DecimalText.parseWhole("9223372036854775808", in: 0...Int64.max) == nil)
    #expect(DecimalText.parseWhole("9223372036854775807", in: 0...Int64.max) == Int64.max)
    #expect(DecimalText.parseWhole("-1", in: ValueLimits.syncVersion) == nil)
    #expect(DecimalText.parseWhole("1.0", in: ValueLimits.syncVersion) == nil)
  }

  @Test func durationsAndInstantsUseCheckedArithmetic() {
    #expect(TimeSpan(checkedSeconds: 86_400.4)?.seconds == 86_400)
    #expect(TimeSpan(checkedSeconds: 1e20) == nil)
    #expect(TimeSpan(checkedSeconds: -1) == nil)
    #expect(TimeSpan(checkedSeconds: .nan) == nil)
    #expect(TimeSpan(checkedSeconds: Double(ValueLimits.durationSeconds.upperBound)) == .maximum)
    let last = ValueLimits.instant.upperBound
    #expect(Instant.adding(TimeSpan(seconds: 1), to: last) == nil)
    #expect(Instant.adding(TimeSpan(seconds: 1), to: last - 1) == last)
    #expect(Instant.adding(TimeSpan(seconds: Int64.max), to: 1) == nil)
    #expect(Instant.subtracting(TimeSpan(seconds: Int64.max), from: -10) == nil)
    #expect(Instant.seconds(of: Date(timeIntervalSince1970: 1e300)) == last)
    #expect(
      Instant.seconds(of: Date(timeIntervalSince1970: .nan)) == ValueLimits.instant.lowerBound)
    #expect(
      Instant.seconds(of: Date(timeIntervalSince1970: -1e300)) == ValueLimits.instant.lowerBound)
    #expect(Instant.seconds(of: Date(timeIntervalSince1970: 90.9)) == 90)
    #expect(Instant.seconds(of: Date(timeIntervalSince1970: -0.5)) == -1)
    #expect(Int(rounding: .nan, clampedTo: 0...10) == 0)
    #expect(Int(rounding: 1e300, clampedTo: 0...10) == 10)
    #expect(Int(rounding: 4.5, clampedTo: 0...10) == 5)
  }

  @Test func revisionsAndEntryNumbersStopAtTheirLimit() {
    #expect(Entry.revision(after: 1) == 2)
    #expect(Entry.revision(after: ValueLimits.revision.upperBound) == nil)
    #expect(Entry.revision(after: .max) == nil)
    #expect(Entry.isValidNumber(1))
    #expect(!Entry.isValidNumber(0))
    #expect(!Entry.isValidNumber(ValueLimits.entryNumber.upperBound + 1))
  }
}
