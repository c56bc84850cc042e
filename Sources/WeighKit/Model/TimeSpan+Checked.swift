extension TimeSpan {
  /// The longest duration weigh accepts (``ValueLimits/durationSeconds``).
  public static let maximum = TimeSpan(seconds: ValueLimits.durationSeconds.upperBound)

  /// `seconds` rounded to the nearest second, or nil when it is not finite, negative or
  /// longer than 1,000 years.
  public init?(checkedSeconds seconds: Double) {
    let rounded = seconds.rounded()
    guard rounded.isFinite,
      rounded >= Double(ValueLimits.durationSeconds.lowerBound),
      rounded <= Double(ValueLimits.durationSeconds.upperBound),
      let whole = Int64(exactly: rounded)
    else { return nil }
    self.init(seconds: whole)
  }

  /// How messages name the longest duration.
  public static let maximumText = "1000 years (365242d)"
}
