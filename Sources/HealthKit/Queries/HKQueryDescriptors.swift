import HealthSim

/// A type and an optional predicate, for the async query descriptors (HKSamplePredicate).
public struct HKSamplePredicate<Sample: HKSample>: @unchecked Sendable {
  /// The type read.
  public let sampleType: HKSampleType
  /// The filter, if any.
  public let nsPredicate: NSPredicate?

  init(sampleType: HKSampleType, predicate: NSPredicate?) {
    self.sampleType = sampleType
    nsPredicate = predicate
  }
}

extension HKSamplePredicate where Sample == HKSample {
  /// Samples of any type.
  public static func sample(type: HKSampleType, predicate: NSPredicate? = nil)
    -> HKSamplePredicate<HKSample>
  {
    HKSamplePredicate(sampleType: type, predicate: predicate)
  }
}

extension HKSamplePredicate where Sample == HKQuantitySample {
  /// Quantity samples of a type.
  public static func quantitySample(type: HKQuantityType, predicate: NSPredicate? = nil)
    -> HKSamplePredicate<HKQuantitySample>
  {
    HKSamplePredicate(sampleType: type, predicate: predicate)
  }
}

extension HKSamplePredicate where Sample == HKWorkout {
  /// Workouts.
  public static func workout(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKWorkout> {
    HKSamplePredicate(sampleType: HKObjectType.workoutType(), predicate: predicate)
  }
}

/// A query whose result comes back with `await` (HKAsyncQuery).
public protocol HKAsyncQuery {
  associatedtype Output
  /// Runs the query once on a store.
  func result(for healthStore: HKHealthStore) async throws -> Output
}

/// Reads samples with Swift concurrency (HKSampleQueryDescriptor).
public struct HKSampleQueryDescriptor<Sample: HKSample>: HKAsyncQuery, @unchecked Sendable {
  /// The types to read, each with an optional filter.
  public var predicates: [HKSamplePredicate<Sample>]
  /// The order of the samples.
  public var sortDescriptors: [SortDescriptor<Sample>]
  /// The most samples to return; nil for all.
  public var limit: Int?

  /// A descriptor; with several predicates the samples of every type are merged.
  public init(
    predicates: [HKSamplePredicate<Sample>], sortDescriptors: [SortDescriptor<Sample>],
    limit: Int? = nil
  ) {
    self.predicates = predicates
    self.sortDescriptors = sortDescriptors
    self.limit = limit
  }

  /// The samples that match, sorted, up to the limit.
  public func result(for healthStore: HKHealthStore) async throws -> [Sample] {
    var samples: [Sample] = []
    for predicate in predicates {
      let found = try DescriptorRun.once(on: healthStore) {
        (finish: @escaping @Sendable (Result<[HKSample], any Error>) -> Void) in
        HKSampleQuery(
          sampleType: predicate.sampleType, predicate: predicate.nsPredicate,
          limit: HKObjectQueryNoLimit, sortDescriptors: nil
        ) { _, samples, error in
          finish(error.map { .failure($0) } ?? .success(samples ?? []))
        }
      }
      samples += found.compactMap { $0 as? Sample }
    }
    if !sortDescriptors.isEmpty { samples.sort(using: sortDescriptors) }
    if let limit, limit > 0, samples.count > limit { samples = Array(samples.prefix(limit)) }
    return samples
  }
}

/// Reads changes since an anchor with Swift concurrency (HKAnchoredObjectQueryDescriptor).
public struct HKAnchoredObjectQueryDescriptor<Sample: HKSample>: HKAsyncQuery, @unchecked Sendable {
  /// One batch of changes.
  public struct Result: @unchecked Sendable {
    /// Samples added after the anchor.
    public let addedSamples: [Sample]
    /// Objects deleted after the anchor.
    public let deletedObjects: [HKDeletedObject]
    /// The anchor to read after next time.
    public let newAnchor: HKQueryAnchor
  }

  /// The types to read, each with an optional filter.
  public var predicates: [HKSamplePredicate<Sample>]
  /// The anchor to read after; nil for everything kept.
  public var anchor: HKQueryAnchor?
  /// The most samples to return; nil for all.
  public var limit: Int?

  /// A descriptor; pass a nil anchor to read everything kept.
  public init(predicates: [HKSamplePredicate<Sample>], anchor: HKQueryAnchor?, limit: Int? = nil) {
    self.predicates = predicates
    self.anchor = anchor
    self.limit = limit
  }

  /// The changes after the anchor, once. With several predicates the types' changes come
  /// in one page, in the order they happened, cut at the limit.
  public func result(for healthStore: HKHealthStore) async throws -> Result {
    let descriptors = predicates.map {
      HKQueryDescriptor(sampleType: $0.sampleType, predicate: $0.nsPredicate)
    }
    let (samples, deleted, newAnchor) = try DescriptorRun.once(on: healthStore) {
      (
        finish:
          @escaping @Sendable (
            Swift.Result<([HKSample], [HKDeletedObject], HKQueryAnchor?), any Error>
          ) -> Void
      ) in
      HKAnchoredObjectQuery(
        queryDescriptors: descriptors, anchor: anchor, limit: limit ?? HKObjectQueryNoLimit
      ) { _, samples, deleted, anchor, error in
        finish(error.map { .failure($0) } ?? .success((samples ?? [], deleted ?? [], anchor)))
      }
    }
    return Result(
      addedSamples: samples.compactMap { $0 as? Sample }, deletedObjects: deleted,
      newAnchor: newAnchor ?? anchor ?? HKQueryAnchor(fromValue: 0))
  }

  /// The changes after the anchor, then every later change while the sequence is read
  /// (a long-running query, stopped when the reading task ends).
  public func results(for healthStore: HKHealthStore) -> Results {
    Results(descriptor: self, store: healthStore)
  }

  /// The batches of a long-running anchored query.
  public struct Results: AsyncSequence, @unchecked Sendable {
    public typealias Element = Result
    let descriptor: HKAnchoredObjectQueryDescriptor
    let store: HKHealthStore

    public func makeAsyncIterator() -> AsyncThrowingStream<Result, any Error>.Iterator {
      let descriptor = descriptor
      let store = store
      let stream = AsyncThrowingStream<Result, any Error> { continuation in
        var queries: [HKAnchoredObjectQuery] = []
        for predicate in descriptor.predicates {
          let handler: HKAnchoredObjectQuery.Handler = { _, samples, deleted, anchor, error in
            if let error {
              continuation.finish(throwing: error)
              return
            }
            continuation.yield(
              Result(
                addedSamples: (samples ?? []).compactMap { $0 as? Sample },
                deletedObjects: deleted ?? [],
                newAnchor: anchor ?? HKQueryAnchor(fromValue: 0)))
          }
          let query = HKAnchoredObjectQuery(
            type: predicate.sampleType, predicate: predicate.nsPredicate,
            anchor: descriptor.anchor, limit: HKObjectQueryNoLimit, resultsHandler: handler)
          query.updateHandler = handler
          queries.append(query)
        }
        let running = UncheckedQueries(queries: queries)
        continuation.onTermination = { _ in
          for query in running.queries { store.stop(query) }
        }
        for query in queries { store.execute(query) }
      }
      return stream.makeAsyncIterator()
    }
  }
}

/// Statistics over intervals with Swift concurrency (HKStatisticsCollectionQueryDescriptor).
public struct HKStatisticsCollectionQueryDescriptor: HKAsyncQuery, @unchecked Sendable {
  /// The collection, and the statistics that changed (nil in the first result).
  public struct Result: @unchecked Sendable {
    /// The statistics of every interval.
    public let statisticsCollection: HKStatisticsCollection
    /// The statistics that a change updated; nil in the first result.
    public let updatedStatistics: [HKStatistics]?
  }

  /// The quantity type to read, with an optional filter.
  public var predicate: HKSamplePredicate<HKQuantitySample>
  /// What to compute.
  public var options: HKStatisticsOptions
  /// The start of one interval.
  public var anchorDate: Date
  /// The length of one interval.
  public var intervalComponents: DateComponents

  /// A descriptor.
  public init(
    predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions,
    anchorDate: Date, intervalComponents: DateComponents
  ) {
    self.predicate = predicate
    self.options = options
    self.anchorDate = anchorDate
    self.intervalComponents = intervalComponents
  }

  private func makeQuery() -> HKStatisticsCollectionQuery? {
    guard let type = predicate.sampleType as? HKQuantityType else { return nil }
    return HKStatisticsCollectionQuery(
      quantityType: type, quantitySamplePredicate: predicate.nsPredicate, options: options,
      anchorDate: anchorDate, intervalComponents: intervalComponents)
  }

  /// The statistics, once.
  public func result(for healthStore: HKHealthStore) async throws -> HKStatisticsCollection {
    guard let query = makeQuery() else {
      throw HKError(.errorInvalidArgument, message: "statistics need a quantity type")
    }
    return try DescriptorRun.once(on: healthStore) {
      (finish: @escaping @Sendable (Swift.Result<HKStatisticsCollection, any Error>) -> Void) in
      query.initialResultsHandler = { _, collection, error in
        if let collection {
          finish(.success(collection))
        } else {
          finish(.failure(error ?? HKError(.errorNoData)))
        }
      }
      return query
    }
  }

  /// The statistics, then the updated collection after each change while the sequence is
  /// read.
  public func results(for healthStore: HKHealthStore) -> AsyncThrowingStream<Result, any Error> {
    let query = makeQuery()
    return AsyncThrowingStream { continuation in
      guard let query else {
        continuation.finish(
          throwing: HKError(.errorInvalidArgument, message: "statistics need a quantity type"))
        return
      }
      query.initialResultsHandler = { _, collection, error in
        guard let collection else {
          continuation.finish(throwing: error ?? HKError(.errorNoData))
          return
        }
        continuation.yield(Result(statisticsCollection: collection, updatedStatistics: nil))
      }
      query.statisticsUpdateHandler = { _, statistics, collection, error in
        guard let collection else {
          continuation.finish(throwing: error ?? HKError(.errorNoData))
          return
        }
        continuation.yield(
          Result(statisticsCollection: collection, updatedStatistics: statistics.map { [$0] }))
      }
      let running = UncheckedQueries(queries: [query])
      continuation.onTermination = { _ in
        for query in running.queries { healthStore.stop(query) }
      }
      healthStore.execute(query)
    }
  }
}

/// Queries, handed to a termination handler; they are only stopped there.
private struct UncheckedQueries<Query: HKQuery>: @unchecked Sendable {
  let queries: [Query]
}

/// Runs a callback query whose handler the simulator calls before `execute` returns.
enum DescriptorRun {
  static func once<Value>(
    on store: HKHealthStore,
    _ make: (@escaping @Sendable (Swift.Result<Value, any Error>) -> Void) -> HKQuery
  ) throws -> Value {
    let box = ResultBox<Value>()
    let query = make { box.result = $0 }
    store.execute(query)
    guard let result = box.result else {
      throw HKError(.errorInvalidArgument, message: "the query did not report a result")
    }
    return try result.get()
  }

  private final class ResultBox<Value>: @unchecked Sendable {
    var result: Swift.Result<Value, any Error>?
  }
}
