/// One weight at one moment: the input of every weight analysis.
public struct WeightReading: Equatable, Sendable {
  /// The moment of the reading, in seconds since 1970-01-01T00:00:00Z.
  public var instant: Int64
  /// The weight in kilograms.
  public var kilograms: Double

  /// A reading of `kilograms` at `instant`.
  public init(instant: Int64, kilograms: Double) {
    self.instant = instant
    self.kilograms = kilograms
  }

  /// The reading an app entry stands for.
  public init(_ entry: Entry) {
    self.init(instant: entry.instant, kilograms: entry.kilograms)
  }
}
