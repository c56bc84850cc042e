/// Axis arithmetic shared by the terminal and SVG charts.
public enum ChartScale {
  /// The lowest and highest of `values`, widened by 5% on each side (and to at least
  /// `minimumSpan` in all) so that a flat series still has an axis.
  public static func paddedBounds(
    _ values: [Double], minimumSpan: Double = 1
  ) -> (low: Double, high: Double) {
    guard let low = values.min(), let high = values.max() else { return (0, 1) }
    let middle = (low + high) / 2
    let half = max(high - low, minimumSpan) / 2 * 1.1
    return (middle - half, middle + half)
  }

  /// A "nice" tick step (1, 2 or 5 × 10ⁿ) giving about `count` ticks over `span`.
  public static func niceStep(span: Double, count: Int) -> Double {
    guard span > 0, count > 0 else { return 1 }
    let raw = span / Double(count)
    var magnitude = 1.0
    while magnitude * 10 <= raw { magnitude *= 10 }
    while magnitude > raw { magnitude /= 10 }
    // Accept a step a little under the raw one, so a span gets 4–8 ticks rather than 3.
    for factor in [1.0, 2, 5, 10] where magnitude * factor >= raw * 0.75 {
      return magnitude * factor
    }
    return magnitude * 10
  }

  /// Tick values that are multiples of `step` inside `low...high`.
  public static func ticks(low: Double, high: Double, step: Double) -> [Double] {
    guard step > 0, high >= low else { return [] }
    var value = (low / step).rounded(.up) * step
    var result: [Double] = []
    while value <= high + step * 1e-9 {
      result.append(abs(value) < step * 1e-9 ? 0 : value)
      value += step
    }
    return result
  }

  /// Decimals needed to print ticks `step` apart without repeating a label.
  public static func decimals(forStep step: Double) -> Int {
    var decimals = 0
    var scaled = step
    while decimals < 3, abs(scaled - scaled.rounded()) > 1e-9 {
      scaled *= 10
      decimals += 1
    }
    return decimals
  }
}
