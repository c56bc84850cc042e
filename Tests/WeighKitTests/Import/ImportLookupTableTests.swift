import Testing

@testable import WeighKit

/// The open-addressing tables of an import (`WeightKeySet` for in-file duplicates,
/// `PresenceIndex` for a re-import's look-up) answer what the naive search answers, with
/// many keys colliding and the tables growing.
@Suite struct ImportLookupTableTests {
  /// A deterministic stream of numbers (a linear congruential generator).
  struct Numbers {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33) % bound
    }
  }

  @Test func inFileDuplicatesAreThoseANaiveSearchFinds() {
    var numbers = Numbers(state: 7)
    var result = WeightImportResult(format: .withingsCSV)
    var seen = WeightKeySet()
    var naive: [ImportedWeight] = []
    var naiveDuplicates = 0
    for line in 1...6000 {
      // Few moments, weights and sources: most keys collide, many repeat.
      let weight = ImportedWeight(
        instant: 1_420_070_400 + Int64(numbers.next(40)) * 60,
        kilograms: 70 + Double(numbers.next(6)) / 10,
        source: ["Withings", "Aria", "Garmin Connect"][numbers.next(3)], line: line,
        fileTime: numbers.next(4) == 0 ? nil : 1_420_070_400 + Int64(numbers.next(40)) * 60)
      result.add(weight, seen: &seen)
      if naive.contains(where: { WeightKey($0) == WeightKey(weight) }) {
        naiveDuplicates += 1
      } else {
        naive.append(weight)
      }
    }
    #expect(result.weights == naive)
    #expect(result.duplicatesInFile == naiveDuplicates)
    #expect(naiveDuplicates > 1000)
  }

  @Test func aLookUpFindsTheFirstMatchingEntryInOrder() {
    var numbers = Numbers(state: 11)
    let entries = (1...5000).map { id in
      Entry(
        id: id, instant: Int64(numbers.next(300)), kilograms: 70, origin: .import,
        source: "Withings",
        fileTime: numbers.next(3) == 0 ? nil : Int64(numbers.next(300)))
    }
    let byInstant = PresenceIndex(entries, by: .instant)
    let byFileTime = PresenceIndex(entries, by: .fileTime)
    for moment in Int64(-5)...305 {
      // Any predicate: here, every third position is taken.
      let free = { (position: Int) in position % 3 != 0 }
      #expect(
        byInstant.first(moment, where: free)
          == entries.indices.first { entries[$0].instant == moment && free($0) })
      #expect(
        byFileTime.first(moment, where: free)
          == entries.indices.first { entries[$0].fileTime == moment && free($0) })
    }
    #expect(PresenceIndex([], by: .instant).first(0) { _ in true } == nil)
  }
}
