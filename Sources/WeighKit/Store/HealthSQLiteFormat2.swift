// checked-file: byte arithmetic on fixed-width integers and the bit patterns of Doubles only;
// no Int(…) of a Double or of text here.
import Foundation
import GRDB
import HealthSim

/// `health.sqlite` format 2's tables, and a `record` row's columns as bound, checksummed
/// and read (docs/store.md, "Format 2: a leaner row"): the layout `HealthSQLiteStorage`
/// writes.
enum HealthSQLiteFormat2 {
  /// The layout's version (`PRAGMA user_version` and the `format` meta row).
  static let version: Int64 = 2

  /// The record and origin tables and the record's indexes (the state, meta and
  /// pending-journal tables are every format's: `HealthSQLiteStorage.sharedTables`; a whole
  /// new file is `HealthSQLiteStorage.creation(version: 2)`).
  static let recordTables = """
    \(recordTable)
    \(HealthSQLiteUUIDIndex.typeCreation);
    CREATE INDEX record_type_start ON record(type, start);
    \(HealthSQLiteUUIDIndex.creation);
    \(changeIndexes)
    \(originTable)
    """

  /// The `record` table of formats 2 and 3 (format 3 changed only its type indexes).
  static let recordTable = """
    CREATE TABLE record (
      pos INTEGER PRIMARY KEY,
      kind INTEGER NOT NULL,
      type INTEGER NOT NULL,
      uuid BLOB NOT NULL,
      start REAL NOT NULL,
      end REAL NOT NULL,
      value REAL NOT NULL,
      origin INTEGER NOT NULL,
      created REAL,
      sync_id TEXT,
      deleted REAL,
      extra BLOB,
      crc INTEGER NOT NULL
    ) STRICT;
    """

  /// The indexes of synced and deleted records, formats 2 and 3.
  static let changeIndexes = """
    CREATE INDEX record_sync ON record(sync_id) WHERE sync_id IS NOT NULL;
    CREATE INDEX record_deleted ON record(deleted) WHERE kind = 1;
    """

  /// The `origin` table of formats 2 and 3.
  static let originTable = """
    CREATE TABLE origin (
      id INTEGER PRIMARY KEY,
      json BLOB NOT NULL,
      crc INTEGER NOT NULL
    ) STRICT;
    """

  /// A record's columns, in this order.
  static let selection =
    "pos, kind, type, uuid, start, end, value, origin, created, sync_id, deleted, extra, crc"
  static let count = 13
  static let insertRecord = "INSERT INTO record (\(selection)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
  static let insertOrigin = "INSERT INTO origin (id, json, crc) VALUES (?, ?, ?)"
  static let readOrigins = "SELECT id, json, crc FROM origin"

  /// The CRC-32 of an origin row: its id's eight bytes (little-endian), then its JSON.
  static func originChecksum(id: Int64, json: [UInt8]) -> UInt32 {
    var crc = ZipCRC32()
    withUnsafeBytes(of: UInt64(bitPattern: id).littleEndian) { crc.update($0) }
    json.withUnsafeBytes { crc.update($0) }
    return crc.value
  }

  /// The checked origins of `origin`'s rows, by id.
  ///
  /// - Throws: `HealthSQLiteDamage` for a row whose values or checksum are wrong.
  static func origins(_ db: Database, _ statements: HealthSQLiteStatements? = nil) throws
    -> [Int64: HealthSQLiteOrigin]
  {
    var origins: [Int64: HealthSQLiteOrigin] = [:]
    let statement = try statements?(.readOrigins, db) ?? db.cachedStatement(sql: readOrigins)
    try HealthSQLiteBinding(statement).rows { row in
      guard case .int64(let id) = row.value(at: 0).storage,
        case .blob(let data) = row.value(at: 1).storage,
        case .int64(let crc) = row.value(at: 2).storage,
        crc == Int64(originChecksum(id: id, json: Array(data)))
      else {
        throw HealthSQLiteDamage(
          position: nil,
          "an origin row does not match its checksum (changed outside weigh, or damaged)")
      }
      do throws(JSONSyntaxError) {
        origins[id] = try HealthSQLiteOrigin.read(Array(data))
      } catch {
        throw HealthSQLiteDamage(position: nil, "the origin row \(id): \(error.message)")
      }
    }
    return origins
  }
}

extension HealthSQLiteRowParts {
  /// The CRC-32 of the row's columns, with `originID` for its origin: each one's bytes in
  /// `HealthSQLiteFormat2.selection`'s order (numbers little-endian, the type by its code),
  /// texts and `extra` with their length, optional ones after a presence byte.
  ///
  /// The bytes are gathered in one buffer and summed at once (a plain row's 69–77 bytes fold
  /// 16 at a time, `ZipCRC32.update`), where each column's few bytes were summed on their
  /// own: 1,380 instructions a row of the all-types import, now 1,020 (callgrind, the 10 MB
  /// export; docs/performance.md, "The saving thread's storage, again (hsave12)").
  /// `HealthSQLiteRowChecksumTests` checks it against the column-by-column sum.
  func checksum(originID: Int64) -> UInt32 {
    var bytes = HealthSQLiteChecksumBytes()
    bytes.add(UInt64(bitPattern: position))
    bytes.add(byte: isDeletion ? 1 : 0)
    bytes.add(UInt64(bitPattern: HealthSQLiteTypeCode.code(type)))
    bytes.add(uuid: uuid.uuid)
    bytes.add(start.bitPattern)
    bytes.add(end.bitPattern)
    bytes.add(value.bitPattern)
    bytes.add(UInt64(bitPattern: originID))
    bytes.add(optional: created)
    bytes.add(byte: syncIdentifier == nil ? 0 : 1)
    if let syncIdentifier { bytes.add(text: syncIdentifier) }
    bytes.add(optional: deleted)
    bytes.add(byte: extra == nil ? 0 : 1)
    if let extra { bytes.add(blob: extra) }
    return bytes.sum()
  }

  /// Binds the row to insert, with `originID` for its origin, as parameters `base + 1` to
  /// `base + 13` in `HealthSQLiteFormat2.selection`'s order.
  ///
  /// With `uuidIn`, the UUID is stored there and bound without a copy: the caller keeps
  /// that memory as it is until the statement's parameters are cleared
  /// (`HealthSQLiteBinding.bind(_:unchangingBlob:)`).
  func bind(
    to binding: inout HealthSQLiteBinding, originID: Int64, from base: CInt = 0,
    uuidIn storage: UnsafeMutablePointer<uuid_t>? = nil
  ) {
    binding.bind(base + 1, integer: position)
    binding.bind(base + 2, integer: isDeletion ? 1 : 0)
    binding.bind(base + 3, integer: HealthSQLiteTypeCode.code(type))
    if let storage {
      storage.initialize(to: uuid.uuid)
      binding.bind(
        base + 4,
        unchangingBlob: UnsafeRawBufferPointer(start: storage, count: MemoryLayout<uuid_t>.size))
    } else {
      withUnsafeBytes(of: uuid.uuid) { binding.bind(base + 4, blob: $0) }
    }
    binding.bind(base + 5, real: start)
    binding.bind(base + 6, real: end)
    binding.bind(base + 7, real: value)
    binding.bind(base + 8, integer: originID)
    binding.bind(base + 9, real: created)
    binding.bind(base + 10, text: syncIdentifier)
    binding.bind(base + 11, real: deleted)
    if let extra {
      extra.withUnsafeBytes { binding.bind(base + 12, blob: $0) }
    } else {
      binding.bind(base + 12, text: nil)
    }
    binding.bind(base + 13, integer: Int64(checksum(originID: originID)))
  }

  /// The parts of `row` (selected as `HealthSQLiteFormat2.selection`), each column of its
  /// type, checked against the row's checksum, its origin one of `origins`, or, for an id
  /// `isUnknown` says is on a page SQLite cannot read (the repair), `HealthSQLiteOrigin.unknown`.
  ///
  /// - Throws: `HealthSQLiteDamage` naming the row's position and what is wrong.
  static func read(
    _ row: some HealthSQLiteRow, origins: [Int64: HealthSQLiteOrigin],
    isUnknown: ((Int64) -> Bool)? = nil
  ) throws(HealthSQLiteDamage) -> HealthSQLiteRowParts {
    guard case .int64(let position) = row.value(at: 0).storage else {
      throw HealthSQLiteDamage(position: nil, "a record's position is not a whole number")
    }
    func damage(_ message: String) -> HealthSQLiteDamage {
      HealthSQLiteDamage(position: position, message)
    }
    func integer(_ index: Int, _ name: String) throws(HealthSQLiteDamage) -> Int64 {
      guard case .int64(let number) = row.value(at: index).storage else {
        throw damage("\(name) is not a whole number")
      }
      return number
    }
    func real(_ index: Int, _ name: String) throws(HealthSQLiteDamage) -> Double? {
      switch row.value(at: index).storage {
      case .null: return nil
      case .double(let number) where number.isFinite: return number
      default: throw damage("\(name) is not a finite number")
      }
    }
    func required(_ index: Int, _ name: String) throws(HealthSQLiteDamage) -> Double {
      guard let number = try real(index, name) else { throw damage("\(name) is missing") }
      return number
    }
    let kind = try integer(1, "kind")
    guard kind == 0 || kind == 1 else { throw damage("kind \(kind) is neither 0 nor 1") }
    guard let type = HealthSQLiteTypeCode.type(try integer(2, "type")) else {
      throw damage("type is not a sample type's code")
    }
    guard case .blob(let uuidBytes) = row.value(at: 3).storage, uuidBytes.count == 16 else {
      throw damage("uuid is not 16 bytes")
    }
    let originID = try integer(7, "origin")
    guard
      let origin = origins[originID]
        ?? (isUnknown?(originID) == true ? HealthSQLiteOrigin.unknown : nil)
    else {
      throw damage("its origin \(originID) is not in the origin table")
    }
    var syncIdentifier: String?
    switch row.value(at: 9).storage {
    case .null: break
    case .string(let text): syncIdentifier = text
    default: throw damage("sync_id is not text")
    }
    var extra: [UInt8]?
    switch row.value(at: 11).storage {
    case .null: break
    case .blob(let data): extra = Array(data)
    default: throw damage("extra is not a blob")
    }
    guard case .int64(let stored) = row.value(at: 12).storage,
      let checksum = UInt32(exactly: stored)
    else { throw damage("crc is not a 32-bit checksum") }
    let parts = HealthSQLiteRowParts(
      position: position, isDeletion: kind == 1, type: type,
      uuid: uuidBytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) },
      start: try required(4, "start"), end: try required(5, "end"),
      value: try required(6, "value"), origin: origin, created: try real(8, "created"),
      syncIdentifier: syncIdentifier, deleted: try real(10, "deleted"), extra: extra)
    guard parts.checksum(originID: originID) == checksum else {
      throw damage("the columns do not match their checksum (changed outside weigh, or damaged)")
    }
    return parts
  }
}
