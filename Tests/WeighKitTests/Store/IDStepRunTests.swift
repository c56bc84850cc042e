import Testing

@testable import WeighKit

/// Ids as runs a step apart (`IDStepRun`, `IDRuns`, `StreamedRunIDs`) stand for the same ids
/// as runs of consecutive ids did, in fewer runs: every other number is one run.
@Suite struct IDStepRunTests {
  /// Random increasing ids of one of a few shapes: consecutive with gaps, every other
  /// number, a step of 1 to 3, a few far apart, long runs with one id alone between them.
  static func increasingIDs(seed: Int) -> [Int] {
    var random = ByteCursorTests.Numbers(state: UInt64(seed))
    var ids: [Int] = []
    var id = Int(random.below(5)) - 2
    let shape = seed % 5
    while ids.count < 2_000 + Int(random.below(3_000)) {
      ids.append(id)
      switch shape {
      case 0: id += random.below(7) == 0 ? 2 + Int(random.below(4)) : 1
      case 1: id += random.below(500) == 0 ? 3 : 2
      case 2: id += 1 + Int(random.below(3))
      case 3: id += 1 + Int(random.below(1_000_000))
      default: id += random.below(50) == 0 ? 7 : 1
      }
    }
    return ids
  }

  /// `ids` as runs of consecutive ids, the way runs were kept before.
  static func consecutiveRanges(_ ids: [Int]) -> [ClosedRange<Int>] {
    var ranges: [ClosedRange<Int>] = []
    for id in ids {
      if let last = ranges.last, last.upperBound + 1 == id {
        ranges[ranges.count - 1] = last.lowerBound...id
      } else {
        ranges.append(id...id)
      }
    }
    return ranges
  }

  @Test(arguments: 1...20)
  func streamedIDsStandForTheirIDs(seed: Int) {
    let ids = Self.increasingIDs(seed: seed)
    var streamed = StreamedRunIDs()
    for id in ids { streamed.append(id) }
    #expect(streamed.count == ids.count)
    #expect(streamed.first == ids.first)
    #expect(streamed.last == ids.last)
    #expect(ids.indices.allSatisfy { streamed.id(at: $0) == ids[$0] }, "seed \(seed)")
    #expect(Array(streamed.runs) == ids)
    #expect(streamed.runs.underestimatedCount == ids.count)
    let ranges = Self.consecutiveRanges(ids)
    #expect(streamed.runs.ranges == ranges)
    #expect(streamed.runs.runs.count <= ranges.count, "no more runs than before")
    #expect(IDRuns(ranges) == streamed.runs, "the ranges give the same runs")
    // Each run's ids increase by its step, and the runs are apart.
    for run in streamed.runs.runs {
      #expect(run.allSatisfy { run.contains($0) })
      #expect(run.last == run.upperBound)
    }
    let runs = streamed.runs.runs
    #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
    #expect(TableStorage<EntryCodec>.merged(runs) == runs)
    // Membership, around each id.
    let set = Set(ids)
    for id in ids.prefix(300) + ids.suffix(300) {
      for near in id - 2...id + 2 {
        #expect(runs.contains { $0.contains(near) } == set.contains(near), "\(near)")
      }
    }
  }

  @Test func everyOtherNumberIsOneRun() {
    var streamed = StreamedRunIDs()
    for id in stride(from: 2, through: 2_000_000, by: 2) { streamed.append(id) }
    #expect(streamed.runs.runs == [IDStepRun(2, through: 2_000_000, step: 2)])
    #expect(streamed.count == 1_000_000)
    #expect(streamed.id(at: 499_999) == 1_000_000)
  }

  /// Consecutive ids after one alone stay one run: the one alone is not made a pair with
  /// their first.
  @Test func consecutiveIDsAfterOneAloneStayOneRun() {
    let runs = IDRuns([1...1, 5...7, 9...9, 11...11, 12...40])
    #expect(
      runs.runs == [
        IDStepRun(1), IDStepRun(5...7), IDStepRun(9), IDStepRun(11...40),
      ])
    var streamed = StreamedRunIDs()
    for id in [1, 5, 6, 7, 9, 11, 12, 13] { streamed.append(id) }
    #expect((0..<8).map(streamed.id(at:)) == [1, 5, 6, 7, 9, 11, 12, 13])
  }

  /// Runs that overlap (the undos of two imports whose numbers interleave) are made apart
  /// with the same ids; runs of consecutive ids that overlap are joined.
  @Test(arguments: 1...10)
  func overlappingRunsAreMadeApart(seed: Int) {
    var random = ByteCursorTests.Numbers(state: UInt64(seed))
    var runs: [IDStepRun] = []
    for _ in 0..<(2 + Int(random.below(6))) {
      let first = Int(random.below(200))
      let step = 1 + Int(random.below(3))
      runs.append(IDStepRun(first, through: first + step * Int(random.below(60)), step: step))
    }
    let merged = TableStorage<EntryCodec>.merged(runs)
    #expect(zip(merged, merged.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
    #expect(Array(merged.joined()) == Set(runs.joined()).sorted(), "seed \(seed)")
    let odd = IDStepRun(1, through: 99, step: 2)
    let even = IDStepRun(2, through: 100, step: 2)
    #expect(TableStorage<EntryCodec>.merged([even, odd]) == [IDStepRun(1...100)])
    #expect(
      TableStorage<EntryCodec>.merged([IDStepRun(5...9), IDStepRun(1...6)]) == [IDStepRun(1...9)])
  }
}
