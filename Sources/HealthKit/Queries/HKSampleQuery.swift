import HealthSim

/// Reads samples of a type once (HKSampleQuery).
public final class HKSampleQuery: HKQuery, @unchecked Sendable {
  /// The most samples to return; HKObjectQueryNoLimit for all.
  public let limit: Int
  /// The order, by start or end date.
  public let sortDescriptors: [NSSortDescriptor]?
  private let resultsHandler: @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void

  /// A sample query.
  public init(
    sampleType: HKSampleType, predicate: NSPredicate?, limit: Int,
    sortDescriptors: [NSSortDescriptor]?,
    resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
  ) {
    self.limit = limit
    self.sortDescriptors = sortDescriptors
    self.resultsHandler = resultsHandler
    super.init(objectType: sampleType, predicate: predicate)
  }

  override func makeEngineQuery(type: SampleType, predicate: SamplePredicate?) -> HealthQuery? {
    SampleQuery(
      sampleType: type, predicate: predicate, limit: max(limit, 0),
      sortDescriptors: (sortDescriptors ?? []).map(\.simulated)
    ) { [self] _, samples, error in
      resultsHandler(self, samples?.map(HKSample.from), error.map(HKError.init))
    }
  }

  override func fail(_ error: HKError) { resultsHandler(self, nil, error) }
}

/// Opaque position in Health's history of changes (HKQueryAnchor). Archive it with
/// NSKeyedArchiver (secure coding) to keep it across launches.
public final class HKQueryAnchor: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
  let value: Int64

  /// An anchor from a number an earlier anchor was built from.
  public init(fromValue value: Int) {
    self.value = Int64(truncatingIfNeeded: value)
  }

  init(_ anchor: QueryAnchor) {
    value = anchor.rawValue
  }

  var simulated: QueryAnchor { QueryAnchor(fromValue: value) }

  public static var supportsSecureCoding: Bool { true }

  public func encode(with coder: NSCoder) {
    coder.encode(value, forKey: "HKQueryAnchorValue")
  }

  public init?(coder: NSCoder) {
    guard coder.containsValue(forKey: "HKQueryAnchorValue") else { return nil }
    value = coder.decodeInt64(forKey: "HKQueryAnchorValue")
  }

  public func copy(with zone: NSZone? = nil) -> Any { self }

  override public func isEqual(_ object: Any?) -> Bool {
    (object as? HKQueryAnchor)?.value == value
  }

  override public var hash: Int { value.hashValue }
  override public var description: String { "HKQueryAnchor(\(value))" }
}

/// Reads what changed since an anchor: samples added and objects deleted
/// (HKAnchoredObjectQuery). With an update handler it keeps running and reports each
/// later change.
public final class HKAnchoredObjectQuery: HKQuery, @unchecked Sendable {
  /// The results handler: samples added, objects deleted and the new anchor, or an error.
  public typealias Handler =
    @Sendable (
      HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?
    ) -> Void

  private let anchor: HKQueryAnchor?
  private let limit: Int
  private let resultsHandler: Handler
  /// Called with each later change while the query runs; set it before `execute`.
  public var updateHandler: Handler?

  /// An anchored query.
  public init(
    type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int,
    resultsHandler handler: @escaping Handler
  ) {
    self.anchor = anchor
    self.limit = limit
    resultsHandler = handler
    super.init(objectType: type, predicate: predicate)
  }

  /// An anchored query over several types (iOS 15). Its first results hold every type's
  /// changes in one call; later changes arrive one type at a time.
  public init(
    queryDescriptors: [HKQueryDescriptor], anchor: HKQueryAnchor?, limit: Int,
    resultsHandler handler: @escaping Handler
  ) {
    self.anchor = anchor
    self.limit = limit
    resultsHandler = handler
    super.init(objectType: nil, predicate: nil)
    self.queryDescriptors = queryDescriptors
  }

  /// First results of each type, merged into one call in `didStart`.
  private var firstResults:
    [(samples: [HealthSample], deleted: [DeletedObject], anchor: QueryAnchor)] = []
  private var firstError: HealthError?

  override func makeEngineQuery(type: SampleType, predicate: SamplePredicate?) -> HealthQuery? {
    let merging = queryDescriptors != nil
    let query = AnchoredQuery(
      type: type, predicate: predicate, anchor: anchor?.simulated, limit: max(limit, 0)
    ) { [self] _, samples, deleted, anchor, error in
      guard merging else {
        report(resultsHandler, samples, deleted, anchor, error)
        return
      }
      if let error {
        firstError = firstError ?? error
      } else {
        firstResults.append((samples ?? [], deleted ?? [], anchor ?? .noAnchor))
      }
    }
    if let updateHandler {
      query.updateHandler = { [self] _, samples, deleted, anchor, error in
        report(updateHandler, samples, deleted, anchor, error)
      }
    }
    return query
  }

  private func report(
    _ handler: Handler, _ samples: [HealthSample]?, _ deleted: [DeletedObject]?,
    _ anchor: QueryAnchor?, _ error: HealthError?
  ) {
    handler(
      self, samples?.map(HKSample.from), deleted?.map(HKDeletedObject.init),
      anchor.map(HKQueryAnchor.init), error.map(HKError.init))
  }

  override func fail(_ error: HKError) { resultsHandler(self, nil, nil, nil, error) }

  override func didStart() {
    guard queryDescriptors != nil else { return }
    defer { firstResults = [] }
    if let firstError {
      report(resultsHandler, nil, nil, nil, firstError)
      return
    }
    if limit > 0, let merged = mergedPage() {
      report(resultsHandler, merged.samples, merged.deletedObjects, merged.newAnchor, nil)
      return
    }
    let newAnchor = firstResults.map(\.anchor).max() ?? anchor?.simulated ?? .noAnchor
    report(
      resultsHandler, firstResults.flatMap(\.samples), firstResults.flatMap(\.deleted),
      newAnchor, nil)
  }

  /// With a limit, one page across every type: the changes of all types in position order,
  /// cut at the limit, so that feeding the new anchor back misses nothing.
  private func mergedPage() -> AnchoredQueryResult? {
    guard let device = executedOn, let descriptors = queryDescriptors else { return nil }
    var changes: [AnchoredChange] = []
    do {
      try device.call { engine throws(HealthError) in
        for descriptor in descriptors {
          guard let type = descriptor.sampleType.simulated else { continue }
          changes += try engine.anchoredResult(
            type: type, predicate: PredicateBridge.simulated(descriptor.predicate),
            anchor: anchor?.simulated, limit: limit
          ).changes
        }
      }
    } catch {
      return nil
    }
    let page = changes.sorted { $0.anchor < $1.anchor }.prefix(limit)
    return AnchoredQueryResult(
      changes: Array(page), newAnchor: page.last?.anchor ?? anchor?.simulated ?? .noAnchor)
  }

  override var isLongRunning: Bool { updateHandler != nil }
}

/// The completion an observer's handler calls when its work is done.
public typealias HKObserverQueryCompletionHandler = @Sendable () -> Void

/// Tells the app that samples of a type changed, without the data (HKObserverQuery).
/// The handler may call its completion later, from a Task: the device waits for it.
public final class HKObserverQuery: HKQuery, @unchecked Sendable {
  /// The update handler: the query, the completion to call when the app's work is done, and
  /// an error.
  public typealias Handler =
    @Sendable (
      HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?
    ) -> Void

  /// The update handler of an observer of several types: it also receives the types that
  /// changed.
  public typealias TypesHandler =
    @Sendable (
      HKObserverQuery, Set<HKSampleType>?, @escaping HKObserverQueryCompletionHandler,
      (any Error)?
    ) -> Void

  private let updateHandler: Handler
  private let typesHandler: TypesHandler?

  /// An observer of several types (iOS 15). Each delivery names the type that changed (one
  /// type per call: the simulator delivers each type on its own).
  public init(
    queryDescriptors: [HKQueryDescriptor], updateHandler: @escaping TypesHandler
  ) {
    typesHandler = updateHandler
    self.updateHandler = { query, completion, error in updateHandler(query, nil, completion, error)
    }
    super.init(objectType: nil, predicate: nil)
    self.queryDescriptors = queryDescriptors
  }

  /// An observer query; with a predicate it hears only of changes the predicate matches.
  public init(
    sampleType: HKSampleType, predicate: NSPredicate?,
    updateHandler: @escaping Handler
  ) {
    self.updateHandler = updateHandler
    typesHandler = nil
    super.init(objectType: sampleType, predicate: predicate)
  }

  override func makeEngineQuery(type: SampleType, predicate: SamplePredicate?) -> HealthQuery? {
    ObserverQuery(sampleType: type, predicate: predicate) { [self] _, completion, error in
      if let typesHandler {
        let changed: Set<HKSampleType>? = error == nil ? [HKObjectType.of(type)] : nil
        typesHandler(self, changed, completion, error.map(HKError.init))
      } else {
        updateHandler(self, completion, error.map(HKError.init))
      }
    }
  }

  override func fail(_ error: HKError) { updateHandler(self, {}, error) }

  override var isLongRunning: Bool { true }
}

/// Reads the sources that wrote samples of a type (HKSourceQuery).
public final class HKSourceQuery: HKQuery, @unchecked Sendable {
  private let completionHandler: @Sendable (HKSourceQuery, Set<HKSource>?, (any Error)?) -> Void

  /// A source query.
  public init(
    sampleType: HKSampleType, samplePredicate objectPredicate: NSPredicate?,
    completionHandler: @escaping @Sendable (HKSourceQuery, Set<HKSource>?, (any Error)?) -> Void
  ) {
    self.completionHandler = completionHandler
    super.init(objectType: sampleType, predicate: objectPredicate)
  }

  override func makeEngineQuery(type: SampleType, predicate: SamplePredicate?) -> HealthQuery? {
    SampleQuery(sampleType: type, predicate: predicate) { [self] _, samples, error in
      let sources = samples.map { Set($0.compactMap(\.source).map(HKSource.init)) }
      completionHandler(self, sources, error.map(HKError.init))
    }
  }

  override func fail(_ error: HKError) { completionHandler(self, nil, error) }
}
