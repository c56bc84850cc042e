import Foundation

/// Where a Health store keeps its samples, deleted-object records and small state (issue 15:
/// a store whose commands do not grow with its history).
///
/// Every change goes through `apply(_:)`, as the `HealthChange` feed that `HealthStore`
/// records: one call is one transaction, all of it or none of it. Everything else reads.
/// `InMemorySampleStorage` is the reference implementation (today's `SampleLog`s); WeighKit
/// implements the same protocol over SQLite. `HealthStore` asks its storage for everything
/// (`HealthStore.storage`).
///
/// Positions are the store's change positions: each saved sample and each deleted-object
/// record takes a new one, greater than every position the storage ever held.
public protocol HealthSampleStorage: AnyObject {
  /// Applies `changes` in order, as one transaction: when it returns, all of them are kept;
  /// when it throws, none of them is and the storage is as it was.
  ///
  /// - `sampleSaved`: the sample (with its UUID) at a new position; no live sample may have
  ///   its UUID.
  /// - `sampleDeleted`: the live sample with the UUID becomes a deleted-object record at a
  ///   new position (a replacement by sync identifier is a deletion and a save).
  /// - `deletedObjectsPurged`: drops the deleted-object records deleted before the date
  ///   (all of them when it is nil).
  /// - `deletedObjectsTrimmed`: drops all but the newest `keeping` deleted-object records.
  /// - `stateChanged`: the small state, replacing the one kept.
  ///
  /// - Throws: `HealthStorageError` (or the implementation's own error) for a change that
  ///   breaks these rules, or when the storage cannot be read or written.
  func apply(_ changes: [HealthChange]) throws

  /// Applies `changes` as `apply(_:)` does, given `prepared`: for each change, what this
  /// storage made ahead of the save of the sample it saves (`StoragePreparation`), or nil;
  /// `prepared[i]` goes with `changes[i]`, and may be shorter (nil for the rest). Made from
  /// the sample before the save gave it its UUID, writer and creation date: the storage
  /// uses one only after checking that it fits the saved sample, and what it keeps is the
  /// same with or without it. The default ignores `prepared`.
  func apply(_ changes: [HealthChange], prepared: [(any StoragePreparation)?]) throws

  /// Adds live samples and deleted-object records at their positions (growing, each greater
  /// than every position held), as a snapshot or an import lists them, in one transaction.
  /// No live sample may share a UUID.
  func append(_ records: [HealthRecord]) throws

  /// The small state last applied; nil while none was.
  func smallState() throws -> HealthSmallState?

  /// The greatest position ever applied (0 for a new storage); purges do not lower it.
  func lastPosition() throws -> Int64

  /// The live sample or deleted-object record at `position`, if any.
  func record(at position: Int64) throws -> HealthRecord?

  /// Every live sample and deleted-object record after `position`, whatever the type, in
  /// position order, at most `limit` (0: no limit).
  func records(after position: Int64, limit: Int) throws -> [HealthRecord]

  /// The anchored query's read: the live samples and deleted-object records of `type` after
  /// `anchor`, in position order, at most `limit` (0: no limit).
  func changes(of type: SampleType, after anchor: Int64, limit: Int) throws -> [HealthRecord]

  /// The live samples of `type` that start in `range` (any start when nil) and, when
  /// `bundle` is given, come from that source, in position order.
  func samples(of type: SampleType, startingIn range: Range<Date>?, bundle: String?) throws
    -> [StoredSample]

  /// The live sample with `uuid`.
  func sample(uuid: UUID) throws -> StoredSample?

  /// The live sample of `type` that starts last; of those starting then, the one at the
  /// greatest position. Nil when no sample of `type` is live.
  func newestSample(of type: SampleType) throws -> StoredSample?

  /// The live samples whose UUID, written as 32 lower-case hex digits without hyphens,
  /// begins with `hexPrefix` (lower-case hex digits, at most 32), in UUID order, at most
  /// `limit` (0: no limit).
  func samples(uuidPrefix hexPrefix: String, limit: Int) throws -> [StoredSample]

  /// The live samples of `type` with the sync identifier and, when `bundle` is given, from
  /// that source, in position order (the last one is the newest).
  func samples(syncIdentifier: String, type: SampleType, bundle: String?) throws
    -> [StoredSample]

  /// Statistics of the live samples of `type` (from `bundle` when given) by start date: one
  /// bucket per interval `boundaries[i]..<boundaries[i + 1]`, values added in position
  /// order. `boundaries` must increase strictly.
  func statistics(of type: SampleType, boundaries: [Date], bundle: String?) throws
    -> [SampleBucket]

  /// How many live samples and deleted-object records there are, of `type` or of all types.
  func counts(of type: SampleType?) throws -> RecordCounts

  /// A duration no live sample of `type` lasts longer than (end minus start), or nil when
  /// the storage does not know one. A query for samples that overlap a date range reads
  /// from the range's start minus it, since only start dates are indexed; without it, from
  /// the first sample.
  func longestDuration(of type: SampleType) throws -> TimeInterval?

  /// The UUIDs among `uuids` that a live sample has: `sample(uuid:)` of each, asked in one
  /// call (HealthStore asks about the new UUIDs of a batch of saves at once).
  func liveUUIDs(among uuids: [UUID]) throws -> Set<UUID>
}

extension HealthSampleStorage {
  /// `apply(_:)`: the preparations are not used.
  public func apply(_ changes: [HealthChange], prepared: [(any StoragePreparation)?]) throws {
    try apply(changes)
  }

  /// `sample(uuid:)` of each.
  public func liveUUIDs(among uuids: [UUID]) throws -> Set<UUID> {
    var live = Set<UUID>()
    for uuid in uuids where try sample(uuid: uuid) != nil { live.insert(uuid) }
    return live
  }

  /// Not known: a query for samples that overlap a range reads every earlier start.
  public func longestDuration(of type: SampleType) throws -> TimeInterval? { nil }
}

extension UUID {
  /// The 32 hex digits, lower case, without hyphens: what a UUID prefix is matched against
  /// (`HealthSampleStorage.samples(uuidPrefix:limit:)`).
  public var compactHex: String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(32)
    withUnsafeBytes(of: uuid) { bytes in
      for byte in bytes {
        text.append(digits[Int(truncatingIfNeeded: byte >> 4)])
        text.append(digits[Int(truncatingIfNeeded: byte & 0x0f)])
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The smallest and the largest UUID whose `compactHex` begins with `hexPrefix`, or nil
  /// when it is longer than 32 digits or holds anything but lower-case ASCII hex digits.
  public static func range(withHexPrefix hexPrefix: String) -> (low: UUID, high: UUID)? {
    var low = [UInt8](repeating: 0, count: 16)
    var high = [UInt8](repeating: 0xff, count: 16)
    let digits = Array(hexPrefix.utf8)
    guard digits.count <= 32 else { return nil }
    for (index, digit) in digits.enumerated() {
      let nibble: UInt8
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
      default: return nil
      }
      let shift: UInt8 = index % 2 == 0 ? 4 : 0
      low[index / 2] = (low[index / 2] & ~(0x0f << shift)) | (nibble << shift)
      high[index / 2] = (high[index / 2] & ~(0x0f << shift)) | (nibble << shift)
    }
    func uuid(_ bytes: [UInt8]) -> UUID {
      UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
          bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }
    return (uuid(low), uuid(high))
  }
}

/// A live sample and its position.
public struct StoredSample: Hashable, Sendable {
  /// The sample, as saved.
  public var sample: HealthSample
  /// Its change position.
  public var position: Int64

  /// A stored sample.
  public init(sample: HealthSample, position: Int64) {
    self.sample = sample
    self.position = position
  }
}

/// One interval of a statistics query.
public struct SampleBucket: Hashable, Sendable {
  /// The sum of the values.
  public var sum: Double = 0
  /// How many samples started in the interval.
  public var count = 0
  /// The smallest value; nil when there is none.
  public var minimum: Double?
  /// The largest value; nil when there is none.
  public var maximum: Double?

  /// An empty bucket.
  public init() {}

  /// Adds one value.
  public mutating func add(_ value: Double) {
    sum += value
    count += 1
    minimum = Swift.min(minimum ?? value, value)
    maximum = Swift.max(maximum ?? value, value)
  }

  /// The mean; nil when there is no value.
  public var average: Double? { count == 0 ? nil : sum / Double(count) }
}

/// How many records a storage holds.
public struct RecordCounts: Hashable, Sendable {
  /// Live samples.
  public var samples: Int
  /// Kept deleted-object records.
  public var deletions: Int

  /// Counts.
  public init(samples: Int, deletions: Int) {
    self.samples = samples
    self.deletions = deletions
  }
}

/// A change a storage refuses, or a query it cannot answer.
public struct HealthStorageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong, lower case.
  public var message: String

  /// An error.
  public init(_ message: String) { self.message = message }

  public var description: String { message }

  /// Change `change` (0-based) takes a position not after the last one.
  public static func positionNotAfter(change: Int, position: Int64, last: Int64) -> Self {
    Self("change \(change + 1): position \(position) is not after \(last); positions only grow")
  }

  /// Change `change` saves a sample without a UUID.
  public static func missingUUID(change: Int) -> Self {
    Self("change \(change + 1): a stored sample needs its uuid")
  }

  /// Change `change` saves a sample whose UUID a live sample has.
  public static func duplicateUUID(change: Int, uuid: UUID) -> Self {
    Self("change \(change + 1): a live sample already has uuid \(uuid.uuidString)")
  }

  /// Change `change` deletes a UUID that no live sample has.
  public static func noLiveSample(change: Int, uuid: UUID) -> Self {
    Self("change \(change + 1): no live sample has uuid \(uuid.uuidString) to delete")
  }
}

extension SampleBucket {
  /// The index of the interval of `boundaries` (strictly increasing) that holds `date`, or nil
  /// when it is before the first boundary or not before the last.
  /// - Complexity: O(log n).
  public static func index(of date: Date, in boundaries: [Date]) -> Int? {
    guard let first = boundaries.first, let last = boundaries.last, date >= first, date < last
    else { return nil }
    var low = 0
    var high = boundaries.count - 1
    // Invariant: boundaries[low] <= date < boundaries[high].
    while high - low > 1 {
      let middle = (low + high) / 2
      if boundaries[middle] <= date { low = middle } else { high = middle }
    }
    return low
  }

  /// One empty bucket per interval between `boundaries`, which must increase strictly, and
  /// the span they cover (nil when they cover none): where every storage's statistics begin.
  public static func emptyBuckets(between boundaries: [Date]) throws(HealthStorageError) -> (
    buckets: [SampleBucket], span: Range<Date>?
  ) {
    try checkBoundaries(boundaries)
    let buckets = Array(repeating: SampleBucket(), count: max(boundaries.count - 1, 0))
    guard let first = boundaries.first, let end = boundaries.last, first < end else {
      return (buckets, nil)
    }
    return (buckets, first..<end)
  }

  /// Checks that `boundaries` increase strictly.
  public static func checkBoundaries(_ boundaries: [Date]) throws(HealthStorageError) {
    for index in boundaries.indices.dropFirst() where boundaries[index] <= boundaries[index - 1] {
      throw HealthStorageError(
        "statistics boundaries must increase; boundary \(index) is not after boundary \(index - 1)")
    }
  }
}
