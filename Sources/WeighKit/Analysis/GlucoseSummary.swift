/// Mean, spread and time in each band of a set of glucose readings (mg/dL).
///
/// Shares are shares of readings (for evenly spaced CGM readings, of time), in percent.
/// The standard deviation is the sample standard deviation (n − 1), as R's `sd` and most CGM
/// tools compute it; with fewer than two readings it and the CV are nil.
public struct GlucoseSummary: Equatable, Sendable {
  /// The number of readings.
  public var count: Int
  /// Mean in mg/dL; nil without readings.
  public var mean: Double?
  /// Sample standard deviation in mg/dL; nil with fewer than two readings.
  public var standardDeviation: Double?
  /// Readings in each band, in `GlucoseBand.allCases` order.
  public var bandCounts: [GlucoseBand: Int]

  /// The summary of `readings` in mg/dL.
  /// - Complexity: O(n).
  public init(milligramsPerDeciliter readings: [Double]) {
    count = readings.count
    var counts: [GlucoseBand: Int] = [:]
    for band in GlucoseBand.allCases { counts[band] = 0 }
    for value in readings { counts[GlucoseBand(milligramsPerDeciliter: value), default: 0] += 1 }
    bandCounts = counts
    guard !readings.isEmpty else {
      mean = nil
      standardDeviation = nil
      return
    }
    let mean = readings.reduce(0, +) / Double(readings.count)
    self.mean = mean
    if readings.count >= 2 {
      let squares = readings.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
      standardDeviation = (squares / Double(readings.count - 1)).squareRoot()
    } else {
      standardDeviation = nil
    }
  }

  /// Coefficient of variation, SD / mean × 100; nil when SD is nil or the mean is 0.
  public var coefficientOfVariation: Double? {
    guard let sd = standardDeviation, let mean, mean != 0 else { return nil }
    return sd / mean * 100
  }

  /// Percent of readings in `band` (0 without readings).
  public func percent(_ band: GlucoseBand) -> Double {
    percent(of: [band])
  }

  /// Percent of readings in any of `bands` (0 without readings).
  public func percent(of bands: [GlucoseBand]) -> Double {
    guard count > 0 else { return 0 }
    let inBands = bands.reduce(0) { $0 + (bandCounts[$1] ?? 0) }
    return Double(inBands) / Double(count) * 100
  }

  /// Percent of readings in 70–180 mg/dL (`glucose.tir`).
  public var timeInRange: Double { percent(.inRange) }
  /// Percent of readings below 70 mg/dL (`glucose.below`).
  public var timeBelowRange: Double { percent(of: [.veryLow, .low]) }
  /// Percent of readings above 180 mg/dL (`glucose.above`).
  public var timeAboveRange: Double { percent(of: [.high, .veryHigh]) }

  /// Whether `target` is met; nil when it cannot be judged (no readings, or no CV).
  public func meets(_ target: GlucoseTarget) -> Bool? {
    guard count > 0 else { return nil }
    switch target {
    case .timeInRange: return timeInRange > 70
    case .belowRange: return timeBelowRange < 4
    case .veryLow: return percent(.veryLow) < 1
    case .aboveRange: return timeAboveRange < 25
    case .veryHigh: return percent(.veryHigh) < 5
    case .variability: return coefficientOfVariation.map { $0 <= 36 }
    }
  }
}
