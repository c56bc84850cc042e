import Foundation
import HealthSim

/// What decides the layout of a record's JSON row (`HealthRecordCodec.encode`): its kind and
/// type, and which of its optional fields it has. Two rows of one shape are written by the
/// same steps of the encoder, with only the values in their places differing (texts through
/// `JSONWriter.write(_: String)`, numbers through its number writers, both checked by their
/// own tests), so reading one of them back checks the steps of both.
///
/// The decoder also checks every number against its rule (`StoredValueRule`: times in
/// 1900–9999, the value in its type's range, the end not before the start, whole
/// positions and sync versions); those checks are made here on the record's own numbers
/// (the writer writes each number so that it reads back as the same Double), for every row.
///
/// A row with nested parts written through Codable (metadata, a workout, a correlation's
/// objects) has no shape: their layout depends on their values, and such a row is always
/// read back; so is a row with a number its rule refuses, whose read-back then says which
/// and where, as before.
struct HealthRowShape: Hashable {
  var type: SampleType
  /// One bit per optional field present, and one for a deletion.
  var fields: UInt16

  init?(_ record: HealthRecord) {
    switch record {
    case .sample(let sample, let position):
      self.init(sample, position: position)
    case .deletion(let deleted, let position):
      guard
        Self.loads(position: position, start: deleted.startDate, end: deleted.endDate),
        StoredValueRule.instant.contains(deleted.deletionDate.timeIntervalSince1970),
        deleted.syncVersion.map(StoredValueRule.syncVersion.contains) ?? true
      else { return nil }
      var fields: UInt16 = 1 << 13
      if deleted.syncIdentifier != nil { fields |= 1 << 14 }
      if deleted.syncVersion != nil { fields |= 1 << 15 }
      self.init(type: deleted.type, fields: fields)
    }
  }

  init(type: SampleType, fields: UInt16) {
    self.type = type
    self.fields = fields
  }

  /// The shape of a live sample's row at `position` (the storage's save has the sample,
  /// not a record around it).
  ///
  /// The sample is borrowed (`__shared`), not copied in as an initializer's argument is by
  /// default, and the workout and objects are asked whether they are there without a copy:
  /// `sample.workout == nil` compared two optional workouts, each copied, for every row.
  /// The shape cost 2,330 instructions a row of the all-types import, now 770 (callgrind,
  /// the 10 MB export; docs/performance.md, "The saving thread's storage, again (hsave12)").
  init?(_ sample: __shared HealthSample, position: Int64) {
    var fields: UInt16 = 0
    func mark(_ present: Bool, _ bit: UInt16) { if present { fields |= 1 << bit } }
    guard !sample.hasNestedParts,
      Self.loads(position: position, start: sample.startDate, end: sample.endDate),
      HealthRecordCodec.valueRule(for: sample.type).contains(sample.value),
      sample.creationDate.map({ StoredValueRule.instant.contains($0.timeIntervalSince1970) })
        ?? true
    else { return nil }
    type = sample.type
    // The revision's and device's fields by their bits (bits 1–3 and 6–12), each getter a copy.
    if let revision = sample.sourceRevision { fields |= 1 | revision.presentFields << 1 }
    mark(sample.creationDate != nil, 4)
    if let device = sample.device { fields |= 1 << 5 | device.presentFields << 6 }
    self.fields = fields
  }

  /// Whether the decoder takes these: a position by its rule, both times by theirs, the
  /// end not before the start.
  private static func loads(position: Int64, start: Date, end: Date) -> Bool {
    let start = start.timeIntervalSince1970
    let end = end.timeIntervalSince1970
    return StoredValueRule.position.contains(position) && StoredValueRule.instant.contains(start)
      && StoredValueRule.instant.contains(end) && end >= start
  }
}

extension HealthSQLiteStorage.Writer {
  /// Checks that the row of `parts`, of `shape` (nil: none), reads back as a query reads
  /// it (`HealthSQLiteRowParts.record()`), once per row shape in a transaction or command
  /// (`HealthRowShape`), and for every row that has no shape; returns the record as read
  /// back when it was read.
  ///
  /// Reading back every row cost 18,900 instructions a sample saved, a fifth of a save in
  /// the all-types import (docs/performance.md, "The all-types import on two threads").
  ///
  /// - Throws: `HealthStorageError` when the row does not read back.
  mutating func checkReadBack(_ shape: HealthRowShape?, _ parts: HealthSQLiteRowParts)
    throws -> HealthRecord?
  {
    // The last shape first: a run of rows shares one, and the set's hash cost 800
    // instructions a row (docs/performance.md, hrow15).
    if let shape, shape == lastReadShape || readShapes.contains(shape) {
      lastReadShape = shape
      return nil
    }
    let loaded = try Self.readBack(parts)
    if let shape {
      readShapes.insert(shape)
      lastReadShape = shape
    }
    return loaded
  }

  /// Checks that `bytes`, a JSON row as format 1 held it for `record`, reads back
  /// (`HealthRecordCodec.decode`), once per row shape as `checkReadBack(_:_:)` reads a row's
  /// parts: the codec's own check, which format 2 keeps for `extra` and the rows it decodes.
  @discardableResult
  mutating func checkReadBack(_ record: HealthRecord, _ bytes: [UInt8]) throws -> HealthRecord? {
    let shape = HealthRowShape(record)
    if let shape, readShapes.contains(shape) { return nil }
    let loaded = try Self.readBack(bytes, position: record.position)
    if let shape { readShapes.insert(shape) }
    return loaded
  }

  /// The record the JSON row `bytes` holds, as format 1's query decodes it.
  ///
  /// - Throws: `HealthStorageError` when it does not read back.
  static func readBack(_ bytes: [UInt8], position: Int64) throws -> HealthRecord {
    let result = bytes.withUnsafeBufferPointer {
      buffer -> Result<HealthRecord, JSONSyntaxError> in
      var reader = JSONReader(bytes: buffer)
      do throws(JSONSyntaxError) {
        return .success(try HealthRecordCodec.decode(from: &reader))
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let record): return record
    case .failure(let error):
      throw HealthStorageError(
        "the record at position \(position) would not load again: \(error.message)")
    }
  }

  /// The record the row of `parts` holds, as a query reads it.
  ///
  /// - Throws: `HealthStorageError` when it does not read back.
  static func readBack(_ parts: HealthSQLiteRowParts) throws -> HealthRecord {
    do throws(JSONSyntaxError) {
      return try parts.decoded()
    } catch {
      throw HealthStorageError(
        "the record at position \(parts.position) would not load again: \(error.message)")
    }
  }
}
