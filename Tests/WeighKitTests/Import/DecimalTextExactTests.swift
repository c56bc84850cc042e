import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// `DecimalText.plainDecimal` reads decimals of 16 to 19 digits from their bytes
/// (`exactQuotient`) to the Double `Double(String)` gives, bit for bit, as it read them
/// before (docs/performance.md, "wjson10").
@Suite struct DecimalTextExactTests {
  static func read(_ text: String) -> Double? {
    Array(text.utf8).withUnsafeBufferPointer { DecimalText.plainDecimal($0) }
  }

  @Test func randomDecimalsOfOneToNineteenDigitsReadAsDoubleReadsThem() async {
    // Digits, a point anywhere (or none), a sign or none: 1 to 19 digits in all.
    await propertyCheck(
      count: 20000, input: Gen.int(in: 0...9).array(of: 1...19), Gen.int(in: 0...20),
      Gen.bool
    ) { digits, pointAt, negative in
      var text = digits.map(String.init).joined()
      if pointAt > 0, pointAt < text.count {
        text.insert(".", at: text.index(text.startIndex, offsetBy: pointAt))
      }
      if negative { text = "-" + text }
      let expected = Double(text)
      #expect(expected != nil)
      #expect(Self.read(text)?.bitPattern == expected?.bitPattern, "\(text)")
    }
  }

  @Test func weightsInKilogramsAsTheStoreWritesThemReadBack() async {
    // A Fitbit weight: pounds converted to kilograms, written in full by `description`.
    await propertyCheck(count: 20000, input: Gen.int(in: 100...9_999_999)) { tenths in
      let kilograms = MassUnit.lb.toKilograms(Double(tenths) / 100)
      let text = kilograms.description
      guard !text.contains("e") else { return }
      #expect(Self.read(text)?.bitPattern == kilograms.bitPattern, "\(text)")
    }
  }

  @Test func hardCasesRoundAsDoubleRoundsThem() {
    let cases = [
      "9007199254740993", "9007199254740992", "9007199254740994", "9007199254740995",
      "18446744073709551615", "9999999999999999999", "1000000000000000000",
      "68.03880099999999", "0.1000000000000000055511151231257827",
      "1.000000000000000111", "1.000000000000000222", "1.0000000000000002220",
      "1.0000000000000003330", "0.0000000000000000001", "-0.0000000000000000000",
      "123456789.0123456789", "9.999999999999999999", "0.9999999999999999999",
      // Halfway between two doubles: ties to the even significand.
      "4503599627370497.5", "4503599627370496.5", "-4503599627370497.5",
      "9007199254740997", "18014398509481986", "18014398509481990",
    ]
    for text in cases {
      let expected = text.filter { $0.isNumber }.count <= 19 ? Double(text) : nil
      #expect(Self.read(text)?.bitPattern == expected?.bitPattern, "\(text)")
    }
  }
}
