/// One day of the trend line.
public struct TrendPoint: Equatable, Sendable {
  /// The calendar day.
  public var day: CivilDate
  /// The day's weight in kilograms: its daily value, or a linear fill between the nearest days
  /// with readings.
  public var kilograms: Double
  /// True when the day had no reading and `kilograms` is a linear fill.
  public var isInterpolated: Bool
  /// The smoothed trend weight in kilograms on this day.
  public var trend: Double

  /// A trend day.
  public init(day: CivilDate, kilograms: Double, isInterpolated: Bool, trend: Double) {
    self.day = day
    self.kilograms = kilograms
    self.isInterpolated = isInterpolated
    self.trend = trend
  }
}
