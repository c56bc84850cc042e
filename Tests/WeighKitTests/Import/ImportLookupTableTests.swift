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

  /// Files in the order of their moments, with runs of equal moments of every length up to
  /// past the eight compared one by one, and files that leave that order once (early, late,
  /// inside a run, by a file time only) or often: the same weights kept and the same
  /// duplicates counted as by a naive search, whether the set was sized or grown.
  @Test func weightsInOrderKeepWhatANaiveSearchKeeps() {
    var numbers = Numbers(state: 23)
    for file in 0..<240 {
      let sized = file % 2 == 0
      var result = WeightImportResult(format: .withingsCSV)
      var seen = sized ? WeightKeySet(expected: numbers.next(3000)) : WeightKeySet()
      var naive: [ImportedWeight] = []
      var naiveDuplicates = 0
      var moment: Int64 = 1_420_070_400
      // Where the file leaves the order of its moments (never for a third of the files).
      let breakAt = file % 3 == 0 ? Int.max : numbers.next(400)
      let unordered = file % 7 == 6
      for line in 1...(200 + numbers.next(400)) {
        // Runs of one moment: mostly short, sometimes up to 12 rows.
        let run = numbers.next(4) == 0 ? numbers.next(13) : numbers.next(2)
        if run == 0 || line == 1 { moment += Int64(1 + numbers.next(3)) * 60 }
        var at = moment
        if line == breakAt || (unordered && numbers.next(5) == 0) {
          at -= Int64(numbers.next(20)) * 60
        }
        let fileTime: Int64? =
          file % 5 == 4 ? at + (numbers.next(9) == 0 ? -Int64(numbers.next(3)) * 60 : 0) : nil
        let weight = ImportedWeight(
          instant: fileTime == nil ? at : at + 3600, kilograms: 70 + Double(numbers.next(3)) / 10,
          source: ["Withings", "Aria"][numbers.next(8) == 0 ? 1 : 0], line: line,
          fileTime: fileTime)
        result.add(weight, seen: &seen)
        if naive.contains(where: { WeightKey($0) == WeightKey(weight) }) {
          naiveDuplicates += 1
        } else {
          naive.append(weight)
        }
      }
      #expect(result.weights == naive, "file \(file)")
      #expect(result.duplicatesInFile == naiveDuplicates, "file \(file)")
    }
  }

  /// Weigh's own rows may share moment, weight and source: their numbers tell them apart,
  /// in order and out of it.
  @Test func numberedRowsInOrderAreToldApartByTheirNumbers() {
    var result = WeightImportResult(format: .weighJSON)
    var seen = WeightKeySet()
    var ids = Array(1...12) + [3, 12, 13, 1]
    ids += [14, 2]
    for (line, id) in ids.enumerated() {
      let entry = Entry(
        id: id, instant: 1_420_070_400, kilograms: 70, origin: .manual, source: "weigh")
      result.add(
        ImportedWeight(
          instant: 1_420_070_400, kilograms: 70, source: "weigh", line: line + 1, entry: entry),
        seen: &seen)
    }
    #expect(result.weights.map { $0.number } == Array(1...14))
    #expect(result.duplicatesInFile == 4)
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
