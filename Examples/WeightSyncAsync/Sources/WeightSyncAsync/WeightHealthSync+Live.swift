import Foundation
import HealthKit

extension WeightHealthSync {
  /// While the app is on screen: follows Health with a long-running anchored query from
  /// the saved anchor, applying each batch to the journal (and saving the anchor after it)
  /// and reporting it to `onChange`, e.g. to refresh a view. Returns when the calling task
  /// is cancelled, which stops the query.
  public func followChanges(_ onChange: @Sendable (ImportSummary) -> Void) async throws {
    let descriptor = HKAnchoredObjectQueryDescriptor(
      predicates: [.quantitySample(type: bodyMass)], anchor: anchor.load())
    for try await batch in descriptor.results(for: healthStore) {
      let applied = try await journal.apply(
        added: batch.addedSamples.compactMap(Self.healthWeight),
        deleted: batch.deletedObjects.map(\.uuid))
      try anchor.save(batch.newAnchor)
      onChange(ImportSummary(added: applied.added, removed: applied.removed, pages: 1))
    }
  }
}
