import Foundation
import HealthSim

/// The part of a live sample's `record` row that depends on the sample's content alone,
/// made ahead of its save on the import's reading thread (`HealthSQLiteStorage.prepare(_:)`,
/// through `CheckedSample(checking:preparing:)`): the columns, the `extra` blob, whether the
/// content lets the row have a shape (`HealthRowShape`), the duration the type's longest is
/// kept from, and the checksum of the row's bytes with zeros where the position, the UUID,
/// the origin and the creation time go (`HealthSQLiteRowChecksumSplit`). The saving thread
/// adds those four (docs/store.md, "A row prepared on the reader's thread (hrow17)").
///
/// Made from the sample before its save gave it a UUID, a writer and a creation time, and
/// used for the saved sample only when it fits it (`fits(_:)`); the row then written is
/// the one `HealthSQLiteRowParts(_:position:)` would make, byte for byte
/// (`HealthSQLitePreparedRowTests`).
final class HealthSQLitePreparedRow: StoragePreparation {
  /// The sample it was made from.
  let source: HealthSample
  /// The row's parts at position 0, with no UUID (zeros), no origin and a creation time of
  /// 0: the save sets those four.
  let parts: HealthSQLiteRowParts
  /// Whether the content lets the row have a shape: no nested parts, both times and the
  /// value within their rules, the end not before the start.
  let contentHasShape: Bool
  /// End minus start, as the row's dates read back (`Writer.insert`'s duration).
  let duration: Double
  /// The checksum of the row's bytes with zeros for the position, UUID, origin id and
  /// creation time (`HealthSQLiteRowChecksumSplit`).
  let fixedChecksum: UInt32
  /// The row's checksummed bytes after the creation time.
  let suffixLength: Int

  init(_ sample: HealthSample) {
    source = sample
    var parts = HealthSQLiteRowParts(sample, position: 0)
    parts.uuid = HealthSQLiteRowChecksumSplit.zeroUUID
    parts.origin = HealthSQLiteOrigin(source: nil)
    parts.created = 0
    self.parts = parts
    fixedChecksum = parts.checksum(originID: 0)
    suffixLength = HealthSQLiteRowChecksumSplit.suffixLength(of: parts)
    let start = sample.startDate.timeIntervalSince1970
    let end = sample.endDate.timeIntervalSince1970
    contentHasShape =
      !sample.hasNestedParts && StoredValueRule.instant.contains(start)
      && StoredValueRule.instant.contains(end) && end >= start
      && HealthRecordCodec.valueRule(for: sample.type).contains(sample.value)
    // As `Writer.insert` measures it: the dates as the row reads them back.
    duration = Date(timeIntervalSince1970: end).timeIntervalSince(
      Date(timeIntervalSince1970: start))
  }

  /// Whether `sample` (saved from `source`) has the content this row was made from: its
  /// type, times and value, and the same nested parts. A save changes only the UUID, the
  /// writer and the creation time, which the saving thread sets; anything else (a
  /// preparation handed with another sample) is not used.
  func fits(_ sample: __shared HealthSample) -> Bool {
    guard sample.type == source.type, sample.startDate == source.startDate,
      sample.endDate == source.endDate, sample.value.bitPattern == source.value.bitPattern,
      sample.creationDate != nil
    else { return false }
    let nested = sample.hasNestedParts
    guard nested == source.hasNestedParts else { return false }
    return !nested
      || (sample.metadata == source.metadata && sample.workout == source.workout
        && sample.objects == nil && source.objects == nil)
  }

  /// The parts of `sample`'s row at `position`: `HealthSQLiteRowParts(sample, position:)`,
  /// from these.
  func parts(of sample: __shared HealthSample, position: Int64) -> HealthSQLiteRowParts {
    var parts = parts
    parts.position = position
    parts.uuid = sample.uuid ?? HealthSQLiteRowChecksumSplit.zeroUUID
    parts.origin = HealthSQLiteOrigin(sample)
    // x + 0.0 is x for every number but −0.0, which becomes +0.0 (as the parts keep it).
    parts.created = sample.creationDate.map { $0.timeIntervalSince1970 + 0.0 }
    return parts
  }
}

extension HealthSQLiteStorage {
  /// What the storage makes of `sample` ahead of its save, on any thread
  /// (`HealthSQLitePreparedRow`); nil for a correlation, whose objects the save replaces.
  static func prepare(_ sample: HealthSample) -> (any StoragePreparation)? {
    guard !sample.type.isCorrelation else { return nil }
    return HealthSQLitePreparedRow(sample)
  }
}

extension HealthRowShape {
  /// The shape of the row of `parts` (a live sample's, made from `prepared`): as
  /// `init?(_:position:)` finds it from the sample, with the content's part found ahead.
  init?(_ parts: HealthSQLiteRowParts, prepared: HealthSQLitePreparedRow) {
    guard prepared.contentHasShape, StoredValueRule.position.contains(parts.position),
      parts.created.map(StoredValueRule.instant.contains) ?? true
    else { return nil }
    var fields: UInt16 = 0
    if let revision = parts.origin.revision { fields |= 1 | revision.presentFields << 1 }
    if parts.created != nil { fields |= 1 << 4 }
    if let device = parts.origin.device { fields |= 1 << 5 | device.presentFields << 6 }
    self.init(type: parts.type, fields: fields)
  }
}
