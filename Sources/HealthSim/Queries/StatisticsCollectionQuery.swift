import Foundation

/// Statistics in calendar intervals (HKStatisticsCollectionQuery).
public final class StatisticsCollectionQuery: HealthQuery {
  /// HealthKit's handler shape.
  public typealias ResultsHandler = (
    StatisticsCollectionQuery, StatisticsCollection?, HealthError?
  ) -> Void

  /// What to compute.
  public let options: StatisticsOptions
  /// The start of one interval.
  public let anchorDate: Date
  /// The interval length.
  public let intervalComponents: DateComponents
  /// The calendar intervals follow.
  public let calendar: Calendar
  /// Called once with the collection.
  public let initialResultsHandler: ResultsHandler

  /// A statistics collection query.
  public init(
    quantityType: SampleType, quantitySamplePredicate: SamplePredicate? = nil,
    options: StatisticsOptions, anchorDate: Date, intervalComponents: DateComponents,
    calendar: Calendar = Calendar(identifier: .gregorian),
    initialResultsHandler: @escaping ResultsHandler
  ) {
    self.options = options
    self.anchorDate = anchorDate
    self.intervalComponents = intervalComponents
    self.calendar = calendar
    self.initialResultsHandler = initialResultsHandler
    super.init(sampleType: quantityType, predicate: quantitySamplePredicate)
  }

  override func start(on store: HealthStore) throws(HealthError) {
    try options.validate(for: sampleType)
    do {
      let collection = try store.statisticsCollection(
        of: sampleType, predicate: predicate, options: options, anchorDate: anchorDate,
        intervalComponents: intervalComponents, calendar: calendar)
      initialResultsHandler(self, collection, nil)
    } catch {
      initialResultsHandler(self, nil, error)
    }
  }
}
