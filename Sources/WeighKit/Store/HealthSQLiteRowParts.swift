import Foundation
import HealthSim

/// A record of `health.sqlite` format 2 split as its row keeps it (docs/performance.md,
/// "health.sqlite format 2: the row measured first"; not yet the layout any store uses):
/// the columns, an `origin` kept once for every row of the same writer, and `extra`, the
/// few members no column holds (metadata, a workout, a correlation's objects, a deletion's
/// sync version), NULL for nearly every row of an export.
///
/// Format 1 repeats the columns, the source and the device in a JSON row of 376 bytes on
/// average; the sqlite3 shell inserts the 1 GB export's 1.25 million rows in 12.8 s of CPU
/// in that layout and 4–5 s in this one (`scripts/bench-health-rows.sh`).
struct HealthSQLiteRowParts: Equatable {
  var position: Int64
  var isDeletion: Bool
  var type: SampleType
  var uuid: UUID
  var start: Double
  var end: Double
  var value: Double
  var origin: HealthSQLiteOrigin
  var created: Double?
  var syncIdentifier: String?
  var deleted: Double?
  /// The members no column holds, as they stand in format 1's JSON row, without braces
  /// (`"metadata":{…},"workout":{…}`); nil when there are none.
  var extra: [UInt8]?
  /// Set when a number of the nested parts was not finite (written as `null` in `extra`,
  /// where `JSONEncoder` threw and the member was left out): the row is refused.
  var extraHasNonFiniteNumber = false

  /// Parts as a row's columns hold them (`read(_:origins:)`). A zero of either sign is
  /// kept as +0.0: SQLite stores a REAL that is a whole number as an integer, so −0.0 reads
  /// back as +0.0, and a checksum of −0.0's bits would then find the row damaged (as format
  /// 1's columns did until `HealthSQLiteColumns` kept +0.0 too).
  init(
    position: Int64, isDeletion: Bool, type: SampleType, uuid: UUID, start: Double,
    end: Double, value: Double, origin: HealthSQLiteOrigin, created: Double?,
    syncIdentifier: String?, deleted: Double?, extra: [UInt8]?
  ) {
    // x + 0.0 is x for every number but −0.0, which becomes +0.0.
    self.position = position
    self.isDeletion = isDeletion
    self.type = type
    self.uuid = uuid
    self.start = start + 0.0
    self.end = end + 0.0
    self.value = value + 0.0
    self.origin = origin
    self.created = created.map { $0 + 0.0 }
    self.syncIdentifier = syncIdentifier
    self.deleted = deleted.map { $0 + 0.0 }
    self.extra = extra
  }

  /// The parts of `record`.
  init(_ record: HealthRecord) {
    switch record {
    case .sample(let sample, let position):
      self.init(sample, position: position)
    case .deletion(let deleted, let position):
      self.init(deleted, position: position)
    }
  }

  /// The parts of a deleted-object record's row at `position`.
  private init(_ deleted: DeletedObjectRecord, position: Int64) {
    let extra = deleted.syncVersion.map { version in
      var writer = JSONWriter()
      writer.raw("\"sync_version\":")
      writer.write(version)
      return writer.bytes
    }
    self.init(
      position: position, isDeletion: true, type: deleted.type, uuid: deleted.uuid,
      start: deleted.startDate.timeIntervalSince1970, end: deleted.endDate.timeIntervalSince1970,
      value: 0, origin: HealthSQLiteOrigin(source: deleted.source), created: nil,
      syncIdentifier: deleted.syncIdentifier,
      deleted: deleted.deletionDate.timeIntervalSince1970, extra: extra)
  }

  /// The parts of a live sample's row at `position`, as `init(position:…)` makes them.
  ///
  /// The sample is borrowed (`__shared`), and each part set here: through `init(position:…)`
  /// the sample and the parts were each copied and destroyed once more for every row saved.
  /// The parts cost 4,370 instructions a row of the all-types import, now 3,220, a
  /// workout's encoding included (callgrind, the 10 MB export; docs/performance.md, "The
  /// saving thread's storage, again (hsave12)").
  /// Nested parts (metadata, a workout, objects) are written only when there are some.
  init(_ sample: __shared HealthSample, position: Int64) {
    self.position = position
    isDeletion = false
    type = sample.type
    uuid = sample.uuid ?? HealthSQLiteRowParts.noUUID
    // x + 0.0 is x for every number but −0.0, which becomes +0.0 (see `init(position:…)`).
    start = sample.startDate.timeIntervalSince1970 + 0.0
    end = sample.endDate.timeIntervalSince1970 + 0.0
    value = sample.value + 0.0
    origin = HealthSQLiteOrigin(sample)
    created = sample.creationDate.map { $0.timeIntervalSince1970 + 0.0 }
    // Asked once, in place (the metadata, workout and objects were read for it, a copy each).
    let nested = sample.hasNestedParts
    syncIdentifier = nested ? sample.syncIdentifier : nil
    deleted = nil
    extra = nil
    guard nested else { return }
    var writer = JSONWriter()
    HealthRecordCodec.writeNestedParts(of: sample, into: &writer)
    extra = writer.bytes.isEmpty ? nil : writer.bytes
    extraHasNonFiniteNumber = writer.wroteNonFiniteNumber
  }

  /// Whether every number is finite (a row with another is never written).
  var numbersAreFinite: Bool {
    start.isFinite && end.isFinite && value.isFinite && (created?.isFinite ?? true)
      && (deleted?.isFinite ?? true) && !extraHasNonFiniteNumber
  }

  /// Stands for a missing UUID (a stored sample always has one; `apply` checks it first).
  private static let noUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

  /// The record these parts hold, as format 1's decoder reads the same record's JSON row:
  /// every number checked by its rule (`StoredValueRule`), the dates through seconds since
  /// 1970. A row without extra members whose numbers pass (`HealthRowShape`) is built from
  /// the parts; any other goes through `HealthRecordCodec.decode`, so metadata, workouts
  /// and objects are read, and a number out of its rule refused, in the decoder's words.
  ///
  /// - Throws: `HealthSQLiteDamage` naming the position and what is wrong.
  func record() throws(HealthSQLiteDamage) -> HealthRecord {
    guard isDeletion == (deleted != nil) else {
      throw HealthSQLiteDamage(
        position: position, "a deletion needs its deletion time, and only a deletion has one")
    }
    do throws(JSONSyntaxError) {
      return try decoded()
    } catch {
      throw HealthSQLiteDamage(position: position, "the row: \(error.message)")
    }
  }

  /// The record, without `record()`'s check of the kind against the deletion time (which
  /// the writer's parts always pass): what the writer reads back before it writes a row.
  ///
  /// - Throws: `JSONSyntaxError`: the decoder's refusal, in its words.
  func decoded() throws(JSONSyntaxError) -> HealthRecord {
    let plain = plainRecord()
    if extra == nil, HealthRowShape(plain) != nil { return plain }
    var writer = JSONWriter()
    HealthRecordCodec.encode(plain, into: &writer)
    if let extra {
      // The plain row's closing brace, then the extra members and the brace again: the
      // decoder reads members in any order.
      writer.bytes.removeLast()
      writer.raw(byte: UInt8(ascii: ","))
      writer.bytes.append(contentsOf: extra)
      writer.raw(byte: UInt8(ascii: "}"))
    }
    return try JSONReader.withReader(over: writer.bytes) { (reader) throws(JSONSyntaxError) in
      try HealthRecordCodec.decode(from: &reader)
    }
  }

  /// The record without its extra members, its dates through seconds since 1970.
  private func plainRecord() -> HealthRecord {
    func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
    if isDeletion {
      var kept: Metadata = [:]
      if let syncIdentifier { kept[MetadataKey.syncIdentifier] = .string(syncIdentifier) }
      let sample = HealthSample(
        uuid: uuid, type: type, startDate: date(start), endDate: date(end), value: 0,
        sourceRevision: origin.source.map { SourceRevision(source: $0) }, device: nil,
        metadata: kept, creationDate: nil, workout: nil)
      return .deletion(
        DeletedObjectRecord(deleting: sample, at: date(deleted ?? 0)), position: position)
    }
    let sample = HealthSample(
      uuid: uuid, type: type, startDate: date(start), endDate: date(end), value: value,
      sourceRevision: origin.revision, device: origin.device, metadata: [:],
      creationDate: created.map(date), workout: nil)
    return .sample(sample, position: position)
  }
}

/// Who wrote a record, kept once per distinct value in format 2's `origin` table: the
/// source, the revision's version, product type and system version, and the device. An
/// export's 1.25 million rows have a handful (one per source and software version).
struct HealthSQLiteOrigin: Hashable {
  /// The source and the revision's texts, as the sample holds them (one shared reference):
  /// nil without a source. The five texts were kept here one by one: made from a sample they
  /// cost 780 instructions a row, and every copy of the origin (the row's parts are copied
  /// on their way to the insert, the last origin kept once a row) retained each of them,
  /// 11 M instructions more of the 10 MB all-types import's saving thread, 880 a row
  /// (callgrind; docs/performance.md, hrow15).
  let revision: SourceRevision?
  let device: HealthDevice?

  init(
    source: HealthSource?, version: String? = nil, product: String? = nil,
    system: String? = nil, device: HealthDevice? = nil
  ) {
    revision = source.map {
      SourceRevision(
        source: $0, version: version, productType: product, operatingSystemVersion: system)
    }
    self.device = device
  }

  /// A sample's writer and device (the sample borrowed, not copied in).
  init(_ sample: __shared HealthSample) {
    revision = sample.sourceRevision
    device = sample.device
  }

  /// The origin of a record whose own is on a page SQLite cannot read (`weigh check
  /// --repair`): no source revision and no device, as HealthSim models a sample that names
  /// no writer (HealthKit's objects then show the Health app as its source). The repair says
  /// which records it gave it; nothing else does.
  static let unknown = HealthSQLiteOrigin(source: nil)

  var source: HealthSource? { revision?.source }
  var version: String? { revision?.version }
  var product: String? { revision?.productType }
  var system: String? { revision?.operatingSystemVersion }

  /// The revision and the device compared where they stand (each a shared reference:
  /// the same one is equal at once, `SharedFields`), without the copies of the derived
  /// `==`. The derived `hash(into:)` hashes the same fields.
  static func == (left: HealthSQLiteOrigin, right: HealthSQLiteOrigin) -> Bool {
    switch left.revision {
    case .none:
      if case .some = right.revision { return false }
    case .some(let revision):
      guard case .some(let other) = right.revision, revision == other else { return false }
    }
    switch left.device {
    case .none:
      if case .some = right.device { return false }
    case .some(let device):
      guard case .some(let other) = right.device, device == other else { return false }
    }
    return true
  }

  /// The bundle identifier queries filter by ("" without a source, as format 1's column).
  var bundle: String { source?.bundleIdentifier ?? "" }

  /// The origin row's JSON, with format 1's member names: `{"source":…,"bundle":…,
  /// "version":…,"product":…,"os":…,"device":{…}}`, absent members left out.
  var json: [UInt8] {
    var writer = JSONWriter()
    writer.raw("{")
    var first = true
    func member(_ key: StaticString, _ value: String?) {
      guard let value else { return }
      if !first { writer.raw(byte: UInt8(ascii: ",")) }
      first = false
      writer.raw(key)
      writer.write(value)
    }
    member("\"source\":", source?.name)
    member("\"bundle\":", source?.bundleIdentifier)
    member("\"version\":", version)
    member("\"product\":", product)
    member("\"os\":", system)
    if let device {
      if !first { writer.raw(byte: UInt8(ascii: ",")) }
      first = false
      HealthRecordCodec.writeDevice(device, into: &writer)
    }
    writer.raw("}")
    return writer.bytes
  }

  /// The origin `json` wrote.
  ///
  /// - Throws: `JSONSyntaxError` for anything else (a member of the wrong type, a version
  ///   without a source).
  static func read(_ bytes: [UInt8]) throws(JSONSyntaxError) -> HealthSQLiteOrigin {
    try JSONReader.withReader(over: bytes) { (reader) throws(JSONSyntaxError) in
      var name: String?
      var bundle: String?
      var version: String?
      var product: String?
      var system: String?
      var device: HealthDevice?
      try reader.beginObject()
      while let key = try reader.nextKey() {
        if key.equals("device") {
          device = try HealthRecordCodec.readDevice(&reader)
          continue
        }
        let value = try reader.readString()
        if key.equals("source") {
          name = value
        } else if key.equals("bundle") {
          bundle = value
        } else if key.equals("version") {
          version = value
        } else if key.equals("product") {
          product = value
        } else if key.equals("os") {
          system = value
        } else {
          throw reader.error("an origin has only source, bundle, version, product, os, device")
        }
      }
      if let name, let bundle {
        return HealthSQLiteOrigin(
          source: HealthSource(name: name, bundleIdentifier: bundle), version: version,
          product: product, system: system, device: device)
      } else if name != nil || bundle != nil || version != nil || product != nil
        || system != nil
      {
        throw reader.error("an origin needs both source and bundle, or neither and no revision")
      }
      return HealthSQLiteOrigin(source: nil, device: device)
    }
  }
}

/// The fixed code of each sample type in format 2's `record.type` column: a code is never
/// reused or renumbered (a new type takes the next), so a file reads the same in every
/// later weigh. An integer key makes the two type indexes' entries 9–19 bytes shorter.
enum HealthSQLiteTypeCode {
  static func code(_ type: SampleType) -> Int64 {
    switch type {
    case .bodyMass: 1
    case .bloodGlucose: 2
    case .stepCount: 3
    case .activeEnergyBurned: 4
    case .appleExerciseTime: 5
    case .workout: 6
    case .height: 7
    case .bodyMassIndex: 8
    case .bodyFatPercentage: 9
    case .leanBodyMass: 10
    case .basalEnergyBurned: 11
    case .distanceWalkingRunning: 12
    case .heartRate: 13
    case .bloodPressureSystolic: 14
    case .bloodPressureDiastolic: 15
    case .bloodPressure: 16
    }
  }

  /// The type of `code`, nil for a code no type has.
  static func type(_ code: Int64) -> SampleType? { types[code] }

  private static let types: [Int64: SampleType] = Dictionary(
    uniqueKeysWithValues: SampleType.allCases.map { (code($0), $0) })
}

/// The bytes of a row's checksum (`HealthSQLiteRowParts.checksum(originID:)`), gathered in a
/// buffer held inline and summed at once when a text, a blob or the end comes.
///
/// Every step is a method of this value, which the checksum keeps in a local: the nested
/// functions it used before captured the buffer's count and the sum, and a closure over
/// them made Swift check each access at run time (8 `swift_beginAccess` a row, 7.2 M of the
/// 10 MB all-types import's saving thread; docs/performance.md, hrow15).
struct HealthSQLiteChecksumBytes {
  /// Room for the most gathered before a sum: 83 bytes (the fixed columns, then a length).
  private var storage:
    (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
  private var used = 0
  private var crc = ZipCRC32()

  /// A number's eight bytes, least significant first.
  mutating func add(_ value: UInt64) {
    let offset = used
    withUnsafeMutableBytes(of: &storage) {
      $0.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
    }
    used = offset + 8
  }

  mutating func add(byte: UInt8) {
    let offset = used
    withUnsafeMutableBytes(of: &storage) { $0[offset] = byte }
    used = offset + 1
  }

  mutating func add(uuid: uuid_t) {
    let offset = used
    withUnsafeMutableBytes(of: &storage) {
      $0.storeBytes(of: uuid, toByteOffset: offset, as: uuid_t.self)
    }
    used = offset + MemoryLayout<uuid_t>.size
  }

  /// A presence byte, then the number's bits when there is one.
  mutating func add(optional value: Double?) {
    add(byte: value == nil ? 0 : 1)
    if let value { add(value.bitPattern) }
  }

  /// The text's UTF-8 length, then its bytes.
  mutating func add(text: String) {
    var text = text
    // checked: a count is never negative, so it fits UInt64.
    add(UInt64(text.utf8.count))
    flush()
    crc = text.withUTF8 { [crc] utf8 in
      var sum = crc
      sum.update(UnsafeRawBufferPointer(utf8))
      return sum
    }
  }

  /// The blob's length, then its bytes.
  mutating func add(blob: [UInt8]) {
    // checked: a count is never negative, so it fits UInt64.
    add(UInt64(blob.count))
    flush()
    crc = blob.withUnsafeBytes { [crc] bytes in
      var sum = crc
      sum.update(bytes)
      return sum
    }
  }

  /// The checksum of every byte added.
  mutating func sum() -> UInt32 {
    flush()
    return crc.value
  }

  /// Sums the bytes gathered and empties the buffer.
  private mutating func flush() {
    let count = used
    crc = withUnsafeBytes(of: &storage) { [crc] bytes in
      var sum = crc
      sum.update(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
      return sum
    }
    used = 0
  }
}
