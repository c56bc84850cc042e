import Foundation
import HealthKit

/// The app's HealthKit layer, written with completion handlers: authorization, an observer
/// with background delivery, an anchored import into the app's log, and the export of the
/// user's own entries with sync identifiers.
///
/// Completions run on any thread; the import's work runs on a private serial queue.
public final class WeightHealthSync: @unchecked Sendable {
  /// Samples and deleted objects read per anchored query.
  public static let pageSize = 500

  let healthStore: HKHealthStore
  let log: WeightLog
  let anchors: AnchorStore
  let backend: (any WeightBackend)?
  let bodyMass = HKQuantityType(.bodyMass)
  let work = DispatchQueue(label: "com.example.weightsync.import")

  private let lock = NSLock()
  private var observerQuery: HKObserverQuery?

  /// The layer over a store, the app's log, the file that keeps the anchor, and the
  /// app's server if it has one.
  public init(
    healthStore: HKHealthStore = HKHealthStore(), log: WeightLog, anchors: AnchorStore,
    backend: (any WeightBackend)? = nil
  ) {
    self.healthStore = healthStore
    self.log = log
    self.anchors = anchors
    self.backend = backend
  }

  // MARK: Authorization

  /// Asks to read and write body mass. Success says only that the user answered: whether
  /// reading was allowed is never shown to the app.
  public func requestAuthorization(completion: @escaping @Sendable ((any Error)?) -> Void) {
    guard HKHealthStore.isHealthDataAvailable() else {
      completion(WeightSyncError.healthDataUnavailable)
      return
    }
    healthStore.requestAuthorization(toShare: [bodyMass], read: [bodyMass]) { _, error in
      completion(error)
    }
  }

  /// Whether the user lets the app write weights to Health.
  public var canWriteWeights: Bool {
    healthStore.authorizationStatus(for: bodyMass) == .sharingAuthorized
  }

  // MARK: Launch and observing

  /// Call at every launch: registers the observer again (Health forgets the queries of an
  /// app that quit), enables background delivery, and imports what changed meanwhile.
  public func start(completion: @escaping @Sendable (Result<ImportSummary, any Error>) -> Void) {
    startObserving { [self] error in
      if let error {
        completion(.failure(error))
        return
      }
      importChanges(completion: completion)
    }
  }

  /// Runs an observer query for body mass and asks Health to wake the app for changes.
  /// Each change runs an import; the observer's completion is called only when the import
  /// (and the upload to the app's server) has finished, successfully or not.
  public func startObserving(completion: @escaping @Sendable ((any Error)?) -> Void) {
    stopObserving()
    let query = HKObserverQuery(sampleType: bodyMass, predicate: nil) {
      [weak self] _, completionHandler, error in
      guard let self, error == nil else {
        completionHandler()
        return
      }
      self.importChanges { _ in completionHandler() }
    }
    lock.withLock { observerQuery = query }
    healthStore.execute(query)
    healthStore.enableBackgroundDelivery(for: bodyMass, frequency: .immediate) { _, error in
      completion(error)
    }
  }

  /// Stops the observer query (background delivery stays enabled).
  public func stopObserving() {
    let running = lock.withLock { () -> HKObserverQuery? in
      defer { observerQuery = nil }
      return observerQuery
    }
    if let running { healthStore.stop(running) }
  }

  // MARK: Reading

  /// The newest weights Health shows the app, newest first.
  public func recentWeights(
    limit: Int, completion: @escaping @Sendable (Result<[HKQuantitySample], any Error>) -> Void
  ) {
    let newestFirst = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)
    let query = HKSampleQuery(
      sampleType: bodyMass, predicate: nil, limit: limit, sortDescriptors: [newestFirst]
    ) { _, samples, error in
      if let error {
        completion(.failure(error))
      } else {
        completion(.success((samples ?? []).compactMap { $0 as? HKQuantitySample }))
      }
    }
    healthStore.execute(query)
  }
}
