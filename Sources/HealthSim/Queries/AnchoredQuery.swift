/// Reads the samples saved and deleted after an anchor (HKAnchoredObjectQuery).
public final class AnchoredQuery: HealthQuery {
  /// HealthKit's results-handler shape: samples, deleted objects, new anchor, or an error.
  public typealias ResultsHandler = (
    AnchoredQuery, [HealthSample]?, [DeletedObject]?, QueryAnchor?, HealthError?
  ) -> Void

  /// The anchor to read after; `nil` reads everything kept.
  public let anchor: QueryAnchor?
  /// The most samples plus deleted objects to return; 0 means no limit.
  public let limit: Int
  /// Called once with the first results.
  public let resultsHandler: ResultsHandler
  /// Called with each later delta while the query runs; set before `execute`, no limit only.
  public var updateHandler: ResultsHandler?

  var currentAnchor: QueryAnchor?
  var activeUpdateHandler: ResultsHandler?

  /// An anchored query.
  public init(
    type: SampleType, predicate: SamplePredicate? = nil, anchor: QueryAnchor?, limit: Int = 0,
    resultsHandler: @escaping ResultsHandler
  ) {
    self.anchor = anchor
    self.limit = limit
    self.resultsHandler = resultsHandler
    super.init(sampleType: type, predicate: predicate)
  }

  override func start(on store: HealthStore) throws(HealthError) {
    if updateHandler != nil, limit != 0 {
      throw HealthError(
        .errorInvalidArgument, "an update handler needs a query without a limit; pass limit 0")
    }
    activeUpdateHandler = updateHandler
    do {
      let result = try store.anchoredResult(
        type: sampleType, predicate: predicate, anchor: anchor, limit: limit)
      currentAnchor = result.newAnchor
      resultsHandler(self, result.samples, result.deletedObjects, result.newAnchor, nil)
    } catch {
      resultsHandler(self, nil, nil, nil, error)
      isStopped = true
    }
    if activeUpdateHandler != nil, !isStopped { store.register(liveQuery: self) }
  }
}
