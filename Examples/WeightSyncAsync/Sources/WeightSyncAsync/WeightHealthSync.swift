import Foundation
import HealthKit

/// The app's HealthKit layer, written with async/await: authorization, an observer with
/// background delivery whose completion waits for the sync, an anchored import into the
/// journal, and the export of the user's own entries with sync identifiers.
public actor WeightHealthSync {
  /// Samples and deleted objects read per anchored query.
  public static let pageSize = 500

  let healthStore: HKHealthStore
  let journal: WeightJournal
  let anchor: AnchorDefaults
  let backend: (any WeightBackend)?
  let bodyMass = HKQuantityType(.bodyMass)

  private var observerQuery: HKObserverQuery?
  private var lastSync: Task<ImportSummary, any Error>?

  /// The layer over a store, the app's journal, where the anchor is kept, and the app's
  /// server if it has one.
  public init(
    healthStore: HKHealthStore = HKHealthStore(), journal: WeightJournal,
    anchor: AnchorDefaults = AnchorDefaults(), backend: (any WeightBackend)? = nil
  ) {
    self.healthStore = healthStore
    self.journal = journal
    self.anchor = anchor
    self.backend = backend
  }

  // MARK: Authorization

  /// Whether asking for access would show the prompt.
  public func shouldRequestAuthorization() async throws -> Bool {
    let status = try await healthStore.statusForAuthorizationRequest(
      toShare: [bodyMass], read: [bodyMass])
    return status == .shouldRequest
  }

  /// Asks to read and write body mass. Returning says only that the user answered:
  /// whether reading was allowed is never shown to the app.
  public func requestAuthorization() async throws {
    guard HKHealthStore.isHealthDataAvailable() else {
      throw WeightSyncError.healthDataUnavailable
    }
    try await healthStore.requestAuthorization(toShare: [bodyMass], read: [bodyMass])
  }

  /// Whether the user lets the app write weights to Health.
  public var canWriteWeights: Bool {
    healthStore.authorizationStatus(for: bodyMass) == .sharingAuthorized
  }

  // MARK: Launch and observing

  /// Call at every launch: registers the observer again (Health forgets the queries of an
  /// app that quit), enables background delivery, and syncs what changed meanwhile.
  @discardableResult
  public func start() async throws -> ImportSummary {
    startObserving()
    try await healthStore.enableBackgroundDelivery(for: bodyMass, frequency: .immediate)
    return try await sync()
  }

  /// Runs an observer query for body mass. Each change runs a sync; the handler returns at
  /// once and calls its completion from a Task when the sync has finished.
  private func startObserving() {
    if let observerQuery { healthStore.stop(observerQuery) }
    let query = HKObserverQuery(sampleType: bodyMass, predicate: nil) {
      [weak self] _, completionHandler, error in
      guard let self, error == nil else {
        completionHandler()
        return
      }
      Task {
        _ = try? await self.sync()
        completionHandler()
      }
    }
    observerQuery = query
    healthStore.execute(query)
  }

  /// Stops the observer query and background delivery.
  public func stop() async throws {
    if let observerQuery { healthStore.stop(observerQuery) }
    observerQuery = nil
    try await healthStore.disableBackgroundDelivery(for: bodyMass)
  }

  // MARK: Sync

  /// Imports what changed in Health since the saved anchor and uploads what the app's
  /// server lacks. Syncs run one after another: a change noticed during a sync gets a
  /// sync of its own after it.
  @discardableResult
  public func sync() async throws -> ImportSummary {
    let previous = lastSync
    let next = Task {
      _ = try? await previous?.value
      let summary = try await importChanges()
      try await uploadPending()
      return summary
    }
    lastSync = next
    return try await next.value
  }

  /// Forgets the anchor and reads everything again; the journal's UUID check keeps it
  /// from doubling entries.
  @discardableResult
  public func resync() async throws -> ImportSummary {
    anchor.reset()
    return try await sync()
  }

  /// Reads pages of changes after the saved anchor. Each page is saved in the journal
  /// before its anchor is, so an interrupted sync redoes a page and never loses one.
  private func importChanges() async throws -> ImportSummary {
    var summary = ImportSummary()
    var position = anchor.load()
    while true {
      let descriptor = HKAnchoredObjectQueryDescriptor(
        predicates: [.quantitySample(type: bodyMass)], anchor: position, limit: Self.pageSize)
      let page = try await descriptor.result(for: healthStore)
      let applied = try await journal.apply(
        added: page.addedSamples.compactMap(Self.healthWeight),
        deleted: page.deletedObjects.map(\.uuid))
      try anchor.save(page.newAnchor)
      position = page.newAnchor
      summary.added += applied.added
      summary.removed += applied.removed
      summary.pages += 1
      if page.addedSamples.count + page.deletedObjects.count < Self.pageSize { return summary }
    }
  }

  /// A weight from another source; nil for the app's own exports coming back.
  static func healthWeight(_ sample: HKQuantitySample) -> HealthWeight? {
    let syncIdentifier = sample.metadata?[HKMetadataKeySyncIdentifier] as? String
    if syncIdentifier?.hasPrefix(WeightEntry.syncIdentifierPrefix) == true { return nil }
    return HealthWeight(
      uuid: sample.uuid, kilograms: sample.quantity.doubleValue(for: .gramUnit(with: .kilo)),
      date: sample.startDate, sourceName: sample.sourceRevision.source.name)
  }

  private func uploadPending() async throws {
    guard let backend else { return }
    let pending = await journal.entriesToUpload()
    guard !pending.isEmpty else { return }
    try await backend.upload(pending)
    try await journal.markUploaded(pending)
  }
}
