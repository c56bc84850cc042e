import Foundation
import HealthKit

extension WeightHealthSync {
  /// Imports what changed in Health since the saved anchor, page by page: adds other
  /// sources' weights the log lacks, removes entries whose sample was deleted, then
  /// uploads the entries the app's server lacks. The anchor is saved only after the log
  /// has saved a page, so an interrupted import redoes that page and never loses one.
  public func importChanges(
    completion: @escaping @Sendable (Result<ImportSummary, any Error>) -> Void
  ) {
    importPage(after: anchors.load(), summary: ImportSummary(), completion: completion)
  }

  private func importPage(
    after anchor: HKQueryAnchor?, summary: ImportSummary,
    completion: @escaping @Sendable (Result<ImportSummary, any Error>) -> Void
  ) {
    let query = HKAnchoredObjectQuery(
      type: bodyMass, predicate: nil, anchor: anchor, limit: Self.pageSize
    ) { [self] _, samples, deletedObjects, newAnchor, error in
      work.async { [self] in
        if let error {
          completion(.failure(error))
          return
        }
        let samples = samples ?? []
        let deletedObjects = deletedObjects ?? []
        var summary = summary
        do {
          let applied = try log.apply(batch(samples, deletedObjects))
          if let newAnchor { try anchors.save(newAnchor) }
          summary.added += applied.added
          summary.removed += applied.removed
          summary.pages += 1
        } catch {
          completion(.failure(error))
          return
        }
        if samples.count + deletedObjects.count >= Self.pageSize {
          importPage(after: newAnchor, summary: summary, completion: completion)
        } else {
          upload(summary, completion: completion)
        }
      }
    }
    healthStore.execute(query)
  }

  /// The app's view of a page: weights from other sources, and deleted UUIDs. The app's
  /// own exports (its sync identifier prefix) are already in the log.
  private func batch(_ samples: [HKSample], _ deletedObjects: [HKDeletedObject]) -> HealthBatch {
    var batch = HealthBatch()
    for case let sample as HKQuantitySample in samples {
      let syncIdentifier = sample.metadata?[HKMetadataKeySyncIdentifier] as? String
      if syncIdentifier?.hasPrefix(WeightEntry.syncIdentifierPrefix) == true { continue }
      batch.added.append(
        HealthBatch.Weight(
          uuid: sample.uuid, kilograms: sample.quantity.doubleValue(for: .gramUnit(with: .kilo)),
          date: sample.startDate, sourceName: sample.sourceRevision.source.name))
    }
    batch.deleted = deletedObjects.map(\.uuid)
    return batch
  }

  /// Sends the imported entries the server lacks (from this import or an earlier one
  /// whose upload did not finish), then reports the import.
  private func upload(
    _ summary: ImportSummary,
    completion: @escaping @Sendable (Result<ImportSummary, any Error>) -> Void
  ) {
    let pending = log.entriesToUpload()
    guard let backend, !pending.isEmpty else {
      completion(.success(summary))
      return
    }
    backend.upload(pending) { [self] error in
      if let error {
        completion(.failure(error))
        return
      }
      do {
        try log.markUploaded(pending)
        completion(.success(summary))
      } catch {
        completion(.failure(error))
      }
    }
  }
}
