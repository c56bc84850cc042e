import Testing

@testable import WeighKit

/// wstore11's arithmetic against what it replaces: the date of an instant's text from
/// unsigned products instead of `CivilDate`, a checksum's hex digits spread in one word
/// instead of one table look-up each, and an integer's digit pairs from one multiplication.
@Suite struct ByteCursorArithmeticTests {
  private static func written(_ write: (inout JSONWriter) -> Void) -> String {
    var writer = JSONWriter()
    write(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  @Test func everyDayOfTheFourDigitYearsHasCivilDatesDate() {
    let first = UTCInstantText.range.lowerBound / 86_400  // 0000-01-01, a whole day
    let last = UTCInstantText.range.upperBound / 86_400  // 9999-12-31
    #expect(first == -719_528 && last == 2_932_896)
    var wrong = 0
    for days in first...last {
      let expected = CivilDate(daysSinceEpoch: days)
      let (year, month, day) = UTCInstantText.civil(days: days)
      if Int(year) != expected.year || Int(month) != expected.month || Int(day) != expected.day {
        wrong += 1
        if wrong <= 3 { Issue.record("day \(days): \(year)-\(month)-\(day), not \(expected)") }
      }
    }
    #expect(wrong == 0)
  }

  /// The text of `instant` as it was written before (`CivilDate.split`, then each field).
  private static func textThroughCivilDate(_ instant: Int64) -> String {
    let (date, second) = CivilDate.split(instant)
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: width - digits.count) + digits
    }
    return "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))T"
      + "\(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2)):\(pad(second % 60, 2))Z"
  }

  @Test func anInstantsTextIsWrittenAsThroughCivilDate() {
    var numbers = ByteCursorTests.Numbers(state: 1111)
    let range = UTCInstantText.range
    var instants: [Int64] = [range.lowerBound, range.upperBound, -1, 0, 1, 86_399, 86_400]
    for day: Int64 in [-719_528, -719_469, -719_468, -1, 0, 11_016, 2_932_896] {
      for second: Int64 in [0, 1, 59, 60, 3599, 3600, 43_200, 86_399] {
        instants.append(day * 86_400 + second)
      }
    }
    for _ in 0..<300_000 {
      instants.append(
        range.lowerBound + Int64(numbers.below(UInt64(range.upperBound - range.lowerBound))))
    }
    for instant in instants where range.contains(instant) {
      let text = UTCInstantText.text(instant)
      let expected = Self.textThroughCivilDate(instant)
      #expect(text == expected, "\(instant)")
      if text != expected { return }
      #expect(UTCInstantText.parse(text) == instant)
    }
  }

  @Test func aChecksumsHexDigitsAreTheTablesOnes() {
    var numbers = ByteCursorTests.Numbers(state: 8)
    var values: [UInt32] = [0, 1, 9, 10, 15, 16, 0x0909_0909, 0x0A0A_0A0A, 0xFFFF_FFFF]
    for shift: UInt32 in 0..<32 { values += [1 << shift, ~(1 << shift)] }
    for _ in 0..<200_000 { values.append(UInt32(truncatingIfNeeded: numbers.next())) }
    for value in values {
      let text = Self.written { writer in writer.append(atMost: 8) { $0.hex(value) } }
      let expected = String(decoding: StoreChecksum.hex(value), as: UTF8.self)
      #expect(text == expected, "\(value)")
      if text != expected { return }
    }
  }

  @Test func everyIntegerBelowAMillionIsWrittenAsDescriptionSpellsIt() {
    var wrong = 0
    for value in 0..<1_000_000 {
      let text = Self.written { writer in
        writer.append(atMost: ByteCursor.integerRoom) { $0.integer(value) }
      }
      if text != String(value) {
        wrong += 1
        if wrong <= 3 { Issue.record("\(value) written as \(text)") }
      }
    }
    #expect(wrong == 0)
  }
}

/// `ByteCursor.nearestLongDecimal` (wstore11) against `description`, which it replaces for
/// numbers that need more digits than `shortestDecimal` tries.
@Suite struct ByteCursorLongDecimalTests {
  private static func written(_ value: Double) -> String {
    var writer = JSONWriter()
    writer.write(value)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  @Test func weightsInPoundsAreWrittenAsDescriptionSpellsThem() {
    var long = 0
    var mismatches: [Double] = []
    // Every weight to 0.01 lb up to 2,000 lb, and to 0.1 stone, in kilograms (Fitbit's and
    // Withings' conversions), as the reader makes them.
    var values: [Double] = []
    for hundredths in 1...200_000 {
      values.append(Double(hundredths) / 100 * 0.453_592_37)
      values.append(Double(hundredths) / 100 / 2.204_622_621_848_775_8)
    }
    for tenths in 1...5_000 { values.append(Double(tenths) / 10 * 6.350_293_18) }
    for value in values {
      if ByteCursor.shortestDecimal(value) == nil, ByteCursor.nearestLongDecimal(value) != nil {
        long += 1
      }
      if Self.written(value) != ByteCursorTests.Reference.double(value) { mismatches.append(value) }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { "\($0) (\($0.bitPattern))" })")
    // The long path was taken, for a good share of them.
    #expect(long > 50_000)
  }

  @Test func randomNumbersOfEveryKindAreWrittenAsDescriptionSpellsThem() {
    var numbers = ByteCursorTests.Numbers(state: 20_261_127_11)
    var long = 0
    var mismatches: [Double] = []
    for _ in 0..<1_000_000 {
      var value = numbers.double()
      // Half of them near a value the long path takes: a few ulps either side.
      if numbers.below(2) == 0 {
        value = Double(numbers.below(1 << 53)) / Double(1 << numbers.below(50))
        for _ in 0..<numbers.below(3) { value = value.nextUp }
      }
      let magnitude = value.magnitude
      if magnitude.isFinite, magnitude >= 0.001, magnitude != magnitude.rounded(.towardZero),
        ByteCursor.shortestDecimal(magnitude) == nil,
        ByteCursor.nearestLongDecimal(magnitude) != nil
      {
        long += 1
      }
      if Self.written(value) != ByteCursorTests.Reference.double(value) { mismatches.append(value) }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { "\($0) (\($0.bitPattern))" })")
    #expect(long > 100_000)
  }

  @Test func powersOfTwoAndTiesAreLeftToDescription() {
    // A significand that is a power of two: the Double below is half an ulp away.
    for exponent in -9...52 {
      let value = Double(sign: .plus, exponent: exponent, significand: 1)
      #expect(ByteCursor.nearestLongDecimal(value) == nil)
      #expect(Self.written(value) == ByteCursorTests.Reference.double(value))
    }
  }
}
