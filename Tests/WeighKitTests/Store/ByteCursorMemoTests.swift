import Testing

@testable import WeighKit

/// The texts kept from row to row (`ByteCursorDoubleMemo` for `kg`, `ByteCursorDayMemo` for
/// `at`'s date) must be the ones written without them: a kept text is copied only for the
/// value or the day it was written for, whatever came between.
@Suite struct ByteCursorMemoTests {
  /// A pool of values drawn as the encoder meets them, read from again and again so that
  /// values come back, share sets and push each other out.
  @Test func aNumberWrittenAgainIsTheTextOfItsOwnValue() {
    var numbers = ByteCursorTests.Numbers(state: 20_261_127)
    var pool: [Double] = (0..<6000).map { _ in numbers.double() }
    // Values one ulp apart and of both signs: their bits differ in one place.
    pool += [68.5, 68.5.nextUp, 68.5.nextDown, -68.5, 0.001, -0.0, 0, .nan, .infinity]
    var memo = ByteCursorDoubleMemo()
    var writer = JSONWriter()
    var mismatches: [Double] = []
    for round in 0..<400_000 {
      // A small part of the pool for a while (a scale's readings), then all of it.
      let span = round % 50_000 < 25_000 ? 300 : pool.count
      let value = pool[Int(numbers.below(UInt64(span)))]  // checked: below the pool's count
      writer.truncate(to: 0)
      var finite = false
      writer.append(atMost: ByteCursor.doubleRoom) { finite = memo.double(value, into: &$0) }
      let text = String(decoding: writer.bytes, as: UTF8.self)
      if text != ByteCursorTests.Reference.double(value) || finite != value.isFinite {
        mismatches.append(value)
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  /// A value's text after other texts in one buffer: the 24 bytes a kept text is stored as
  /// are overwritten by what follows, never left as text.
  @Test func aKeptTextStoredAfterOthersLeavesNoBytesBehind() {
    var memo = ByteCursorDoubleMemo()
    var writer = JSONWriter()
    var expected = ""
    let values = [60.010270551000005, 1.5, 60.010270551000005, 2.25, 1.5, 0.1, 60.010270551000005]
    for value in values {
      writer.append(atMost: ByteCursor.doubleRoom + 1) { cursor in
        _ = memo.double(value, into: &cursor)
        cursor.byte(0x2C)
      }
      expected += ByteCursorTests.Reference.double(value) + ","
    }
    #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
  }

  /// Entries one after another as an import writes them: instants that walk forward and
  /// back by small steps (the same day, the next, across midnight, before 1970, at the ends
  /// of the four-digit years), a few weights again and again, through one writer.
  @Test func entriesDayAfterDayAreWrittenAsAlone() {
    var numbers = ByteCursorTests.Numbers(state: 7)
    let starts: [Int64] = [
      0, -1, -86_400, 1_420_070_400, UTCInstantText.range.lowerBound,
      UTCInstantText.range.upperBound - 3 * 86_400, 1_795_777_696,
    ]
    let weights = [60.010270551000005, 60.373144447, 68.5, 70.1, 123.456, 0.5]
    var writer = JSONWriter()
    var instant = starts[0]
    var failures = 0
    for index in 0..<200_000 {
      if index % 5_000 == 0 {
        instant = starts[Int(numbers.below(UInt64(starts.count)))]  // checked: an index
      }
      switch numbers.below(10) {
      case 0: instant -= Int64(numbers.below(90_000))  // checked: below 2^17
      case 1: instant += Int64(numbers.below(400_000))  // checked: below 2^19
      default: instant += Int64(numbers.below(3_600))  // checked: below 2^12
      }
      let entry = Entry(
        id: index + 1, instant: instant,
        kilograms: weights[Int(numbers.below(UInt64(weights.count)))],  // checked: an index
        origin: .import, source: "Fitbit Aria", note: nil, revision: 1, healthUUID: nil,
        pushedUUID: nil, pushedRevision: nil,
        // checked: below 2^13
        fileTime: numbers.below(4) == 0 ? nil : instant + Int64(numbers.below(7_200)) - 3_600)
      writer.truncate(to: 0)
      EntryCodec.encode(entry, into: &writer)
      if String(decoding: writer.bytes, as: UTF8.self) != ByteCursorTests.Reference.entry(entry) {
        failures += 1
        Issue.record("\(entry)")
        if failures > 3 { return }
      }
    }
  }

  /// A set sized for a file's rows keeps what a set grown row by row keeps.
  @Test func aKeySetMadeWithRoomKeepsWhatAGrownOneKeeps() {
    var numbers = ByteCursorTests.Numbers(state: 11)
    for expected in [0, 1, 100, 5_000, 100_000] {
      var grown = WeightKeySet()
      var sized = WeightKeySet(expected: expected)
      var weights = ImportedWeights()
      for line in 1...3_000 {
        let weight = ImportedWeight(
          instant: 1_420_070_400 + Int64(numbers.below(500)) * 60,  // checked: below 2^9
          kilograms: Double(numbers.below(5)) + 60, source: "Fitbit Aria", line: line)
        let kept = grown.insert(weight, position: weights.count, among: weights)
        #expect(sized.insert(weight, position: weights.count, among: weights) == kept)
        if kept { weights.append(weight) }
      }
    }
  }
}
