extension Int {
  /// `value` rounded to the nearest whole number and clamped to `range`; NaN gives the
  /// lower bound. For positions on a chart and other values whose range is known.
  public init(rounding value: Double, clampedTo range: ClosedRange<Int>) {
    let rounded = value.rounded()
    if !(rounded > Double(range.lowerBound)) {
      self = range.lowerBound
    } else if rounded >= Double(range.upperBound) {
      self = range.upperBound
    } else {
      self = Int(rounded)
    }
  }
}
