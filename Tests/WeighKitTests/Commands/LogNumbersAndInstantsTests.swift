import Testing

@testable import WeighKit

/// The log's numbers and moments a stream of weigh's own rows asks (`LogNumbersAndInstants`),
/// kept as runs a step apart and keys of 8 bytes (own25), answer as the plain lists did: a
/// number the log has, and a moment an entry may match (never no for a match; yes for no
/// other weight of two decimals).
@Suite struct LogNumbersAndInstantsTests {
  @Test(arguments: 1...12)
  func answersAsTheListsDo(seed: Int) {
    var random = ByteCursorTests.Numbers(state: UInt64(seed))
    var entries: [Entry] = []
    var id = Int(random.below(3))
    for _ in 0..<(500 + Int(random.below(2_000))) {
      id += seed % 3 == 0 ? 2 : 1 + Int(random.below(3))
      // Instants around 1970 and far from it (beyond the keys' 2^39 s), a few shared.
      let instant =
        random.below(20) == 0
        ? Int64(random.below(1 << 41)) - (1 << 40) : Int64(random.below(5_000)) * 60
      // Weights of two decimals, a few of many digits, a few at the ends or beyond.
      let kilograms: Double =
        switch random.below(10) {
        case 0: Double(random.below(1 << 53)) / Double(1 << 53) * 200
        case 1: [0, 1000, 1_500, 0.000_01][Int(random.below(4))]
        default: Double(2_000 + random.below(10_000)) / 100
        }
      entries.append(
        Entry(id: id, instant: instant, kilograms: kilograms, origin: .import, source: "x"))
    }
    // In another order than the numbers', as a log held may be.
    for index in entries.indices.reversed() {
      entries.swapAt(index, Int(random.below(UInt64(index + 1))))
    }
    let log = LogNumbersAndInstants(entries)
    let numbers = Set(entries.map(\.id))
    #expect(log.largestNumber == numbers.max())
    for number in -2...(id + 2) {
      #expect(log.hasNumber(number) == numbers.contains(number), "number \(number)")
    }
    // Each entry's own moment, a weight 1e-10 kg off, and others near it.
    for entry in entries {
      let exact = { (instant: Int64, kilograms: Double) in
        entries.contains { $0.instant == instant && abs($0.kilograms - kilograms) <= 1e-9 }
      }
      #expect(log.mayMatch(entry.instant, kilograms: entry.kilograms))
      #expect(log.mayMatch(entry.instant, kilograms: entry.kilograms + 1e-10))
      for (instant, kilograms) in [
        (entry.instant + 60, entry.kilograms), (entry.instant, entry.kilograms + 0.01),
        (entry.instant, entry.kilograms - 0.01), (entry.instant - 1, entry.kilograms),
      ] where abs(instant) < 1 << 39 && kilograms > 0.01 && kilograms < 1_000 {
        #expect(log.mayMatch(instant, kilograms: kilograms) == exact(instant, kilograms))
      }
    }
  }
}
