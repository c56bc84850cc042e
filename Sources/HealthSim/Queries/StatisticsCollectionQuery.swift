import Foundation

/// Statistics in calendar intervals (HKStatisticsCollectionQuery).
public final class StatisticsCollectionQuery: HealthQuery {
  /// HealthKit's handler shape.
  public typealias ResultsHandler = (
    StatisticsCollectionQuery, StatisticsCollection?, HealthError?
  ) -> Void

  /// HealthKit's update-handler shape: the changed interval's statistics (nil when that
  /// interval is now empty), the whole updated collection, or an error.
  public typealias UpdateHandler = (
    StatisticsCollectionQuery, HealthStatistics?, StatisticsCollection?, HealthError?
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
  /// Called with the updated collection after each matching save or delete until `stop`;
  /// set before `execute` (T9). Nil keeps the query one-shot.
  public var statisticsUpdateHandler: UpdateHandler?

  var activeUpdateHandler: UpdateHandler?
  /// The start date of the latest matching changed sample not yet delivered, if any.
  var pendingChangeDate: Date?

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
    activeUpdateHandler = statisticsUpdateHandler
    do {
      let collection = try compute(on: store)
      initialResultsHandler(self, collection, nil)
    } catch {
      initialResultsHandler(self, nil, error)
      // Like an anchored query, a query whose first read failed does not go live.
      if activeUpdateHandler != nil { isStopped = true }
    }
    if activeUpdateHandler != nil, !isStopped { store.register(collectionQuery: self) }
  }

  func compute(on store: HealthStore) throws(HealthError) -> StatisticsCollection {
    try store.statisticsCollection(
      of: sampleType, predicate: predicate, options: options, anchorDate: anchorDate,
      intervalComponents: intervalComponents, calendar: calendar)
  }
}
