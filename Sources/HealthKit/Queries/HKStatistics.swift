import HealthSim

/// What a statistics query computes (HKStatisticsOptions), with Apple's raw values.
public struct HKStatisticsOptions: OptionSet, Sendable {
  /// The options as bits, with Apple's values.
  public let rawValue: UInt
  /// Options from their bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// Also compute the statistics of each source.
  public static let separateBySource = HKStatisticsOptions(rawValue: 1 << 0)
  /// The average of a discrete type.
  public static let discreteAverage = HKStatisticsOptions(rawValue: 1 << 1)
  /// The minimum of a discrete type.
  public static let discreteMin = HKStatisticsOptions(rawValue: 1 << 2)
  /// The maximum of a discrete type.
  public static let discreteMax = HKStatisticsOptions(rawValue: 1 << 3)
  /// The sum of a cumulative type.
  public static let cumulativeSum = HKStatisticsOptions(rawValue: 1 << 4)
  /// The most recent value of a discrete type.
  public static let mostRecent = HKStatisticsOptions(rawValue: 1 << 5)
  /// The time covered by the samples (no accessor in the simulator).
  public static let duration = HKStatisticsOptions(rawValue: 1 << 6)

  // checked: seven flag bits
  var simulated: StatisticsOptions { StatisticsOptions(rawValue: Int(rawValue)) }
}

/// Statistics over one interval (HKStatistics).
public final class HKStatistics: NSObject, @unchecked Sendable {
  private let statistics: HealthStatistics

  init(_ statistics: HealthStatistics) {
    self.statistics = statistics
  }

  /// The type the values are of.
  public var quantityType: HKQuantityType {
    HKObjectType.of(statistics.type) as? HKQuantityType
      ?? HKQuantityType(HKQuantityTypeIdentifier(statistics.type.identifier))
  }
  /// The interval's start.
  public var startDate: Date { statistics.startDate }
  /// The interval's end.
  public var endDate: Date { statistics.endDate }
  /// The sources, with `separateBySource`.
  public var sources: [HKSource]? { statistics.sources?.map(HKSource.init) }

  /// The average, with `discreteAverage`.
  public func averageQuantity() -> HKQuantity? { Self.quantity(statistics.averageQuantity()) }
  /// The minimum, with `discreteMin`.
  public func minimumQuantity() -> HKQuantity? { Self.quantity(statistics.minimumQuantity()) }
  /// The maximum, with `discreteMax`.
  public func maximumQuantity() -> HKQuantity? { Self.quantity(statistics.maximumQuantity()) }
  /// The most recent value, with `mostRecent`.
  public func mostRecentQuantity() -> HKQuantity? {
    Self.quantity(statistics.mostRecentQuantity())
  }
  /// When the most recent value was measured, with `mostRecent`.
  public func mostRecentQuantityDateInterval() -> DateInterval? {
    statistics.mostRecentQuantityDateInterval()
  }
  /// The sum, with `cumulativeSum`.
  public func sumQuantity() -> HKQuantity? { Self.quantity(statistics.sumQuantity()) }
  /// The average of one source, with `separateBySource`.
  public func averageQuantity(for source: HKSource) -> HKQuantity? {
    Self.quantity(statistics.averageQuantity(for: source.simulated))
  }
  /// The sum of one source, with `separateBySource`.
  public func sumQuantity(for source: HKSource) -> HKQuantity? {
    Self.quantity(statistics.sumQuantity(for: source.simulated))
  }

  static func quantity(_ quantity: HealthQuantity?) -> HKQuantity? {
    quantity.map { HKQuantity(unit: HKUnit(from: $0.unit.unitString), doubleValue: $0.value) }
  }
}

/// Statistics over consecutive intervals (HKStatisticsCollection).
public final class HKStatisticsCollection: NSObject, @unchecked Sendable {
  private let collection: StatisticsCollection

  init(_ collection: StatisticsCollection) {
    self.collection = collection
  }

  /// The statistics of the interval containing `date`, if it has samples.
  public func statistics(for date: Date) -> HKStatistics? {
    collection.statistics(for: date).map(HKStatistics.init)
  }

  /// The statistics of every interval with samples, in time order.
  public func statistics() -> [HKStatistics] { collection.statistics().map(HKStatistics.init) }

  /// The sources of the samples.
  public func sources() -> Set<HKSource> {
    Set(collection.statistics().flatMap { $0.sources ?? [] }.map(HKSource.init))
  }

  /// Calls `block` for every interval from `startDate` to `endDate`, empty ones included;
  /// setting the second argument to true stops.
  public func enumerateStatistics(
    from startDate: Date, to endDate: Date,
    with block: (HKStatistics, UnsafeMutablePointer<ObjCBool>) -> Void
  ) {
    var stop = ObjCBool(false)
    for statistics in collection.enumerateStatistics(from: startDate, to: endDate) {
      block(HKStatistics(statistics), &stop)
      if stop.boolValue { return }
    }
  }
}

/// Computes statistics over the samples that match (HKStatisticsQuery).
public final class HKStatisticsQuery: HKQuery, @unchecked Sendable {
  private let options: HKStatisticsOptions
  private let completionHandler: @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void

  /// A statistics query.
  public init(
    quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?,
    options: HKStatisticsOptions = [],
    completionHandler handler:
      @escaping @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?)
      -> Void
  ) {
    self.options = options
    completionHandler = handler
    super.init(objectType: quantityType, predicate: quantitySamplePredicate)
  }

  override func makeEngineQuery(type: SampleType, predicate: SamplePredicate?) -> HealthQuery? {
    StatisticsQuery(
      quantityType: type, quantitySamplePredicate: predicate, options: options.simulated
    ) { [self] _, statistics, error in
      completionHandler(self, statistics.map(HKStatistics.init), error.map(HKError.init))
    }
  }

  override func fail(_ error: HKError) { completionHandler(self, nil, error) }
}

/// Computes statistics over consecutive intervals, and keeps them up to date with an
/// update handler (HKStatisticsCollectionQuery).
public final class HKStatisticsCollectionQuery: HKQuery, @unchecked Sendable {
  /// The start of one interval.
  public let anchorDate: Date
  /// What to compute.
  public let options: HKStatisticsOptions
  /// The length of one interval.
  public let intervalComponents: DateComponents
  /// Called once with the first results; set it before `execute`.
  public var initialResultsHandler:
    (@Sendable (HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void)?
  /// Called after each change while the query runs; set it before `execute`.
  public var statisticsUpdateHandler:
    (
      @Sendable (
        HKStatisticsCollectionQuery, HKStatistics?, HKStatisticsCollection?, (any Error)?
      ) -> Void
    )?

  /// A statistics collection query.
  public init(
    quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?,
    options: HKStatisticsOptions = [], anchorDate: Date, intervalComponents: DateComponents
  ) {
    self.anchorDate = anchorDate
    self.options = options
    self.intervalComponents = intervalComponents
    super.init(objectType: quantityType, predicate: quantitySamplePredicate)
  }

  override func makeEngineQuery(type: SampleType, predicate: SamplePredicate?) -> HealthQuery? {
    let initial = initialResultsHandler
    let query = StatisticsCollectionQuery(
      quantityType: type, quantitySamplePredicate: predicate, options: options.simulated,
      anchorDate: anchorDate, intervalComponents: intervalComponents,
      calendar: Calendar.current
    ) { [self] _, collection, error in
      initial?(self, collection.map(HKStatisticsCollection.init), error.map(HKError.init))
    }
    if let update = statisticsUpdateHandler {
      query.statisticsUpdateHandler = { [self] _, statistics, collection, error in
        update(
          self, statistics.map(HKStatistics.init), collection.map(HKStatisticsCollection.init),
          error.map(HKError.init))
      }
    }
    return query
  }

  override func fail(_ error: HKError) { initialResultsHandler?(self, nil, error) }

  override var isLongRunning: Bool { statisticsUpdateHandler != nil }
}
