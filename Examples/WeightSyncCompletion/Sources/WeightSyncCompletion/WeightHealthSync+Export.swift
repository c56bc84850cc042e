import Foundation
import HealthKit

extension WeightHealthSync {
  /// Writes the user's own entries to Health: each entry's current revision as a sample
  /// with the entry's sync identifier and the revision as sync version, so an edited entry
  /// replaces its earlier sample; samples of deleted entries are deleted. Reports how many
  /// samples were saved.
  public func exportManualEntries(
    completion: @escaping @Sendable (Result<Int, any Error>) -> Void
  ) {
    let entries = log.entriesToExport()
    let samples = entries.map(sample(for:))
    deleteRemovedExports { [self] error in
      if let error {
        completion(.failure(error))
        return
      }
      guard !samples.isEmpty else {
        completion(.success(0))
        return
      }
      healthStore.save(samples) { [self] _, error in
        if let error {
          completion(.failure(error))
          return
        }
        do {
          for (entry, sample) in zip(entries, samples) {
            try log.markExported(entry, as: sample.uuid)
          }
          completion(.success(samples.count))
        } catch {
          completion(.failure(error))
        }
      }
    }
  }

  private func sample(for entry: WeightEntry) -> HKQuantitySample {
    let metadata: [String: Any] = [
      HKMetadataKeySyncIdentifier: entry.syncIdentifier,
      HKMetadataKeySyncVersion: entry.revision,
      HKMetadataKeyWasUserEntered: true,
    ]
    return HKQuantitySample(
      type: bodyMass,
      quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: entry.kilograms),
      start: entry.date, end: entry.date, metadata: metadata)
  }

  /// Deletes the samples of manual entries the user deleted, by sync identifier.
  private func deleteRemovedExports(completion: @escaping @Sendable ((any Error)?) -> Void) {
    let identifiers = log.deletedExports()
    guard !identifiers.isEmpty else {
      completion(nil)
      return
    }
    let predicate = HKQuery.predicateForObjects(
      withMetadataKey: HKMetadataKeySyncIdentifier, allowedValues: identifiers.sorted())
    healthStore.deleteObjects(of: bodyMass, predicate: predicate) { [self] _, _, error in
      if let error {
        completion(error)
        return
      }
      do {
        try log.forgetDeletedExports(identifiers)
        completion(nil)
      } catch {
        completion(error)
      }
    }
  }
}
