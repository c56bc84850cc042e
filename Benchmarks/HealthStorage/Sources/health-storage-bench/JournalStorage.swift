import Foundation
import HealthSim

#if canImport(Glibc)
  import Glibc
#endif

/// (b) A journal plus index files, written with simple code:
///
/// - `records.jsonl`, append-only: a transaction is its lines, then a commit line, written
///   with one `write` and one `fdatasync`. `P <crc> <row>` puts a record (the row as
///   `HealthRecordCodec` writes it, so as in `health.json`), `R <crc> <pos>` removes one,
///   `C <crc> <seq> <last pos>` commits; each line's CRC-32 covers what follows it. Lines
///   after the last commit line are a torn transaction, cut off at open.
/// - `index-type-pos.bin`, `index-type-start.bin`, `index-uuid.bin`, `index-sync.bin`: sorted
///   arrays of 24-byte entries (two keys, the offset of the row's line), each with a header
///   naming how much of `records.jsonl` it covers. Lookups binary-search them with `pread`;
///   rows are read by offset and their checksums checked.
/// - What the indexes do not cover yet (the commands since they were built) is read at open
///   and searched in memory; `buildIndexes` folds it in by rewriting them all (temporary
///   file, fsync, rename), the equivalent of weigh's compaction, O(n log n).
/// - `health.lock`: `flock` held from open to close, one command at a time.
///
/// Not modelled: reclaiming removed rows' bytes (records.jsonl only grows), and rebuilding
/// indexes automatically when the uncovered part grows.
final class JournalStorage: HealthStorage {
  static let recordsName = "records.jsonl"
  static let indexNames = [
    "index-type-pos.bin", "index-type-start.bin", "index-uuid.bin", "index-sync.bin",
  ]

  let directory: String
  let lockDescriptor: Int32
  let recordsDescriptor: Int32
  /// type-pos, type-start, uuid, sync; nil when not built yet.
  var indexes: [IndexFile?]
  /// The records' length the indexes cover.
  var covered: UInt64
  /// Records after `covered`, with their line offsets, in position order.
  var tail: [(record: HealthRecord, offset: UInt64)] = []
  /// Positions removed after `covered`.
  var removed: Set<Int64> = []
  var sequence: Int64
  private(set) var lastPosition: Int64
  var length: UInt64

  private init(
    directory: String, lockDescriptor: Int32, recordsDescriptor: Int32, indexes: [IndexFile?]
  ) {
    self.directory = directory
    self.lockDescriptor = lockDescriptor
    self.recordsDescriptor = recordsDescriptor
    self.indexes = indexes
    covered = indexes[0]?.covered ?? 0
    sequence = indexes[0]?.sequence ?? 0
    lastPosition = indexes[0]?.lastPosition ?? 0
    length = covered
  }

  static func open(_ directory: String) throws -> JournalStorage {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let lock = Glibc.open(directory + "/health.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard lock >= 0 else { throw StorageError("cannot open health.lock: errno \(errno)") }
    guard flock(lock, LOCK_EX) == 0 else { throw StorageError("cannot lock: errno \(errno)") }
    let records = Glibc.open(
      directory + "/" + recordsName, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard records >= 0 else { throw StorageError("cannot open records.jsonl: errno \(errno)") }
    var indexes: [IndexFile?] = []
    for name in indexNames {
      indexes.append(try IndexFile.open(directory + "/" + name))
    }
    let coveredLengths = Set(indexes.map { $0?.covered ?? 0 })
    guard coveredLengths.count == 1 else {
      throw StorageError("the index files cover different lengths: rebuild them")
    }
    let storage = JournalStorage(
      directory: directory, lockDescriptor: lock, recordsDescriptor: records, indexes: indexes)
    try storage.readTail()
    return storage
  }

  /// Reads the records after the indexes, checking every line; cuts off a torn end.
  private func readTail() throws {
    let end = UInt64(lseek(recordsDescriptor, 0, SEEK_END))
    guard end >= covered else { throw StorageError("records.jsonl is shorter than its indexes") }
    let bytes = try read(from: covered, count: Int(end - covered))
    var pending: [(record: HealthRecord, offset: UInt64)] = []
    var pendingRemoved: [Int64] = []
    var start = 0
    var committedEnd = covered
    while start < bytes.count {
      guard let newline = bytes[start...].firstIndex(of: 0x0A) else { break }
      let offset = covered + UInt64(start)
      let line = try Self.checkedLine(bytes[start..<newline], at: offset)
      switch line.kind {
      case UInt8(ascii: "P"): pending.append((try decodeRow(line.body), offset))
      case UInt8(ascii: "R"): pendingRemoved.append(try Self.integer(line.body))
      default:
        let fields = line.body.split(separator: 0x20)
        guard fields.count == 2 else { throw StorageError("bad commit line at \(offset)") }
        sequence = try Self.integer(fields[0])
        lastPosition = try Self.integer(fields[1])
        for position in pendingRemoved {
          removed.insert(position)
        }
        tail.append(contentsOf: pending)
        pending = []
        pendingRemoved = []
        committedEnd = covered + UInt64(newline + 1)
      }
      start = newline + 1
    }
    if committedEnd < end {
      // A transaction without its commit line: never acknowledged, so cut it off.
      guard ftruncate(recordsDescriptor, off_t(committedEnd)) == 0,
        fdatasync(recordsDescriptor) == 0
      else { throw StorageError("cannot cut the torn end: errno \(errno)") }
    }
    length = committedEnd
  }

  struct Line {
    var kind: UInt8
    var body: ArraySlice<UInt8>
  }

  /// `K crc8 body`, checked.
  static func checkedLine(_ line: ArraySlice<UInt8>, at offset: UInt64) throws -> Line {
    guard line.count > 11, line[line.startIndex + 1] == 0x20, line[line.startIndex + 10] == 0x20,
      let crc = UInt32(
        String(decoding: line[(line.startIndex + 2)..<(line.startIndex + 10)], as: UTF8.self),
        radix: 16)
    else { throw StorageError("records.jsonl: malformed line at byte \(offset)") }
    let body = line[(line.startIndex + 11)...]
    guard CRC32.of(body) == crc else {
      throw StorageError("records.jsonl: checksum mismatch in the line at byte \(offset)")
    }
    return Line(kind: line[line.startIndex], body: body)
  }

  static func integer<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws -> Int64 {
    guard let value = Int64(String(decoding: bytes, as: UTF8.self)) else {
      throw StorageError("records.jsonl: bad number")
    }
    return value
  }

  static func line(_ kind: Character, _ body: [UInt8]) -> [UInt8] {
    let hex = String(CRC32.of(body), radix: 16)
    return Array("\(kind) \(String(repeating: "0", count: 8 - hex.count))\(hex) ".utf8) + body + [
      0x0A
    ]
  }

  func read(from offset: UInt64, count: Int) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let got = bytes.withUnsafeMutableBytes {
        pread(recordsDescriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done))
      }
      guard got > 0 else { throw StorageError("cannot read records.jsonl: errno \(errno)") }
      done += got
    }
    return bytes
  }

  /// The record whose `P` line starts at `offset`, checked.
  func record(at offset: UInt64) throws -> HealthRecord {
    var size = 1024
    while true {
      let available = Int(min(UInt64(size), length - offset))
      let bytes = try read(from: offset, count: available)
      if let newline = bytes.firstIndex(of: 0x0A) {
        let line = try Self.checkedLine(bytes[..<newline], at: offset)
        guard line.kind == UInt8(ascii: "P") else {
          throw StorageError("an index points at a line that is no record (byte \(offset))")
        }
        return try decodeRow(line.body)
      }
      guard available == size else { throw StorageError("records.jsonl: a line without its end") }
      size *= 4
    }
  }

  /// Appends one transaction and makes it durable.
  private func commit(_ lines: [[UInt8]], lastPosition newLast: Int64) throws {
    var bytes = lines.flatMap { $0 }
    bytes += Self.line("C", Array("\(sequence + 1) \(newLast)".utf8))
    let written = bytes.withUnsafeBytes { write(recordsDescriptor, $0.baseAddress!, $0.count) }
    guard written == bytes.count, fdatasync(recordsDescriptor) == 0 else {
      throw StorageError("cannot write records.jsonl: errno \(errno)")
    }
    sequence += 1
    lastPosition = newLast
    length += UInt64(bytes.count)
  }

  @discardableResult
  func save(_ samples: [HealthSample]) throws -> Int64 {
    var position = lastPosition
    var lines: [[UInt8]] = []
    var records: [(HealthRecord, UInt64)] = []
    var offset = length
    for sample in samples {
      position += 1
      let record = HealthRecord.sample(sample, position: position)
      let line = Self.line("P", encodeRow(record))
      records.append((record, offset))
      offset += UInt64(line.count)
      lines.append(line)
    }
    try commit(lines, lastPosition: position)
    tail.append(contentsOf: records)
    return position
  }

  func delete(_ uuid: UUID, at date: Date) throws -> Bool {
    guard let found = try liveRecord(uuid), let sample = found.liveSample else { return false }
    let deletion = HealthRecord.deletion(
      DeletedObjectRecord(deleting: sample, at: date), position: lastPosition + 1)
    let removeLine = Self.line("R", Array("\(found.position)".utf8))
    let offset = length + UInt64(removeLine.count)
    try commit([removeLine, Self.line("P", encodeRow(deletion))], lastPosition: lastPosition + 1)
    removed.insert(found.position)
    tail.append((deletion, offset))
    return true
  }

  private func liveRecord(_ uuid: UUID) throws -> HealthRecord? {
    if let hit = tail.last(where: { $0.record.uuid == uuid && $0.record.liveSample != nil }),
      !removed.contains(hit.record.position)
    {
      return hit.record
    }
    let (a, b) = IndexFile.keys(uuid)
    for offset in try indexes[2]?.offsets(from: (a, b), through: (a, b)) ?? [] {
      let record = try record(at: offset)
      guard record.uuid == uuid else { throw StorageError("index-uuid.bin points at another row") }
      if record.liveSample != nil, !removed.contains(record.position) { return record }
    }
    return nil
  }

  func changes(of type: SampleType, after anchor: Int64) throws -> [HealthRecord] {
    let code = TypeCode.of(type)
    var result: [HealthRecord] = []
    for offset in try indexes[0]?.offsets(from: (code, anchor + 1), through: (code, .max)) ?? [] {
      let record = try record(at: offset)
      guard record.type == type else {
        throw StorageError("index-type-pos.bin points at another row")
      }
      if !removed.contains(record.position) { result.append(record) }
    }
    for (record, _) in tail
    where record.type == type && record.position > anchor && !removed.contains(record.position) {
      result.append(record)
    }
    return result
  }

  func samples(of type: SampleType, from: Date, to: Date) throws -> [HealthSample] {
    let code = TypeCode.of(type)
    var result: [HealthSample] = []
    let low = IndexFile.milliseconds(from)
    let high = IndexFile.milliseconds(to) - 1
    for offset in try indexes[1]?.offsets(from: (code, low), through: (code, high)) ?? [] {
      let record = try record(at: offset)
      guard record.type == type else {
        throw StorageError("index-type-start.bin points at another row")
      }
      if let sample = record.liveSample, !removed.contains(record.position) {
        result.append(sample)
      }
    }
    for (record, _) in tail {
      guard let sample = record.liveSample, sample.type == type, sample.startDate >= from,
        sample.startDate < to, !removed.contains(record.position)
      else { continue }
      result.append(sample)
    }
    return result
  }

  func sample(syncIdentifier: String, type: SampleType, bundle: String) throws -> HealthSample? {
    func matches(_ record: HealthRecord) -> HealthSample? {
      guard let sample = record.liveSample, sample.type == type,
        sample.syncIdentifier == syncIdentifier, sample.source?.bundleIdentifier == bundle,
        !removed.contains(record.position)
      else { return nil }
      return sample
    }
    if let hit = tail.reversed().lazy.compactMap({ matches($0.record) }).first { return hit }
    let key = IndexFile.syncKey(syncIdentifier, type: type, bundle: bundle)
    for offset in try indexes[3]?.offsets(from: (key, 0), through: (key, .max)) ?? [] {
      if let sample = matches(try record(at: offset)) { return sample }
    }
    return nil
  }

  /// Rewrites every index over the whole of records.jsonl (the journal's compaction).
  func buildIndexes() throws {
    var entries: [[IndexFile.Entry]] = [[], [], [], []]
    var removedAll: Set<Int64> = []
    var pending: [(HealthRecord, UInt64)] = []
    var pendingRemoved: [Int64] = []
    var records: [(HealthRecord, UInt64)] = []
    let chunk = 1 << 22
    var offset: UInt64 = 0
    var carry: [UInt8] = []
    while offset < length {
      let bytes = carry + (try read(from: offset, count: Int(min(UInt64(chunk), length - offset))))
      let base = offset - UInt64(carry.count)
      offset += UInt64(bytes.count - carry.count)
      var start = 0
      while let newline = bytes[start...].firstIndex(of: 0x0A) {
        let lineOffset = base + UInt64(start)
        let line = try Self.checkedLine(bytes[start..<newline], at: lineOffset)
        switch line.kind {
        case UInt8(ascii: "P"): pending.append((try decodeRow(line.body), lineOffset))
        case UInt8(ascii: "R"): pendingRemoved.append(try Self.integer(line.body))
        default:
          records.append(contentsOf: pending)
          removedAll.formUnion(pendingRemoved)
          pending = []
          pendingRemoved = []
        }
        start = newline + 1
      }
      carry = Array(bytes[start...])
    }
    for (record, lineOffset) in records where !removedAll.contains(record.position) {
      let code = TypeCode.of(record.type)
      let offset = Int64(lineOffset)
      entries[0].append(.init(a: code, b: record.position, offset: offset))
      entries[1].append(.init(a: code, b: IndexFile.milliseconds(record.startDate), offset: offset))
      let (a, b) = IndexFile.keys(record.uuid)
      entries[2].append(.init(a: a, b: b, offset: offset))
      if let sample = record.liveSample, let syncIdentifier = sample.syncIdentifier {
        let key = IndexFile.syncKey(
          syncIdentifier, type: sample.type, bundle: sample.source?.bundleIdentifier ?? "")
        entries[3].append(.init(a: key, b: record.position, offset: offset))
      }
    }
    for (index, name) in Self.indexNames.enumerated() {
      try IndexFile.write(
        entries[index].sorted(), to: directory + "/" + name, covered: length, sequence: sequence,
        lastPosition: lastPosition)
    }
    let folder = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
      fsync(folder)
      Glibc.close(folder)
    }
  }

  func close() throws {
    for index in indexes { index?.close() }
    Glibc.close(recordsDescriptor)
    Glibc.close(lockDescriptor)
  }
}

/// A sorted array of (a, b, offset) entries of 8 bytes each, after a 64-byte header:
/// "WHIX0001", covered length, sequence, last position, count, CRC-32 of the entries.
final class IndexFile {
  struct Entry: Comparable {
    var a: Int64
    var b: Int64
    var offset: Int64

    static func < (lhs: Entry, rhs: Entry) -> Bool {
      (lhs.a, lhs.b, lhs.offset) < (rhs.a, rhs.b, rhs.offset)
    }
  }

  static let headerSize = 64
  static let entrySize = 24
  let descriptor: Int32
  let covered: UInt64
  let sequence: Int64
  let lastPosition: Int64
  let count: Int

  private init(descriptor: Int32, header: [Int64]) {
    self.descriptor = descriptor
    covered = UInt64(header[1])
    sequence = header[2]
    lastPosition = header[3]
    count = Int(header[4])
  }

  static func open(_ path: String) throws -> IndexFile? {
    let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw StorageError("cannot open \(path): errno \(errno)")
    }
    var header = [Int64](repeating: 0, count: 8)
    let got = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, headerSize, 0) }
    let magic = header[0].littleEndian
    guard got == headerSize, magic == Self.magic, header[1] >= 0, header[4] >= 0 else {
      throw StorageError("\(path) is damaged (header)")
    }
    return IndexFile(descriptor: descriptor, header: header.map(\.littleEndian))
  }

  static let magic = Int64(bitPattern: 0x3130_3030_5849_4857)  // "WHIX0001"

  static func keys(_ uuid: UUID) -> (Int64, Int64) {
    withUnsafeBytes(of: uuid.uuid) { raw in
      (
        raw.loadUnaligned(fromByteOffset: 0, as: Int64.self),
        raw.loadUnaligned(fromByteOffset: 8, as: Int64.self)
      )
    }
  }

  static func milliseconds(_ date: Date) -> Int64 {
    let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
    // checked: dates are finite and within ±2^62 ms
    guard value.isFinite, abs(value) < 4e18 else { return value < 0 ? .min / 2 : .max / 2 }
    return Int64(value)
  }

  /// FNV-1a of the sync identifier's matching key.
  static func syncKey(_ identifier: String, type: SampleType, bundle: String) -> Int64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "\(bundle)\u{0}\(type.rawValue)\u{0}\(identifier)".utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return Int64(bitPattern: hash)
  }

  private func entries(from index: Int, count wanted: Int) throws -> [Entry] {
    let count = min(wanted, self.count - index)
    guard count > 0 else { return [] }
    var raw = [Int64](repeating: 0, count: count * 3)
    let size = count * Self.entrySize
    let got = raw.withUnsafeMutableBytes {
      pread(descriptor, $0.baseAddress!, size, off_t(Self.headerSize + index * Self.entrySize))
    }
    guard got == size else { throw StorageError("an index file is shorter than its header says") }
    return (0..<count).map {
      Entry(
        a: raw[3 * $0].littleEndian, b: raw[3 * $0 + 1].littleEndian,
        offset: raw[3 * $0 + 2].littleEndian)
    }
  }

  /// The offsets of the entries with (a, b) in low...high, in order.
  func offsets(from low: (Int64, Int64), through high: (Int64, Int64)) throws -> [UInt64] {
    var first = 0
    var last = count
    while first < last {
      let middle = (first + last) / 2
      let entry = try entries(from: middle, count: 1)[0]
      if (entry.a, entry.b) < low { first = middle + 1 } else { last = middle }
    }
    var result: [UInt64] = []
    var index = first
    while index < count {
      let page = try entries(from: index, count: 4096)
      for entry in page {
        guard (entry.a, entry.b) <= high else { return result }
        result.append(UInt64(entry.offset))
      }
      index += page.count
    }
    return result
  }

  static func write(
    _ entries: [Entry], to path: String, covered: UInt64, sequence: Int64, lastPosition: Int64
  ) throws {
    var body = [Int64]()
    body.reserveCapacity(entries.count * 3)
    for entry in entries {
      body += [entry.a.littleEndian, entry.b.littleEndian, entry.offset.littleEndian]
    }
    let crc = body.withUnsafeBytes { CRC32.of($0) }
    let header: [Int64] = [
      magic, Int64(covered), sequence, lastPosition, Int64(entries.count), Int64(crc), 0, 0,
    ].map(\.littleEndian)
    let temporary = path + ".tmp"
    let descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw StorageError("cannot write \(temporary): errno \(errno)") }
    defer { Glibc.close(descriptor) }
    for part in [header, body] {
      let written = part.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress!, $0.count) }
      guard written == part.count * 8 else { throw StorageError("cannot write \(temporary)") }
    }
    guard fsync(descriptor) == 0, rename(temporary, path) == 0 else {
      throw StorageError("cannot replace \(path): errno \(errno)")
    }
  }

  func close() { Glibc.close(descriptor) }
}
