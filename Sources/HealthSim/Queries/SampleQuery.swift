/// A sort key for sample queries (NSSortDescriptor on HKSampleSortIdentifier…).
public struct SampleSortDescriptor: Hashable, Sendable {
  /// The date sorted on.
  public enum Key: String, Hashable, Sendable {
    case startDate
    case endDate
  }

  /// The key.
  public let key: Key
  /// Ascending or descending.
  public let ascending: Bool

  /// A sort descriptor.
  public init(_ key: Key, ascending: Bool = true) {
    self.key = key
    self.ascending = ascending
  }
}

/// A one-shot snapshot of matching samples (HKSampleQuery): sorted, then cut at the limit.
public final class SampleQuery: HealthQuery {
  /// HealthKit's results-handler shape.
  public typealias ResultsHandler = (SampleQuery, [HealthSample]?, HealthError?) -> Void

  /// The most samples to return; 0 means all.
  public let limit: Int
  /// Sort keys in priority order; none keeps insertion (change-position) order (Q2 knob).
  public let sortDescriptors: [SampleSortDescriptor]
  /// Called once.
  public let resultsHandler: ResultsHandler

  /// A sample query.
  public init(
    sampleType: SampleType, predicate: SamplePredicate? = nil, limit: Int = 0,
    sortDescriptors: [SampleSortDescriptor] = [], resultsHandler: @escaping ResultsHandler
  ) {
    self.limit = limit
    self.sortDescriptors = sortDescriptors
    self.resultsHandler = resultsHandler
    super.init(sampleType: sampleType, predicate: predicate)
  }

  override func start(on store: HealthStore) throws(HealthError) {
    do {
      let samples = try store.samples(
        of: sampleType, predicate: predicate, limit: limit, sortedBy: sortDescriptors)
      resultsHandler(self, samples, nil)
    } catch {
      resultsHandler(self, nil, error)
    }
  }
}
