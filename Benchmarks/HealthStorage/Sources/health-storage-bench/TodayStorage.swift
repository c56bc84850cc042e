import Foundation
import HealthSim
import WeighKit

/// (a) Today's representation: WeighKit's `Store` (weigh.json, journal.jsonl with
/// `fdatasync` per commit, journal.ack, compaction into table files) with the `health` and
/// `health-sync` tables written by `HealthRecordCodec`, changed the way `HealthLink` changes
/// them (a save puts a row, and one in `health-sync` when it has a sync identifier; a
/// deletion removes the row and puts its deleted-object record). Queries read what weigh
/// reads today: the rows after an anchor from the end of `health.json` (its binary search
/// over lines), otherwise the whole table, decoded; sync identifiers from `health-sync.json`.
/// What is not run: HealthSim's in-memory `HealthStore` that weigh builds over these rows.
final class TodayStorage: HealthStorage {
  let store: Store

  private init(store: Store) { self.store = store }

  static func open(_ directory: String) throws -> TodayStorage {
    try open(directory, compaction: .standard)
  }

  /// With `.manual`, writing many batches does not compact after each (generation).
  static func open(_ directory: String, compaction: CompactionPolicy) throws -> TodayStorage {
    TodayStorage(
      store: try Store.open(
        .directory(directory), tables: [HealthRecordCodec.self, HealthSyncIndexCodec.self],
        compaction: compaction))
  }

  var lastPosition: Int64 { Int64(store.nextID(in: HealthRecordCodec.tableName) - 1) }

  @discardableResult
  func save(_ samples: [HealthSample]) throws -> Int64 {
    var position = lastPosition
    var changes: [StoreChange] = []
    for sample in samples {
      position += 1
      let record = HealthRecord.sample(sample, position: position)
      changes.append(.put(StoreRow(HealthRecordCodec.self, record)))
      if sample.syncIdentifier != nil {
        changes.append(.put(StoreRow(HealthSyncIndexCodec.self, record)))
      }
    }
    try store.commit(changes)
    return position
  }

  func delete(_ uuid: UUID, at date: Date) throws -> Bool {
    guard
      let found = try store.rows(HealthRecordCodec.self).first(where: {
        $0.liveSample?.uuid == uuid
      }), let sample = found.liveSample
    else { return false }
    var changes: [StoreChange] = [
      .remove(table: HealthRecordCodec.tableName, id: Int(found.position))
    ]
    if sample.syncIdentifier != nil {
      changes.append(.remove(table: HealthSyncIndexCodec.tableName, id: Int(found.position)))
    }
    let record = DeletedObjectRecord(deleting: sample, at: date)
    changes.append(
      .put(StoreRow(HealthRecordCodec.self, .deletion(record, position: lastPosition + 1))))
    try store.commit(changes)
    return true
  }

  func changes(of type: SampleType, after anchor: Int64) throws -> [HealthRecord] {
    // checked: anchors are positions, below 2^53
    try store.rows(HealthRecordCodec.self, after: Int(anchor)).filter { $0.type == type }
  }

  func samples(of type: SampleType, from: Date, to: Date) throws -> [HealthSample] {
    try store.rows(HealthRecordCodec.self).compactMap {
      guard let sample = $0.liveSample, sample.type == type, sample.startDate >= from,
        sample.startDate < to
      else { return nil }
      return sample
    }
  }

  func sample(syncIdentifier: String, type: SampleType, bundle: String) throws -> HealthSample? {
    try store.rows(HealthSyncIndexCodec.self).lazy.compactMap(\.liveSample).first {
      $0.type == type && $0.syncIdentifier == syncIdentifier
        && $0.source?.bundleIdentifier == bundle
    }
  }

  func close() throws { store.close() }
}
