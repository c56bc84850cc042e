import Foundation

/// Statistics over one interval (HKStatistics); unrequested or empty values are nil.
public struct HealthStatistics: Hashable, Sendable {
  /// Values computed over one group of samples.
  public struct Values: Hashable, Sendable {
    /// Mean of discrete values.
    public var average: Double?
    /// Smallest discrete value.
    public var minimum: Double?
    /// Largest discrete value.
    public var maximum: Double?
    /// The value of the sample with the latest end date.
    public var mostRecent: Double?
    /// The start and end of that sample.
    public var mostRecentDateInterval: DateInterval?
    /// Sum of cumulative values.
    public var sum: Double?
    /// Seconds covered by cumulative samples.
    public var duration: Double?
  }

  /// The sample type.
  public let type: SampleType
  /// The interval's start.
  public let startDate: Date
  /// The interval's end.
  public let endDate: Date
  /// Values merged over all sources (by source priority for cumulative types).
  public let merged: Values
  /// Per-source values, only with `separateBySource` (T3).
  public let bySource: [HealthSource: Values]?

  /// The merged average as a quantity.
  public func averageQuantity() -> HealthQuantity? { quantity(merged.average) }
  /// The merged minimum as a quantity.
  public func minimumQuantity() -> HealthQuantity? { quantity(merged.minimum) }
  /// The merged maximum as a quantity.
  public func maximumQuantity() -> HealthQuantity? { quantity(merged.maximum) }
  /// The most recent value as a quantity.
  public func mostRecentQuantity() -> HealthQuantity? { quantity(merged.mostRecent) }
  /// The date interval of the most recent sample (T6).
  public func mostRecentQuantityDateInterval() -> DateInterval? { merged.mostRecentDateInterval }
  /// The merged sum as a quantity.
  public func sumQuantity() -> HealthQuantity? { quantity(merged.sum) }
  /// The sources with samples; nil without `separateBySource`.
  public var sources: [HealthSource]? { bySource.map { $0.keys.sorted() } }
  /// One source's average; nil without `separateBySource`.
  public func averageQuantity(for source: HealthSource) -> HealthQuantity? {
    quantity(bySource?[source]?.average)
  }
  /// One source's sum; nil without `separateBySource`.
  public func sumQuantity(for source: HealthSource) -> HealthQuantity? {
    quantity(bySource?[source]?.sum)
  }

  private func quantity(_ value: Double?) -> HealthQuantity? {
    value.map { HealthQuantity($0, type.canonicalUnit) }
  }
}
