import Foundation
import HealthSim

/// What Health commands need of a store, one command at a time: each call that changes
/// something is one durable transaction, and `open`/`close` take and release the store's
/// lock for the command.
protocol HealthStorage {
  /// Opens (creating when absent) the store in `directory` and takes its lock.
  static func open(_ directory: String) throws -> Self

  /// Saves samples at the next positions, one transaction; returns the last position.
  @discardableResult
  func save(_ samples: [HealthSample]) throws -> Int64

  /// Deletes the live sample with `uuid`, leaving a deleted-object record, one transaction.
  /// Returns whether there was such a sample.
  func delete(_ uuid: UUID, at date: Date) throws -> Bool

  /// The changes of `type` after position `anchor`: live samples and deleted-object records,
  /// in position order.
  func changes(of type: SampleType, after anchor: Int64) throws -> [HealthRecord]

  /// The live samples of `type` starting in `from..<to`.
  func samples(of type: SampleType, from: Date, to: Date) throws -> [HealthSample]

  /// Sum, average and count of the live samples of `type` starting in `from..<to`, in
  /// buckets of `bucket` seconds from `from`.
  func statistics(of type: SampleType, from: Date, to: Date, bucket: TimeInterval) throws
    -> [Bucket]

  /// The live sample of `type` from `bundle` with a sync identifier.
  func sample(syncIdentifier: String, type: SampleType, bundle: String) throws -> HealthSample?

  /// The last position used (0 for an empty store).
  var lastPosition: Int64 { get }

  /// Releases the lock; writes nothing.
  func close() throws
}

extension HealthStorage {
  /// Statistics from the samples themselves, for candidates without a query of their own.
  func statistics(of type: SampleType, from: Date, to: Date, bucket: TimeInterval) throws
    -> [Bucket]
  {
    var buckets: [Int: Bucket] = [:]
    for sample in try samples(of: type, from: from, to: to) {
      accumulate(&buckets, value: sample.value, start: sample.startDate, from: from, bucket: bucket)
    }
    return buckets.values.sorted { $0.index < $1.index }
  }
}

/// One statistics bucket.
struct Bucket: Equatable {
  var index: Int
  var sum: Double
  var count: Int
  var average: Double { count == 0 ? 0 : sum / Double(count) }
}

/// Adds a value to the bucket that `start` falls in.
func accumulate(
  _ buckets: inout [Int: Bucket], value: Double, start: Date, from: Date, bucket: TimeInterval
) {
  let offset = start.timeIntervalSince(from) / bucket
  // checked: start >= from and the range is a month, so the quotient is small and finite
  guard offset.isFinite, offset >= 0, offset < 1e9 else { return }
  let index = Int(offset)
  buckets[index, default: Bucket(index: index, sum: 0, count: 0)].sum += value
  buckets[index, default: Bucket(index: index, sum: 0, count: 0)].count += 1
}

/// The error of a candidate.
struct StorageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension HealthRecord {
  var type: SampleType {
    switch self {
    case .sample(let sample, _): sample.type
    case .deletion(let record, _): record.type
    }
  }

  var uuid: UUID {
    switch self {
    case .sample(let sample, _): sample.uuid!
    case .deletion(let record, _): record.uuid
    }
  }

  var startDate: Date {
    switch self {
    case .sample(let sample, _): sample.startDate
    case .deletion(let record, _): record.startDate
    }
  }

  var liveSample: HealthSample? {
    if case .sample(let sample, _) = self { return sample }
    return nil
  }
}
