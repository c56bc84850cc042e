/// A query the app executes once on a store (HKQuery); `stop` silences it for good.
public class HealthQuery {
  /// The type the query reads.
  public let sampleType: SampleType
  /// The filter, if any.
  public let predicate: SamplePredicate?
  /// Whether the query was executed (each query runs only once, A22).
  public internal(set) var isExecuted = false
  /// Whether the query was stopped; a stopped query calls no handler again.
  public internal(set) var isStopped = false

  init(sampleType: SampleType, predicate: SamplePredicate?) {
    self.sampleType = sampleType
    self.predicate = predicate
  }

  /// Runs the query's first results on `store`; subclasses override.
  func start(on store: HealthStore) throws(HealthError) {}
}
