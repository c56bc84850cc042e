/// Tells the app that samples of a type changed, without data (HKObserverQuery).
public final class ObserverQuery: HealthQuery {
  /// HealthKit's update-handler shape. Call the completion handler before returning once
  /// the work is done; a handler that returns without calling it counts as a failed
  /// delivery and Health retries with backoff.
  public typealias UpdateHandler = (
    ObserverQuery, _ completionHandler: @escaping @Sendable () -> Void, HealthError?
  ) -> Void

  /// Called at each delivery.
  public let updateHandler: UpdateHandler
  /// Whether a change this query's predicate matches waits for the next delivery.
  var hasMatchingChange = false

  /// An observer query for a type.
  public init(
    sampleType: SampleType, predicate: SamplePredicate? = nil,
    updateHandler: @escaping UpdateHandler
  ) {
    self.updateHandler = updateHandler
    super.init(sampleType: sampleType, predicate: predicate)
  }

  /// Registers the query. While Health data is unavailable the query does not run: its
  /// update handler is called once with errorHealthDataUnavailable (code 1), as on a
  /// device, and the query calls it no more. `execute` itself does not throw for it.
  override func start(on store: HealthStore) throws(HealthError) {
    guard store.isHealthDataAvailable() else {
      isStopped = true
      updateHandler(self, {}, HealthError.unavailable)
      return
    }
    store.register(observer: self)
  }
}
