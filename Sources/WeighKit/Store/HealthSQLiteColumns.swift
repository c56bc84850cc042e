// checked-file: byte arithmetic on fixed-width integers and the bit patterns of Doubles only;
// no Int(…) of a Double or of text here.
import Foundation
import GRDB
import HealthSim

/// The columns of one `record` row of `health.sqlite` that queries filter and add on, as
/// read and checked (`HealthSQLiteStorage`).
///
/// SQLite keeps no checksum of a row: a flipped byte in a column that no index holds, or in
/// a column that an index also holds, is read back silently. So every row carries `crc`, a
/// CRC-32 of these columns (the JSON row's own CRC-32, `row_crc`, among them), checked
/// whenever the columns are read; `row_crc` is checked whenever the JSON row is decoded.
struct HealthSQLiteColumns: Equatable {
  var position: Int64
  var isDeletion: Bool
  var type: SampleType
  var uuid: UUID
  var start: Double
  var value: Double
  var bundle: String
  var syncIdentifier: String?
  var deleted: Double?
  var rowChecksum: UInt32

  /// The columns of `record` whose JSON row has the checksum `rowChecksum`.
  init(_ record: HealthRecord, rowChecksum: UInt32) {
    switch record {
    case .sample(let sample, let position):
      self.init(sample, position: position, rowChecksum: rowChecksum)
    case .deletion(let deleted, let position):
      self.init(
        position: position, isDeletion: true, type: deleted.type, uuid: deleted.uuid,
        start: deleted.startDate.timeIntervalSince1970 + 0.0, value: 0,
        bundle: deleted.source.bundleIdentifier, syncIdentifier: nil,
        deleted: deleted.deletionDate.timeIntervalSince1970 + 0.0, rowChecksum: rowChecksum)
    }
  }

  /// The columns of a live sample's row at `position` whose JSON row has the checksum
  /// `rowChecksum` (the storage's save has the sample, not a record around it).
  ///
  /// The numbers are kept with +0.0 for a zero of either sign (x + 0.0 is x for every
  /// other number): SQLite stores a REAL that is a whole number as an integer and reads
  /// −0.0 back as +0.0, so a checksum of −0.0's bits made the row read as damaged
  /// (`health add -0 steps` left a store that no command could read). The JSON row keeps
  /// the sign; the columns are compared with it as numbers, where −0.0 == +0.0.
  init(_ sample: HealthSample, position: Int64, rowChecksum: UInt32) {
    self.position = position
    self.rowChecksum = rowChecksum
    isDeletion = false
    type = sample.type
    uuid = sample.uuid ?? Self.noUUID
    start = sample.startDate.timeIntervalSince1970 + 0.0
    value = sample.value + 0.0
    bundle = sample.source?.bundleIdentifier ?? ""
    syncIdentifier = sample.syncIdentifier
    deleted = nil
  }

  private init(
    position: Int64, isDeletion: Bool, type: SampleType, uuid: UUID, start: Double,
    value: Double, bundle: String, syncIdentifier: String?, deleted: Double?,
    rowChecksum: UInt32
  ) {
    self.position = position
    self.isDeletion = isDeletion
    self.type = type
    self.uuid = uuid
    self.start = start
    self.value = value
    self.bundle = bundle
    self.syncIdentifier = syncIdentifier
    self.deleted = deleted
    self.rowChecksum = rowChecksum
  }

  /// The columns of a format-2 row, from its checked parts: the bundle its origin's (no
  /// JSON row, so no `rowChecksum`: 0).
  init(_ parts: HealthSQLiteRowParts) {
    self.init(
      position: parts.position, isDeletion: parts.isDeletion, type: parts.type,
      uuid: parts.uuid, start: parts.start, value: parts.value, bundle: parts.origin.bundle,
      syncIdentifier: parts.syncIdentifier, deleted: parts.deleted, rowChecksum: 0)
  }

  /// Stands for a missing UUID (a stored sample always has one; `apply` checks it first).
  private static let noUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

  /// The columns a query selects, in this order, before anything else.
  static let selection =
    "pos, kind, type, uuid, start, value, bundle, sync_id, deleted, row_crc, crc"
  static let count = 11

  /// Binds the values to insert as parameters `base + 1` to `base + count`, in
  /// `selection`'s order.
  func bind(to binding: inout HealthSQLiteBinding, from base: CInt = 0) {
    binding.bind(base + 1, integer: position)
    binding.bind(base + 2, integer: isDeletion ? 1 : 0)
    binding.bind(base + 3, text: type.rawValue)
    withUnsafeBytes(of: uuid.uuid) { binding.bind(base + 4, blob: $0) }
    binding.bind(base + 5, real: start)
    binding.bind(base + 6, real: value)
    binding.bind(base + 7, text: bundle)
    binding.bind(base + 8, text: syncIdentifier)
    binding.bind(base + 9, real: deleted)
    binding.bind(base + 10, integer: Int64(rowChecksum))
    binding.bind(base + 11, integer: Int64(checksum))
  }

  /// The CRC-32 of the columns: each one's bytes in `selection`'s order (numbers in
  /// little-endian order), texts with their length, optional ones with a presence byte.
  /// Added to the checksum piece by piece, without an array of the bytes.
  var checksum: UInt32 {
    var crc = ZipCRC32()
    func add(_ value: UInt64) {
      withUnsafeBytes(of: value.littleEndian) { crc.update($0) }
    }
    func add(byte: UInt8) {
      withUnsafeBytes(of: byte) { crc.update($0) }
    }
    func add(_ text: String) {
      var text = text
      text.withUTF8 { utf8 in
        add(UInt64(utf8.count))
        crc.update(UnsafeRawBufferPointer(utf8))
      }
    }
    add(UInt64(bitPattern: position))
    add(byte: isDeletion ? 1 : 0)
    add(type.rawValue)
    withUnsafeBytes(of: uuid.uuid) { crc.update($0) }
    add(start.bitPattern)
    add(value.bitPattern)
    add(bundle)
    add(byte: syncIdentifier == nil ? 0 : 1)
    if let syncIdentifier { add(syncIdentifier) }
    add(byte: deleted == nil ? 0 : 1)
    if let deleted { add(deleted.bitPattern) }
    add(UInt64(rowChecksum))
    return crc.value
  }

  /// Whether `stored` is the checksum an earlier weigh wrote for these columns with a value
  /// of −0.0 (which SQLite reads back as +0.0; the initializers now keep +0.0), so that
  /// such a row, written before, reads again.
  func matchesWithNegativeZero(_ stored: UInt32) -> Bool {
    guard value == 0 else { return false }
    var written = self
    written.value = -0.0
    return written.checksum == stored
  }

  /// The columns of `row` (selected as `selection`), each of its type, and their checksum.
  ///
  /// - Throws: `HealthSQLiteDamage` naming the row's position and what is wrong.
  static func read(_ row: some HealthSQLiteRow) throws(HealthSQLiteDamage) -> HealthSQLiteColumns {
    let positionValue = row.value(at: 0)
    guard case .int64(let position) = positionValue.storage else {
      throw HealthSQLiteDamage(position: nil, "a record's position is not a whole number")
    }
    func damage(_ message: String) -> HealthSQLiteDamage {
      HealthSQLiteDamage(position: position, message)
    }
    func integer(_ index: Int, _ name: String) throws(HealthSQLiteDamage) -> Int64 {
      let value = row.value(at: index)
      guard case .int64(let number) = value.storage else {
        throw damage("\(name) is not a whole number")
      }
      return number
    }
    func real(_ index: Int, _ name: String) throws(HealthSQLiteDamage) -> Double? {
      let value = row.value(at: index)
      switch value.storage {
      case .null: return nil
      case .double(let number) where number.isFinite: return number
      default: throw damage("\(name) is not a finite number")
      }
    }
    func text(_ index: Int, _ name: String) throws(HealthSQLiteDamage) -> String? {
      let value = row.value(at: index)
      switch value.storage {
      case .null: return nil
      case .string(let text): return text
      default: throw damage("\(name) is not text")
      }
    }
    func checksum(_ index: Int, _ name: String) throws(HealthSQLiteDamage) -> UInt32 {
      let number = try integer(index, name)
      guard let value = UInt32(exactly: number) else {
        throw damage("\(name) is not a 32-bit checksum")
      }
      return value
    }
    let kind = try integer(1, "kind")
    guard kind == 0 || kind == 1 else { throw damage("kind \(kind) is neither 0 nor 1") }
    guard let typeName = try text(2, "type"), let type = SampleType(rawValue: typeName) else {
      throw damage("type is not a sample type")
    }
    let uuidValue = row.value(at: 3)
    guard case .blob(let uuidBytes) = uuidValue.storage, uuidBytes.count == 16 else {
      throw damage("uuid is not 16 bytes")
    }
    guard let start = try real(4, "start"), let value = try real(5, "value") else {
      throw damage("start or value is missing")
    }
    guard let bundle = try text(6, "bundle") else { throw damage("bundle is missing") }
    let columns = HealthSQLiteColumns(
      position: position, isDeletion: kind == 1, type: type,
      uuid: uuidBytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) },
      start: start, value: value, bundle: bundle, syncIdentifier: try text(7, "sync_id"),
      deleted: try real(8, "deleted"), rowChecksum: try checksum(9, "row_crc"))
    let stored = try checksum(10, "crc")
    guard columns.checksum == stored || columns.matchesWithNegativeZero(stored) else {
      throw damage("the columns do not match their checksum (changed outside weigh, or damaged)")
    }
    return columns
  }
}

/// A `record` row (or another row of `health.sqlite`) that is not what weigh wrote.
struct HealthSQLiteDamage: Error {
  /// The record's position, when known.
  var position: Int64?
  /// What is wrong, lower case.
  var message: String

  init(position: Int64?, _ message: String) {
    self.position = position
    self.message = message
  }

  /// "record at position 12: …", or the message alone.
  var description: String {
    position.map { "record at position \($0): \(message)" } ?? message
  }
}

/// A row's values by column, as `HealthSQLiteColumns.read` and `HealthSQLiteStorage.decode`
/// read them: a GRDB `Row`, or the current row of a statement stepped directly
/// (`HealthSQLiteBinding.rows`), which costs no `Row` (a `Row` builds a dictionary of its
/// column names, a tenth of ten years' run on disk).
protocol HealthSQLiteRow {
  func value(at index: Int) -> DatabaseValue
}

extension Row: HealthSQLiteRow {
  func value(at index: Int) -> DatabaseValue { self[index] }
}
