/// Increasing ids a step apart: `lowerBound`, `lowerBound + step`, …, `upperBound` (24
/// bytes). The ids of an import whose rows go between the log's (every other number) are one
/// run; as runs of consecutive ids they were one run per id, 16 MB for 1,000,000 (own25).
/// Its ids are its elements, so that a run reads where a `ClosedRange<Int>` did.
public struct IDStepRun: Sendable, Hashable, RandomAccessCollection {
  /// The first id.
  public let lowerBound: Int
  /// The last id.
  public let upperBound: Int
  /// The distance from one id to the next, 1 or more (1 for a run of one id).
  public let step: Int

  /// The one id `id`.
  public init(_ id: Int) {
    (lowerBound, upperBound, step) = (id, id, 1)
  }

  /// The consecutive ids of `range`.
  public init(_ range: ClosedRange<Int>) {
    (lowerBound, upperBound, step) = (range.lowerBound, range.upperBound, 1)
  }

  /// The ids from `lowerBound` to `upperBound`, `step` apart: `upperBound - lowerBound` is a
  /// multiple of `step`, and representable.
  init(_ lowerBound: Int, through upperBound: Int, step: Int) {
    precondition(step > 0 && lowerBound <= upperBound, "a run's step is positive")
    (self.lowerBound, self.upperBound, self.step) = (lowerBound, upperBound, step)
  }

  public var startIndex: Int { 0 }

  /// One past the last position: the number of ids.
  // checked: `upperBound - lowerBound` is representable (every run is made so), and its
  // quotient by a positive step plus one is at most that.
  public var endIndex: Int { (upperBound - lowerBound) / step + 1 }

  /// The id at `position` (0 ..< count).
  // checked: at most `upperBound` for a position below `count`.
  public subscript(position: Int) -> Int { lowerBound + position * step }

  /// Whether `id` is one of the run's.
  ///
  /// - Complexity: O(1).
  public func contains(_ id: Int) -> Bool {
    // checked: `id - lowerBound` lies between 0 and `upperBound - lowerBound` here.
    lowerBound <= id && id <= upperBound && (step == 1 || (id - lowerBound) % step == 0)
  }

  /// The run with `id` after its last, when `id` continues it (the next id a step on, or for
  /// a run of one id any greater id whose distance is representable); nil otherwise.
  func extended(by id: Int) -> IDStepRun? {
    let span = id.subtractingReportingOverflow(lowerBound)
    guard !span.overflow, id > upperBound else { return nil }
    if lowerBound == upperBound {
      return IDStepRun(lowerBound, through: id, step: span.partialValue)
    }
    let gap = id.subtractingReportingOverflow(upperBound)
    guard !gap.overflow, gap.partialValue == step else { return nil }
    return IDStepRun(lowerBound, through: id, step: step)
  }
}
