import Foundation
import HealthSim

/// The part of a live sample's `record` row that depends on the sample's content alone,
/// made ahead of its save on the import's reading thread (`HealthSQLiteStorage.prepare(_:)`,
/// through `CheckedSample(checking:preparing:)`): the columns of the content and the `extra`
/// blob, whether the content lets the row have a shape (`HealthRowShape`), whether a row of
/// no shape reads back, and the duration the type's longest is kept from. The saving thread
/// adds the position, the UUID, the origin and the creation time (docs/store.md, "A row
/// prepared on the reader's thread (hrow17)").
///
/// Made from the sample before its save gave it a UUID, a writer and a creation time, and
/// used for the saved sample only when it fits it (`fits(_:)`); the row then written is
/// the one `HealthSQLiteRowParts(_:position:)` makes, byte for byte
/// (`HealthSQLitePreparedRowTests`).
final class HealthSQLitePreparedRow: StoragePreparation {
  /// The sample it was made from (its nested parts are compared with the saved sample's).
  let source: HealthSample
  /// The sample's times and value as given (`fits(_:)` compares them).
  let startDate: Date
  let endDate: Date
  let valueBits: UInt64
  let hasNestedParts: Bool
  let type: SampleType
  /// The row's times and value (−0.0 kept as +0.0, as the parts keep them).
  let start: Double
  let end: Double
  let value: Double
  let syncIdentifier: String?
  let extra: [UInt8]?
  let extraHasNonFiniteNumber: Bool
  /// Whether the content lets the row have a shape: no nested parts, both times and the
  /// value within their rules, the end not before the start.
  let contentHasShape: Bool
  /// For a row of no shape: whether its content reads back, at a position and with a
  /// creation time within their rules (`readsBack(_:)`).
  let contentReadsBack: Bool
  /// End minus start, as the row's dates read back (`Writer.insert`'s duration).
  let duration: Double

  init(_ sample: HealthSample) {
    source = sample
    startDate = sample.startDate
    endDate = sample.endDate
    valueBits = sample.value.bitPattern
    hasNestedParts = sample.hasNestedParts
    let parts = HealthSQLiteRowParts(sample, position: 1)
    type = parts.type
    start = parts.start
    end = parts.end
    value = parts.value
    syncIdentifier = parts.syncIdentifier
    extra = parts.extra
    extraHasNonFiniteNumber = parts.extraHasNonFiniteNumber
    let start = sample.startDate.timeIntervalSince1970
    let end = sample.endDate.timeIntervalSince1970
    contentHasShape =
      !sample.hasNestedParts && StoredValueRule.instant.contains(start)
      && StoredValueRule.instant.contains(end) && end >= start
      && HealthRecordCodec.valueRule(for: sample.type).contains(sample.value)
    // A row of no shape (nested parts, whose layout depends on their values) is read back
    // here, at position 1 with a creation time of 0 (both within their rules) and the
    // sample's own origin: the decoder checks each member on its own (and the end against
    // the start), and texts read back whatever they hold, as `HealthRowShape` has it, so
    // the row as saved reads back when its position and creation time are within their
    // rules too. Each workout read back cost the saving thread 165,000 instructions, 585 a
    // row of the 10 MB all-types import.
    if contentHasShape {
      contentReadsBack = true
    } else {
      var probe = parts
      probe.created = 0
      contentReadsBack = parts.numbersAreFinite && (try? probe.decoded()) != nil
    }
    // As `Writer.insert` measures it: the dates as the row reads them back.
    duration = Date(timeIntervalSince1970: end).timeIntervalSince(
      Date(timeIntervalSince1970: start))
  }

  /// `preparation` when it is one of these (a storage's own type, exactly).
  static func of(_ preparation: (any StoragePreparation)?) -> HealthSQLitePreparedRow? {
    guard let preparation,
      ObjectIdentifier(Swift.type(of: preparation)) == ObjectIdentifier(Self.self)
    else { return nil }
    return unsafeDowncast(preparation, to: HealthSQLitePreparedRow.self)
  }

  /// Whether `sample` (saved from `source`) has the content this row was made from: its
  /// type, times and value, and the same nested parts. A save changes only the UUID, the
  /// writer and the creation time, which the saving thread sets; anything else (a
  /// preparation handed with another sample) is not used.
  func fits(_ sample: __shared HealthSample) -> Bool {
    guard sample.type == type, sample.startDate == startDate, sample.endDate == endDate,
      sample.value.bitPattern == valueBits
    else { return false }
    let nested = sample.hasNestedParts
    guard nested == hasNestedParts else { return false }
    return !nested
      || (sample.metadata == source.metadata && sample.workout == source.workout
        && sample.objects == nil && source.objects == nil)
  }

  /// The parts of `sample`'s row at `position`: `HealthSQLiteRowParts(sample, position:)`,
  /// from these.
  func parts(of sample: __shared HealthSample, position: Int64) -> HealthSQLiteRowParts {
    var parts = HealthSQLiteRowParts(
      position: position, isDeletion: false, type: type,
      uuid: sample.uuid ?? HealthSQLitePreparedRow.noUUID, start: start, end: end, value: value,
      origin: HealthSQLiteOrigin(sample),
      created: sample.creationDate?.timeIntervalSince1970, syncIdentifier: syncIdentifier,
      deleted: nil, extra: extra)
    parts.extraHasNonFiniteNumber = extraHasNonFiniteNumber
    return parts
  }

  /// Whether the row of `parts` (made from this, of no shape) reads back as a query reads
  /// it: its content does, and its position and creation time are within their rules.
  func readsBack(_ parts: __shared HealthSQLiteRowParts) -> Bool {
    contentReadsBack && StoredValueRule.position.contains(parts.position)
      && (parts.created.map(StoredValueRule.instant.contains) ?? true)
  }

  private static let noUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

extension HealthSQLiteStorage {
  /// What the storage makes of `sample` ahead of its save, on any thread
  /// (`HealthSQLitePreparedRow`), for a sample with nested parts (metadata, a workout):
  /// nil for any other, and for a correlation, whose objects the save replaces.
  ///
  /// Only a row of no shape is prepared: its `extra` blob and its read-back are most of its
  /// cost. Every row prepared (a class object per sample, retained and released as it went
  /// from hand to hand) saved the saving thread 2.0 % of its instructions at 100 MB but cost
  /// the reader 13 % and the process 5 %, and at 1 GB the saving thread's CPU did not fall
  /// (docs/performance.md, hrow17).
  static func prepare(_ sample: HealthSample) -> (any StoragePreparation)? {
    guard sample.hasNestedParts, !sample.type.isCorrelation else { return nil }
    return HealthSQLitePreparedRow(sample)
  }
}

extension HealthRowShape {
  /// The shape of the row of `parts` (a live sample's, made from `prepared`): as
  /// `init?(_:position:)` finds it from the sample, with the content's part found ahead.
  init?(_ parts: __shared HealthSQLiteRowParts, prepared: __shared HealthSQLitePreparedRow) {
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
