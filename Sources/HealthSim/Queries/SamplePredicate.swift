import Foundation

/// How a date predicate compares sample dates (HKQueryOptions).
public struct QueryOptions: OptionSet, Codable, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The start date must fall in [start, end).
  public static let strictStartDate = QueryOptions(rawValue: 1)
  /// The end date must fall in [start, end).
  public static let strictEndDate = QueryOptions(rawValue: 2)
}

/// A filter on samples and deleted-object records (the HKQuery predicates the simulator needs).
public struct SamplePredicate: Hashable, Sendable {
  /// The interval's start; `nil` is unbounded.
  public var startDate: Date?
  /// The interval's end (exclusive); `nil` is unbounded.
  public var endDate: Date?
  /// How dates compare.
  public var options: QueryOptions
  /// Only these sources (by bundle identifier), when set.
  public var sourceBundleIdentifiers: Set<String>?
  /// Only these UUIDs, when set.
  public var uuids: Set<UUID>?
  /// A further condition on samples and deleted-object records, for predicates the fields
  /// above cannot say (metadata, devices, `OR`, `NOT`).
  public var filter: SampleFilter?

  /// A predicate; every part optional.
  public init(
    startDate: Date? = nil, endDate: Date? = nil, options: QueryOptions = [],
    sourceBundleIdentifiers: Set<String>? = nil, uuids: Set<UUID>? = nil,
    filter: SampleFilter? = nil
  ) {
    self.filter = filter
    self.startDate = startDate
    self.endDate = endDate
    self.options = options
    self.sourceBundleIdentifiers = sourceBundleIdentifiers
    self.uuids = uuids
  }

  /// HKQuery.predicateForSamples(withStart:end:options:).
  public static func samples(withStart start: Date?, end: Date?, options: QueryOptions = [])
    -> SamplePredicate
  {
    SamplePredicate(startDate: start, endDate: end, options: options)
  }

  /// HKQuery.predicateForObjects(from:): samples of the given sources.
  public static func objects(from sources: Set<HealthSource>) -> SamplePredicate {
    SamplePredicate(sourceBundleIdentifiers: Set(sources.map(\.bundleIdentifier)))
  }

  /// HKQuery.predicateForObjects(with:): samples with the given UUIDs.
  public static func objects(with uuids: Set<UUID>) -> SamplePredicate {
    SamplePredicate(uuids: uuids)
  }

  /// Whether the dates match (P1–P6): none = overlap (end ≥ S and start < E); strict
  /// start = S ≤ start < E; strict end = S ≤ end < E; both = both.
  public func matchesDates(start: Date, end: Date) -> Bool {
    if options.isEmpty {
      if let startDate, end < startDate { return false }
      if let endDate, start >= endDate { return false }
      return true
    }
    if options.contains(.strictStartDate), !inInterval(start) { return false }
    if options.contains(.strictEndDate), !inInterval(end) { return false }
    return true
  }

  private func inInterval(_ date: Date) -> Bool {
    if let startDate, date < startDate { return false }
    if let endDate, date >= endDate { return false }
    return true
  }

  func matches(_ sample: HealthSample) -> Bool {
    if let filter, !filter.matchesSample(sample) { return false }
    return matches(
      start: sample.startDate, end: sample.endDate, source: sample.source, uuid: sample.uuid)
  }

  func matches(_ record: DeletedObjectRecord) -> Bool {
    if let filter, !filter.matchesDeletion(record) { return false }
    return matches(
      start: record.startDate, end: record.endDate, source: record.source, uuid: record.uuid)
  }

  private func matches(start: Date, end: Date, source: HealthSource?, uuid: UUID?) -> Bool {
    if let sourceBundleIdentifiers {
      guard let source, sourceBundleIdentifiers.contains(source.bundleIdentifier) else {
        return false
      }
    }
    if let uuids {
      guard let uuid, uuids.contains(uuid) else { return false }
    }
    return matchesDates(start: start, end: end)
  }
}

/// A condition on samples and deleted-object records given as functions. Two filters are
/// equal when they are the same filter (same `id`).
public struct SampleFilter: Hashable, Sendable {
  /// The filter's identity.
  public let id: UUID
  /// Whether a live sample matches.
  public let matchesSample: @Sendable (HealthSample) -> Bool
  /// Whether a deleted-object record matches.
  public let matchesDeletion: @Sendable (DeletedObjectRecord) -> Bool

  /// A filter; `id` defaults to a new random identity.
  public init(
    id: UUID = UUID(), sample: @escaping @Sendable (HealthSample) -> Bool,
    deletion: @escaping @Sendable (DeletedObjectRecord) -> Bool
  ) {
    self.id = id
    self.matchesSample = sample
    self.matchesDeletion = deletion
  }

  public static func == (lhs: SampleFilter, rhs: SampleFilter) -> Bool { lhs.id == rhs.id }
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
