import Foundation
import HealthKit

extension WeightHealthSync {
  /// The newest weights Health shows the app, newest first.
  public func recentWeights(limit: Int) async throws -> [HKQuantitySample] {
    let descriptor = HKSampleQueryDescriptor(
      predicates: [.quantitySample(type: bodyMass)],
      sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)], limit: limit)
    return try await descriptor.result(for: healthStore)
  }

  /// Writes the user's own entries to Health: each entry's current revision as a sample
  /// with the entry's sync identifier and the revision as sync version, so an edited entry
  /// replaces its earlier sample; the samples of deleted entries are deleted. Returns how
  /// many samples were saved.
  @discardableResult
  public func exportManualEntries() async throws -> Int {
    let removed = await journal.deletedExports()
    if !removed.isEmpty {
      let predicate = HKQuery.predicateForObjects(
        withMetadataKey: HKMetadataKeySyncIdentifier, allowedValues: removed.sorted())
      _ = try await healthStore.deleteObjects(of: bodyMass, predicate: predicate)
      try await journal.forgetDeletedExports(removed)
    }
    let entries = await journal.entriesToExport()
    guard !entries.isEmpty else { return 0 }
    let samples = entries.map(sample(for:))
    try await healthStore.save(samples)
    for (entry, sample) in zip(entries, samples) {
      try await journal.markExported(entry, as: sample.uuid)
    }
    return samples.count
  }

  private func sample(for entry: WeightEntry) -> HKQuantitySample {
    HKQuantitySample(
      type: bodyMass,
      quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: entry.kilograms),
      start: entry.date, end: entry.date,
      metadata: [
        HKMetadataKeySyncIdentifier: entry.syncIdentifier,
        HKMetadataKeySyncVersion: entry.revision,
        HKMetadataKeyWasUserEntered: true,
      ])
  }
}
