import Foundation

/// One mutation of the store, as the change feed reports it; `HealthStore.apply` replays it.
///
/// Each value is O(1) in size, so a journal of changes costs O(1) per mutation.
public enum HealthChange: Codable, Hashable, Sendable {
  /// A sample was saved at a change position.
  case sampleSaved(HealthSample, position: Int64)
  /// A sample was deleted; its deleted-object record takes a change position.
  case sampleDeleted(uuid: UUID, position: Int64, date: Date)
  /// Deleted-object records deleted before `cutoff` were dropped (all of them when nil).
  case deletedObjectsPurged(before: Date?)
  /// All but the newest `keeping` deleted-object records were dropped.
  case deletedObjectsTrimmed(keeping: Int)
  /// The small state (clock, counter, settings, authorization, observers, simulations,
  /// scheduler, generator) changed; this is its new value.
  case stateChanged(HealthSmallState)
}

/// An item of the store's history, as a snapshot lists it.
public enum HealthRecord: Codable, Hashable, Sendable {
  /// A live sample at its position.
  case sample(HealthSample, position: Int64)
  /// A kept deleted-object record at its position.
  case deletion(DeletedObjectRecord, position: Int64)

  /// The change position.
  public var position: Int64 {
    switch self {
    case .sample(_, let position), .deletion(_, let position): return position
    }
  }
}

/// The whole store as a Codable value.
public struct HealthSnapshot: Codable, Hashable, Sendable {
  /// Everything but the history.
  public var state: HealthSmallState
  /// Live samples and kept deleted-object records, in position order.
  public var records: [HealthRecord]

  /// A snapshot.
  public init(state: HealthSmallState, records: [HealthRecord]) {
    self.state = state
    self.records = records
  }
}
