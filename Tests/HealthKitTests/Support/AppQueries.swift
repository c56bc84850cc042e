import HealthKit

// Helpers an app's own code would have: callback queries wrapped for `await`. They use only
// Apple's API, so the tests read like an app's test target.

/// One anchored read: what `HKAnchoredObjectQuery`'s results handler received.
struct AnchoredBatch: Sendable {
  let samples: [HKSample]
  let deleted: [HKDeletedObject]
  let anchor: HKQueryAnchor?
}

/// Thrown when a handler reports neither a result nor an error.
struct NoResult: Error {}

extension HKHealthStore {
  /// Runs an HKSampleQuery and returns its samples.
  func samples(
    of type: HKSampleType, predicate: NSPredicate? = nil, limit: Int = HKObjectQueryNoLimit,
    sortDescriptors: [NSSortDescriptor]? = nil
  ) async throws -> [HKSample] {
    try await withCheckedThrowingContinuation { continuation in
      let query = HKSampleQuery(
        sampleType: type, predicate: predicate, limit: limit, sortDescriptors: sortDescriptors
      ) { _, samples, error in
        if let samples {
          continuation.resume(returning: samples)
        } else {
          continuation.resume(throwing: error ?? NoResult())
        }
      }
      execute(query)
    }
  }

  /// Runs an HKAnchoredObjectQuery once and returns its batch.
  func changes(
    of type: HKSampleType, predicate: NSPredicate? = nil, after anchor: HKQueryAnchor?,
    limit: Int = HKObjectQueryNoLimit
  ) async throws -> AnchoredBatch {
    try await withCheckedThrowingContinuation { continuation in
      let query = HKAnchoredObjectQuery(
        type: type, predicate: predicate, anchor: anchor, limit: limit
      ) { _, samples, deleted, newAnchor, error in
        if let error {
          continuation.resume(throwing: error)
        } else {
          continuation.resume(
            returning: AnchoredBatch(
              samples: samples ?? [], deleted: deleted ?? [], anchor: newAnchor))
        }
      }
      execute(query)
    }
  }

  /// Runs an HKStatisticsQuery and returns its statistics.
  func statistics(
    of type: HKQuantityType, predicate: NSPredicate? = nil, options: HKStatisticsOptions
  ) async throws -> HKStatistics {
    try await withCheckedThrowingContinuation { continuation in
      let query = HKStatisticsQuery(
        quantityType: type, quantitySamplePredicate: predicate, options: options
      ) { _, statistics, error in
        if let statistics {
          continuation.resume(returning: statistics)
        } else {
          continuation.resume(throwing: error ?? NoResult())
        }
      }
      execute(query)
    }
  }

  /// Runs an HKSourceQuery and returns the sources.
  func sources(of type: HKSampleType) async throws -> Set<HKSource> {
    try await withCheckedThrowingContinuation { continuation in
      let query = HKSourceQuery(sampleType: type, samplePredicate: nil) { _, sources, error in
        if let sources {
          continuation.resume(returning: sources)
        } else {
          continuation.resume(throwing: error ?? NoResult())
        }
      }
      execute(query)
    }
  }
}
