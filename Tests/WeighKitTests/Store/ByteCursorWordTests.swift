import Testing

@testable import WeighKit

/// `ByteCursor`'s faster paths (wstore10) against the text they replace: integers counted by
/// comparisons and written two digits at a time, strings copied eight bytes at a time until
/// one needs an escape, and a `fileTime` whose date is copied from `at`'s when both fall on
/// one day.
@Suite struct ByteCursorWordTests {
  private static func written(_ write: (inout JSONWriter) -> Void) -> String {
    var writer = JSONWriter()
    write(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  @Test func everyCountOfDigitsIsWrittenAsDescriptionSpellsIt() {
    var numbers = ByteCursorTests.Numbers(state: 2026)
    var values: [Int] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, Int.max, Int.min]
    var power = 1
    for _ in 0..<18 {
      power *= 10
      values += [power - 1, power, power + 1, -power, -(power - 1)]
    }
    for _ in 0..<300_000 {
      values.append(Int(truncatingIfNeeded: numbers.next()) >> Int(numbers.below(64)))
    }
    for value in values {
      let text = Self.written { writer in
        writer.append(atMost: ByteCursor.integerRoom) { $0.integer(value) }
      }
      #expect(text == String(value))
      if text != String(value) { return }
    }
  }

  @Test func aStringIsWrittenAsItAlwaysWasWhereverItsEscapesLie() {
    var numbers = ByteCursorTests.Numbers(state: 11)
    let special: [String] = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{7F}", "é", "🙂", " ", "~"]
    var texts: [String] = []
    for length in 0..<40 {
      let plain = String(repeating: "MyFitness", count: 5).prefix(length)
      texts.append(String(plain))
      for place in 0...length {
        for mark in special {
          texts.append(String(plain.prefix(place)) + mark + String(plain.dropFirst(place)))
        }
      }
    }
    for _ in 0..<50_000 {
      var text = ""
      for _ in 0..<numbers.below(6) { text += numbers.text() }
      texts.append(text)
    }
    for text in texts {
      let expected = ByteCursorTests.Reference.string(text)
      let written = Self.written { writer in
        writer.append(atMost: ByteCursor.stringRoom(text.utf8.count)) { $0.string(text) }
      }
      #expect(written == expected)
      if written != expected { return }
    }
  }

  @Test func aWallClockOnTheDayOfAnInstantIsWrittenAsOnItsOwn() {
    var numbers = ByteCursorTests.Numbers(state: 5)
    let range = UTCInstantText.range
    var pairs: [(Int64, Int64)] = []
    for day: Int64 in [-719_528, -1, 0, 1, 20_454, 2_932_896] {  // years 0000 and 9999 too
      for second: Int64 in [0, 1, 43_200, 86_399] {
        let instant = day * 86_400 + second
        for offset: Int64 in [0, 1, -1, 3600, -3600, 50_400, -43_200, 86_400, -86_400] {
          pairs.append((instant, instant + offset))
        }
      }
    }
    for _ in 0..<200_000 {
      let instant =
        range.lowerBound + Int64(numbers.below(UInt64(range.upperBound - range.lowerBound)))
      let offset = Int64(numbers.below(200_000)) - 100_000  // checked: below 200,000
      pairs.append((instant, instant + offset))
    }
    for (instant, fileTime) in pairs where range.contains(instant) && range.contains(fileTime) {
      let alone = Self.written { writer in
        writer.append(atMost: 2 * ByteCursor.instantRoom) { cursor in
          cursor.instant(instant)
          cursor.wallClock(fileTime)
        }
      }
      let copied = Self.written { writer in
        writer.append(atMost: 2 * ByteCursor.instantRoom) { cursor in
          let date = cursor.instantKeepingDate(instant)
          cursor.wallClock(fileTime, sameDayAs: instant, dateAt: date)
        }
      }
      #expect(copied == alone, "\(instant) \(fileTime)")
      if copied != alone { return }
    }
  }
}
