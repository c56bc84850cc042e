/// A type and a predicate, as the multi-type query initialisers take them
/// (HKQueryDescriptor).
public final class HKQueryDescriptor: NSObject, NSCopying, @unchecked Sendable {
  /// The type read.
  public let sampleType: HKSampleType
  /// The filter, if any.
  public let predicate: NSPredicate?

  /// A descriptor for samples of a type that match a predicate.
  public init(sampleType: HKSampleType, predicate: NSPredicate?) {
    self.sampleType = sampleType
    self.predicate = predicate
  }

  public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// Statistics over the samples that match, with Swift concurrency
/// (HKStatisticsQueryDescriptor).
public struct HKStatisticsQueryDescriptor: HKAsyncQuery, @unchecked Sendable {
  public var predicate: HKSamplePredicate<HKQuantitySample>
  public var options: HKStatisticsOptions

  /// A descriptor.
  public init(predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions = []) {
    self.predicate = predicate
    self.options = options
  }

  /// The statistics, or nil when no sample matches.
  public func result(for healthStore: HKHealthStore) async throws -> HKStatistics? {
    guard let type = predicate.sampleType as? HKQuantityType else {
      throw HKError(.errorInvalidArgument, message: "statistics need a quantity type")
    }
    return try DescriptorRun.once(on: healthStore) {
      (finish: @escaping @Sendable (Result<HKStatistics?, any Error>) -> Void) in
      HKStatisticsQuery(
        quantityType: type, quantitySamplePredicate: predicate.nsPredicate, options: options
      ) { _, statistics, error in
        if let error, (error as? HKError)?.code != .errorNoData {
          finish(.failure(error))
        } else {
          finish(.success(statistics))
        }
      }
    }
  }
}
