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

  /// A date-only file (MyFitnessPal, Google Fit) has hundreds of rows on one moment: runs
  /// of one moment up to a block of weights long stay on the in-order path, and with a spill
  /// on every block but the last two is handed on as they go. Repeats inside a run are found,
  /// also those of a weight kept before a block boundary the run crosses; the weights kept
  /// (handed on or not) and the duplicates counted are a naive search's.
  @Test func longRunsOfOneMomentKeepWhatANaiveSearchKeeps() {
    let block = ImportedWeights.blockSize
    // Runs of distinct weights: many of 300, one across a block boundary, one of a whole
    // block less one (the longest that leaves room for the repeat of its first weight).
    let runs =
      Array(repeating: 300, count: 50) + [5000] + Array(repeating: 300, count: 40)
      + [block - 1, 9, 8, 1] + Array(repeating: 300, count: 10)
    for spilled in [true, false] {
      var numbers = Numbers(state: 41)
      var taken: [ImportedWeight] = []
      let spill = ImportedWeightSpill { weights in
        taken += weights
        return true
      }
      var result = ImportedWeightSpill.$current.withValue(spilled ? spill : nil) {
        WeightImportResult(format: .myFitnessPalCSV)
      }
      var seen = WeightKeySet()
      var naive: [ImportedWeight] = []
      var keys: Set<String> = []
      var naiveDuplicates = 0
      var line = 0
      var crossed = 0
      for (day, length) in runs.enumerated() {
        let date = 1_420_070_400 + Int64(day) * 86_400
        let firstKept = result.read.count
        func add(_ index: Int) {
          line += 1
          let weight = ImportedWeight(
            instant: date, kilograms: 40 + Double(index) / 100,
            source: index % 7 == 0 ? "MyFitnessPal" : "Scale", line: line, fileTime: date)
          let key = "\(date) \(index)"
          if keys.insert(key).inserted {
            naive.append(weight)
          } else {
            naiveDuplicates += 1
          }
          result.add(weight, seen: &seen)
        }
        for index in 0..<length {
          add(index)
          // Now and then a repeat of a weight earlier in the run.
          if index > 0, numbers.next(40) == 0 { add(numbers.next(index)) }
        }
        // The run's first weight again, at its end.
        if firstKept / block != result.read.count / block { crossed += 1 }
        add(0)
      }
      if spilled {
        #expect(spill.takeRest(of: &result.read) == .on)
        #expect(taken == naive)
        #expect(taken.count > 3 * block)
      } else {
        #expect(result.weights == naive)
      }
      #expect(result.duplicatesInFile == naiveDuplicates)
      #expect(crossed >= 3, "runs that cross a block boundary")
    }
  }

  /// A run of one moment longer than a block leaves the in-order path: with a spill that has
  /// handed blocks on, it stops (the import reads the file again); before, it turns off and
  /// the reader keeps every weight, with the same duplicates found.
  @Test func aRunLongerThanABlockLeavesTheOrder() {
    let block = ImportedWeights.blockSize
    for early in [true, false] {
      let spill = ImportedWeightSpill { _ in true }
      var result = ImportedWeightSpill.$current.withValue(spill) {
        WeightImportResult(format: .myFitnessPalCSV)
      }
      var seen = WeightKeySet()
      var line = 0
      // Late: two blocks of one weight a day first, so blocks were handed on.
      for day in 0..<(early ? 0 : 2 * block + 5) {
        line += 1
        let date = 1_420_070_400 + Int64(day) * 86_400
        result.add(
          ImportedWeight(instant: date, kilograms: 60, source: "s", line: line, fileTime: date),
          seen: &seen)
      }
      let date: Int64 = 4_000_000_000
      for index in [Int](0...block) + [3, block] {
        line += 1
        result.add(
          ImportedWeight(
            instant: date, kilograms: 40 + Double(index) / 100, source: "s", line: line,
            fileTime: date),
          seen: &seen)
      }
      if early {
        #expect(spill.state == .off)
        #expect(result.read.count == block + 1)
        #expect(result.duplicatesInFile == 2)
      } else {
        #expect(spill.state == .stopped)
      }
    }
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
