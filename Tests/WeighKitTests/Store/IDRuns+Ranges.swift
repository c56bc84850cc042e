@testable import WeighKit

extension IDRuns {
  /// The ids as runs of consecutive ids, in their order (a run with a larger step gives one
  /// range per id), which the tests compare with; not for large sets.
  var ranges: [ClosedRange<Int>] {
    var ranges: [ClosedRange<Int>] = []
    for run in runs {
      for range in run.step == 1 ? [run.lowerBound...run.upperBound] : run.map({ $0...$0 }) {
        if let last = ranges.last, last.upperBound < .max, last.upperBound + 1 == range.lowerBound {
          ranges[ranges.count - 1] = last.lowerBound...range.upperBound
        } else {
          ranges.append(range)
        }
      }
    }
    return ranges
  }
}
