import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// A weigh entry's `instant` read three words at a time (`UTCInstantWords`) reads what
/// `UTCInstantText.parseByDigits` reads: the same seconds for every text, nil for the same texts
/// (docs/performance.md, "The JSON readers' records as plain values").
@Suite struct UTCInstantWordsTests {
  /// Both ways on `text`'s bytes.
  static func both(_ text: [UInt8]) -> (Int64?, Int64?) {
    text.withUnsafeBufferPointer { (UTCInstantWords.parse($0), UTCInstantText.parseByDigits($0)) }
  }

  @Test func everyDateAndTimeReadsAsBefore() async {
    let valid = Counter()
    await propertyCheck(
      count: 6000,
      input: Gen.int(in: 0...9999), Gen.int(in: 0...13), Gen.int(in: 0...32),
      Gen.int(in: 0...99).array(of: 3...3)
    ) { year, month, day, clock in
      func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
      let padded = String(repeating: "0", count: 4 - String(year).count) + String(year)
      // Hours, minutes and seconds mostly in range, sometimes just past it.
      let (hour, minute, second) = (clock[0] % 26, clock[1] % 62, clock[2] % 62)
      let text =
        "\(padded)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
      let (fast, before) = Self.both(Array(text.utf8))
      #expect(fast == before, "\(text)")
      if before != nil { valid.add() }
    }
    #expect(valid.count > 1000)
  }

  @Test func anyByteChangedReadsAsBefore() async {
    // Digits, every separator, the bytes next to digits and separators, and a few others.
    let bytes: [UInt8] = [
      0x30, 0x31, 0x35, 0x39, 0x2F, 0x3A, 0x3B, 0x2D, 0x2C, 0x2E, 0x54, 0x74, 0x5A, 0x7A,
      0x20, 0x00, 0x80, 0xFF, 0x40, 0x3F, 0x06, 0xB9, 0xE0,
    ]
    let start = Array("2026-01-03T06:30:00Z".utf8)
    await propertyCheck(
      count: 6000,
      input: Gen.int(in: 0...19).array(of: 1...3), Gen.int(in: 0...22).array(of: 3...3),
      Gen.int(in: 0...9)
    ) { places, picks, length in
      var text = start
      for (place, pick) in zip(places, picks) { text[place] = bytes[pick] }
      // Sometimes a byte short or one too many.
      if length == 0 { text.removeLast() }
      if length == 1 { text.append(0x5A) }
      let (fast, before) = Self.both(text)
      #expect(fast == before, "\(text)")
    }
  }

  @Test func theEdgesOfTheRange() {
    for text in [
      "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2024-02-29T12:00:00Z",
      "2023-02-29T12:00:00Z", "1970-01-01T00:00:00Z", "2026-13-01T00:00:00Z",
      "2026-00-10T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-01T24:00:00Z",
      "2026-01-01T23:60:00Z", "2026-01-01T23:59:60Z", "2026-01-01 00:00:00Z", "",
    ] {
      let (fast, before) = Self.both(Array(text.utf8))
      #expect(fast == before, "\(text)")
    }
    #expect(Self.both(Array("1970-01-01T00:00:01Z".utf8)).0 == 1)
  }

  /// A count kept across the runs of a property.
  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func add() { lock.withLock { value += 1 } }
  }
}
