/// Statistics over all matching samples (HKStatisticsQuery).
public final class StatisticsQuery: HealthQuery {
  /// HealthKit's handler shape.
  public typealias ResultsHandler = (StatisticsQuery, HealthStatistics?, HealthError?) -> Void

  /// What to compute.
  public let options: StatisticsOptions
  /// Called once.
  public let completionHandler: ResultsHandler

  /// A statistics query.
  public init(
    quantityType: SampleType, quantitySamplePredicate: SamplePredicate? = nil,
    options: StatisticsOptions, completionHandler: @escaping ResultsHandler
  ) {
    self.options = options
    self.completionHandler = completionHandler
    super.init(sampleType: quantityType, predicate: quantitySamplePredicate)
  }

  override func start(on store: HealthStore) throws(HealthError) {
    try options.validate(for: sampleType)
    do {
      let statistics = try store.statistics(
        of: sampleType, predicate: predicate, options: options)
      completionHandler(self, statistics, nil)
    } catch {
      completionHandler(self, nil, error)
    }
  }
}
