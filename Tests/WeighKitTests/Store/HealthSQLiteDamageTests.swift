import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// Damage to `health.sqlite` is never silent: a flipped byte in a row, a column or an index
/// is found by `check`, and a query that reads a damaged row throws `corrupt` naming the
/// file and the record's position; no byte crashes anything. And a process killed while it
/// appends a batch leaves the whole transaction or none of it.
@Suite struct HealthSQLiteDamageTests {
  static let bundles = ["com.apple.health.watch", "com.apple.health.phone", "com.withings.wiscale"]

  /// A closed database of 300 samples (steps with sync identifiers `steps-<i>`, heart rates,
  /// three sources) and its records.
  static func makeDatabase(in directory: TemporaryStoreDirectory) throws -> (String, [HealthRecord])
  {
    let path = directory.file(HealthSQLiteStorage.fileName)
    let storage = try HealthSQLiteStorage(path: path)
    let epoch = Date(timeIntervalSince1970: 1_700_000_000)
    var changes: [HealthChange] = []
    for index in 1...300 {
      let start = epoch.addingTimeInterval(Double(index) * 60)
      let isSteps = index % 2 == 1
      var metadata: Metadata = [:]
      if isSteps {
        metadata[MetadataKey.syncIdentifier] = .string("steps-\(index)")
        metadata[MetadataKey.syncVersion] = .number(1)
      }
      let sample = HealthSample(
        uuid: HealthSQLiteStorageTests.uuid(index), type: isSteps ? .stepCount : .heartRate,
        startDate: start, endDate: start.addingTimeInterval(60),
        value: isSteps ? Double(100 + index) : 60,
        sourceRevision: SourceRevision(
          source: HealthSource(name: "s", bundleIdentifier: bundles[index % 3]), version: "1"),
        device: nil, metadata: metadata, creationDate: start, workout: nil)
      changes.append(.sampleSaved(sample, position: Int64(index)))
    }
    var state = HealthSmallState(clock: epoch, app: HealthStore.defaultApp, seed: 3)
    state.counter = 300
    changes.append(.stateChanged(state))
    try storage.apply(changes)
    let records = try storage.records(after: 0, limit: 0)
    try storage.close()
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "closing checkpoints the log")
    return (path, records)
  }

  /// The offsets of `needle` in `bytes`.
  static func offsets(of needle: String, in bytes: [UInt8]) -> [Int] {
    let pattern = Array(needle.utf8)
    guard bytes.count >= pattern.count else { return [] }
    return (0...(bytes.count - pattern.count)).filter { start in
      pattern.indices.allSatisfy { bytes[start + $0] == pattern[$0] }
    }
  }

  /// Writes `bytes` with the byte at `offset` changed to `value`.
  static func damage(_ path: String, _ bytes: [UInt8], at offset: Int, to value: UInt8) {
    var changed = bytes
    changed[offset] = value
    _ = FileManager.default.createFile(atPath: path, contents: Data(changed))
  }

  /// What a lookup of `steps-201` by sync identifier says.
  static func lookup(_ path: String) -> Result<[StoredSample], StoreError> {
    do {
      let storage = try HealthSQLiteStorage(path: path)
      defer { try? storage.close() }
      return .success(
        try storage.samples(syncIdentifier: "steps-201", type: .stepCount, bundle: nil))
    } catch let error as StoreError {
      return .failure(error)
    } catch {
      return .failure(StoreError(.io, message: "\(error)"))
    }
  }

  /// What flipping one copy of some bytes did: the lookup's answer, what reading every
  /// record said, and `check`'s findings.
  struct Outcome {
    var offset: Int
    var lookup: Result<[StoredSample], StoreError>
    var readAll: StoreError?
    var findings: [String]
  }

  /// Changes the byte `within` bytes into each copy of `pattern` in a fresh database to
  /// `value`, one copy at a time (SQLite leaves stale copies of moved cells in free space,
  /// which nothing reads), and says what each change did. `keep` picks the copies.
  static func flipEachCopy(
    of pattern: String, at within: Int, to value: UInt8,
    keep: (Int, [UInt8]) -> Bool = { _, _ in true }
  ) throws -> (original: [StoredSample], outcomes: [Outcome]) {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (path, _) = try makeDatabase(in: directory)
    guard case .success(let original) = lookup(path), original.count == 1 else {
      throw StoreError(.io, message: "the lookup failed before any damage")
    }
    let bytes = try #require(directory.bytes(HealthSQLiteStorage.fileName))
    var outcomes: [Outcome] = []
    for start in offsets(of: pattern, in: bytes) where keep(start, bytes) {
      damage(path, bytes, at: start + within, to: value)
      var readAll: StoreError?
      do {
        let storage = try HealthSQLiteStorage(path: path)
        defer { try? storage.close() }
        _ = try storage.records(after: 0, limit: 0)
      } catch {
        readAll = error as? StoreError ?? StoreError(.io, message: "\(error)")
      }
      outcomes.append(
        Outcome(
          offset: start + within, lookup: lookup(path), readAll: readAll,
          findings: HealthSQLiteStorage.check(path: path).map(\.message)))
    }
    return (original, outcomes)
  }

  /// Each outcome is harmless (nothing found, the same answers) or found by `check` (a
  /// finding starting with `byCheck`), the lookup then giving the original answer (it read
  /// an undamaged copy: SQLite takes a column from the index that found the row) or
  /// throwing `corrupt`; with `byRead`, a query that reads the damaged copy (the lookup or
  /// reading every record) reports it with that message. At least one copy is the live one.
  static func expectFoundOrHarmless(
    _ flipped: (original: [StoredSample], outcomes: [Outcome]), byRead: String?,
    byCheck: String
  ) {
    #expect(!flipped.outcomes.isEmpty)
    var found = 0
    for outcome in flipped.outcomes {
      let at = "byte \(outcome.offset)"
      guard !outcome.findings.isEmpty else {
        #expect(
          (try? outcome.lookup.get()) == flipped.original, "\(at) changed the answer silently")
        #expect(outcome.readAll == nil, "\(at): \(String(describing: outcome.readAll))")
        continue
      }
      found += 1
      #expect(outcome.findings.contains { $0.hasPrefix(byCheck) }, "\(at): \(outcome.findings)")
      var reported: [StoreError] = outcome.readAll.map { [$0] } ?? []
      switch outcome.lookup {
      case .success(let answer):
        if byRead != nil { #expect(answer == flipped.original, "\(at): a wrong answer") }
      case .failure(let error): reported.append(error)
      }
      for error in reported {
        #expect(error.kind == .corrupt)
        #expect(error.file?.hasSuffix(HealthSQLiteStorage.fileName) == true)
        if let byRead { #expect(error.message.contains(byRead), "\(error.message)") }
      }
      if byRead != nil { #expect(!reported.isEmpty, "\(at): no query reported the damage") }
    }
    #expect(found > 0, "no copy was the live one")
  }

  @Test func aFlippedDigitInExtraIsFoundByTheQueryAndByCheck() throws {
    // `extra` holds the metadata's identifier in quotes; the column and the index entry do
    // not. Its checksum is the row's.
    Self.expectFoundOrHarmless(
      try Self.flipEachCopy(of: "\"steps-201\"", at: 8, to: UInt8(ascii: "7")),
      byRead: "record at position 201: the columns do not match their checksum",
      byCheck: "record at position 201: the columns do not match their checksum")
  }

  @Test func aFlippedDigitOfTheIndexedSyncColumnIsFoundByTheQueryAndByCheck() throws {
    // In the table's row `extra` (the metadata) comes just after the sync identifier.
    Self.expectFoundOrHarmless(
      try Self.flipEachCopy(of: "steps-201\"metadata\"", at: 8, to: UInt8(ascii: "7")),
      byRead: "record at position 201: the columns do not match their checksum",
      byCheck: "record at position 201: the columns do not match their checksum")
  }

  @Test func aFlippedLetterOfAnOriginIsFoundByTheQueryAndByCheck() throws {
    // The origin row's JSON: every record of the bundle names it.
    Self.expectFoundOrHarmless(
      try Self.flipEachCopy(
        of: "\"bundle\":\"" + Self.bundles[201 % 3], at: 14, to: UInt8(ascii: "x")),
      byRead: "an origin row does not match its checksum",
      byCheck: "origin ")
  }

  @Test func aFlippedDigitInTheSyncIndexIsFoundByCheck() throws {
    // The index entry: a copy with neither `extra` after it nor a quote just before it.
    // The index no longer finds the row, which the query cannot know: `check` does.
    let metadata = Array("\"metadata".utf8)
    Self.expectFoundOrHarmless(
      try Self.flipEachCopy(of: "steps-201", at: 8, to: UInt8(ascii: "7")) { start, bytes in
        let after = start + 9
        return start > 0 && bytes[start - 1] != UInt8(ascii: "\"")
          && (after + metadata.count > bytes.count
            || Array(bytes[after..<(after + metadata.count)]) != metadata)
      },
      byRead: nil, byCheck: "sqlite's integrity check:")
  }

  /// Each column of a record's row, `extra`, the row's checksum, the origin it names and
  /// an origin's checksum, changed in place (through SQL, so that SQLite's own structure
  /// stays whole): every query that reads the row says so, naming the file and, for the
  /// row's own values, its position.
  @Test func eachChangedColumnOfAFormat2RowIsFoundByTheQuery() throws {
    let changes: [(sql: String, says: String)] = [
      ("UPDATE record SET kind = 1 WHERE pos = 201", "record at position 201:"),
      ("UPDATE record SET type = 13 WHERE pos = 201", "record at position 201:"),
      ("UPDATE record SET uuid = zeroblob(16) WHERE pos = 201", "record at position 201:"),
      ("UPDATE record SET start = start + 1 WHERE pos = 201", "record at position 201:"),
      ("UPDATE record SET end = end + 1 WHERE pos = 201", "record at position 201:"),
      ("UPDATE record SET value = value + 1 WHERE pos = 201", "record at position 201:"),
      ("UPDATE record SET origin = 1 + origin % 3 WHERE pos = 201", "record at position 201:"),
      ("UPDATE record SET origin = 99 WHERE pos = 201", "its origin 99 is not in the origin"),
      ("UPDATE record SET created = created + 1 WHERE pos = 201", "record at position 201:"),
      ("UPDATE record SET sync_id = 'steps-202' WHERE pos = 201", "record at position 201:"),
      ("UPDATE record SET deleted = 0 WHERE pos = 201", "record at position 201:"),
      ("UPDATE record SET extra = NULL WHERE pos = 201", "record at position 201:"),
      (
        "UPDATE record SET extra = CAST(' ' || CAST(extra AS TEXT) AS BLOB) WHERE pos = 201",
        "record at position 201:"
      ),
      ("UPDATE record SET crc = crc + 1 WHERE pos = 201", "record at position 201:"),
      ("UPDATE origin SET crc = crc + 1 WHERE id = 1", "an origin row does not match"),
      ("UPDATE origin SET json = CAST('{}' AS BLOB) WHERE id = 1", "an origin row does not match"),
    ]
    for (sql, says) in changes {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      let (path, _) = try Self.makeDatabase(in: directory)
      let queue = try DatabaseQueue(path: path)
      try queue.write { try $0.execute(sql: sql) }
      try queue.close()
      do {
        let storage = try HealthSQLiteStorage(path: path, readOnly: true)
        defer { try? storage.close() }
        _ = try storage.records(after: 0, limit: 0)
        Issue.record("\(sql): read silently")
      } catch let error as StoreError {
        #expect(error.kind == .corrupt, "\(sql)")
        #expect(error.file == path, "\(sql)")
        #expect(error.message.contains(says), "\(sql): \(error.message)")
      }
    }
  }

  @Test func noFlippedByteCrashesAndEveryOneIsFoundOrHarmless() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (path, records) = try Self.makeDatabase(in: directory)
    let bytes = try #require(directory.bytes(HealthSQLiteStorage.fileName))
    var generator = SeededGenerator(seed: 15)
    var found = 0
    for _ in 0..<120 {
      let offset = Int(generator.next() % UInt64(bytes.count))
      let value = bytes[offset] ^ UInt8(1 + generator.next() % 255)
      Self.damage(path, bytes, at: offset, to: value)
      try? FileManager.default.removeItem(atPath: path + "-wal")
      try? FileManager.default.removeItem(atPath: path + "-shm")
      let findings = HealthSQLiteStorage.check(path: path)
      var read: [HealthRecord]?
      var state: HealthSmallState?
      if let storage = try? HealthSQLiteStorage(path: path, creating: false) {
        read = try? storage.records(after: 0, limit: 0)
        state = try? storage.smallState()
        try? storage.close()
      }
      if findings.isEmpty {
        // Nothing found: the byte was one nothing reads (free space, a counter SQLite
        // keeps for itself), so every answer is the same.
        #expect(read == records, "byte \(offset) changed the records silently")
        #expect(state?.counter == 300, "byte \(offset) changed the state silently")
      } else {
        found += 1
      }
    }
    #expect(found > 0)
  }

  /// What opening `path` throws, or nil when it opens.
  static func openingError(_ path: String) -> StoreError? {
    do {
      try HealthSQLiteStorage(path: path).close()
      return nil
    } catch {
      return error
    }
  }

  @Test func aFileThatIsNotAWeighHealthDatabaseOfThisFormatIsRefused() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (path, _) = try Self.makeDatabase(in: directory)
    let bytes = try #require(directory.bytes(HealthSQLiteStorage.fileName))
    // The header's application id (offset 68) and user version (offset 60), big-endian.
    Self.damage(path, bytes, at: 71, to: bytes[71] ^ 1)
    let other = try #require(Self.openingError(path))
    #expect(other.kind == .corrupt)
    #expect(other.message.hasPrefix("not a weigh Health database"))
    Self.damage(path, bytes, at: 63, to: 4)
    #expect(Self.openingError(path)?.kind == .newerFormat)
    directory.write(HealthSQLiteStorage.fileName, Array("not a database at all, just text".utf8))
    let text = try #require(Self.openingError(path))
    #expect(text.kind == .corrupt)
    #expect(text.message.contains("not a database"))
    #expect(text.file == path)
    // An empty file is a new database for a command, but `check` creates nothing.
    directory.write(HealthSQLiteStorage.fileName, [])
    #expect(
      HealthSQLiteStorage.check(path: path).map(\.message).first?.contains(
        "the database is empty") == true)
    #expect(directory.bytes(HealthSQLiteStorage.fileName)?.isEmpty == true)
  }

  @Test func aRecordOrStateThatWouldNotLoadAgainIsRefusedAndChangesNothing() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let (path, records) = try Self.makeDatabase(in: directory)
    let storage = try HealthSQLiteStorage(path: path)
    defer { try? storage.close() }
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    func weight(_ kilograms: Double, uuid: Int) -> HealthSample {
      HealthSample(
        uuid: HealthSQLiteStorageTests.uuid(uuid), type: .bodyMass, startDate: start,
        endDate: start, value: kilograms, sourceRevision: nil, device: nil, metadata: [:],
        creationDate: start, workout: nil)
    }
    var badState = HealthSmallState(clock: start, app: HealthStore.defaultApp, seed: 1)
    badState.clock = Date(timeIntervalSince1970: 1e15)
    for changes: [HealthChange] in [
      [
        .sampleSaved(weight(70, uuid: 1000), position: 301),
        .sampleSaved(weight(.nan, uuid: 1001), position: 302),
      ],
      [
        .sampleSaved(weight(70, uuid: 1000), position: 301),
        .sampleSaved(weight(5e6, uuid: 1001), position: 302),
      ],
      [.sampleSaved(weight(70, uuid: 1000), position: 301), .stateChanged(badState)],
    ] {
      do {
        try storage.apply(changes)
        Issue.record("accepted: \(changes)")
      } catch {
        #expect((error as? StoreError)?.kind == .invalidChange, "\(error)")
      }
    }
    #expect(try storage.records(after: 0, limit: 0) == records)
    #expect(try storage.lastPosition() == 300)
    #expect(try storage.smallState()?.counter == 300)
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
  }
}
