import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// The pending record copied a piece at a time by `weigh check --repair`'s rebuild and by the
/// migration of an older `health.sqlite` (`HealthSQLiteStorage.copyPendingRecord`): from
/// either row layout (its own `crc`, or `crc` 0 and `pending_crc`) into the layout a commit
/// writes for its length, byte for byte; a damaged one is refused by the migration, which
/// changes nothing, and kept damaged by the repair, which makes it whole nowhere.
@Suite struct HealthSQLitePendingCopyTests {
  typealias Fixture = FormatOneFixture

  /// A record of `count` bytes that no other test's record starts like.
  static func record(sequence: Int, count: Int) -> HealthSQLiteStorage.PendingRecord {
    .init(
      sequence: sequence,
      bytes: (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31 &+ 7) % 253) })
  }

  /// Replaces the pending row of the database at `path` with `record`, its checksum in the
  /// row or (`inPieces`) in `pending_crc` with a `crc` of 0, as hpend21 writes it.
  static func setPending(
    _ path: String, _ record: HealthSQLiteStorage.PendingRecord, inPieces: Bool
  ) throws {
    let checksum = Int64(truncatingIfNeeded: HealthSQLiteStorage.pendingChecksum(record))
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(sql: "DELETE FROM pending_journal")
      try db.execute(sql: "DELETE FROM meta WHERE key = 'pending_crc'")
      try db.execute(
        sql: "INSERT INTO pending_journal (id, seq, record, crc) VALUES (1, ?, ?, ?)",
        arguments: [record.sequence, Data(record.bytes), inPieces ? 0 : checksum])
      if inPieces { try HealthSQLiteStorage.setMeta("pending_crc", checksum, db) }
    }
    try queue.close()
  }

  /// The pending row's `crc`, the `pending_crc` meta row, and the record read whole
  /// (checked), of the database at `path`.
  static func pending(_ path: String) throws -> (
    crc: Int64?, kept: Int64?, record: HealthSQLiteStorage.PendingRecord?
  ) {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      (
        try Int64.fetchOne(db, sql: "SELECT crc FROM pending_journal"),
        try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'pending_crc'"),
        try HealthSQLiteStorage.readPendingRecord(db)
      )
    }
  }

  /// The raw pending row and `pending_crc` row, checked or not.
  static func rawPending(_ path: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      try String.fetchAll(
        db,
        sql: "SELECT seq || ' ' || hex(record) || ' ' || crc FROM pending_journal "
          + "UNION ALL SELECT value || ' ' || crc FROM meta WHERE key = 'pending_crc'")
    }
  }

  /// What a refusal says.
  static func message(_ error: any Error) -> String {
    (error as? HealthSQLiteDamage)?.description ?? "\(error)"
  }

  /// The layout the copy is to write for `record` under `writing`.
  static func expectLayout(
    _ path: String, _ record: HealthSQLiteStorage.PendingRecord,
    _ writing: HealthSQLiteStorage.PendingWriting, _ label: String
  ) throws {
    let after = try pending(path)
    let checksum = Int64(truncatingIfNeeded: HealthSQLiteStorage.pendingChecksum(record))
    #expect(after.record == record, "\(label)")
    if record.bytes.count >= writing.fromBytes {
      #expect(after.crc == 0, "\(label)")
      #expect(after.kept == checksum, "\(label)")
    } else {
      #expect(after.crc == checksum, "\(label)")
    }
  }

  static let writings: [HealthSQLiteStorage.PendingWriting] = [
    .init(fromBytes: 0, pieceBytes: 7), .init(fromBytes: 1_000, pieceBytes: 1),
    .init(fromBytes: 5_000, pieceBytes: 4_096), .init(fromBytes: .max, pieceBytes: 3),
  ]

  /// A format-1 file whose pending record is in either layout migrates with the record byte
  /// for byte, in the layout a commit writes for its length.
  @Test(arguments: [false, true])
  func aMigrationCopiesThePendingRecordInPieces(inPieces: Bool) throws {
    for writing in Self.writings {
      for count in [1, 4_999, 5_000, 12_345] {
        let directory = TemporaryStoreDirectory()
        defer { directory.remove() }
        try Fixture.make(in: directory)
        let path = directory.file(HealthSQLiteStorage.fileName)
        let record = Self.record(sequence: 4, count: count)
        try Self.setPending(path, record, inPieces: inPieces)
        try HealthSQLiteStorage.$pendingWriting.withValue(writing) {
          _ = try HealthSQLiteStorage.migrateIfNeeded(path: path, directory: directory.path)
        }
        #expect(try Fixture.version(path) == HealthSQLiteStorage.formatVersion)
        try Self.expectLayout(path, record, writing, "\(writing) \(count) \(inPieces)")
        #expect(HealthSQLiteStorage.check(path: path, journalSequence: 4).isEmpty)
      }
    }
  }

  static let damages = [
    "UPDATE meta SET value = value + 1, crc = crc WHERE key = 'pending_crc'",
    "DELETE FROM meta WHERE key = 'pending_crc'",
    "UPDATE pending_journal SET crc = crc + 1 WHERE crc != 0",
    "UPDATE pending_journal SET seq = seq + 1",
    "UPDATE pending_journal SET record = CAST(substr(record, 1, 3000) || x'FF' "
      + "|| substr(record, 3002) AS BLOB)",
    "UPDATE pending_journal SET record = CAST(record || x'00' AS BLOB)",
    "UPDATE pending_journal SET record = substr(record, 1, length(record) - 1)",
  ]

  /// Whether `damage` damages a record of the layout `inPieces` (the other layout's checksum
  /// lies elsewhere).
  static func damages(_ damage: String, inPieces: Bool) -> Bool {
    inPieces ? !damage.contains("crc != 0") : !damage.contains("pending_crc")
  }

  /// A damaged pending record, in either layout, is refused by the migration with the
  /// message of before, and the old file is left byte for byte, with no new file beside it.
  @Test(arguments: [false, true])
  func aMigrationRefusesADamagedPendingRecord(inPieces: Bool) throws {
    for damage in Self.damages where Self.damages(damage, inPieces: inPieces) {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      try Fixture.make(in: directory)
      let path = directory.file(HealthSQLiteStorage.fileName)
      try Self.setPending(path, Self.record(sequence: 4, count: 9_001), inPieces: inPieces)
      try HealthSQLiteCheckFormat2Tests.change(path, damage)
      // The message the whole read gives.
      var expected: String?
      do { _ = try Self.pending(path) } catch { expected = Self.message(error) }
      #expect(expected != nil, "\(damage)")
      let bytes = directory.bytes(HealthSQLiteStorage.fileName)
      var refusal: StoreError?
      do {
        try HealthSQLiteStorage.$pendingWriting.withValue(.init(fromBytes: 0, pieceBytes: 7)) {
          _ = try HealthSQLiteStorage.migrateIfNeeded(path: path, directory: directory.path)
        }
      } catch let error as StoreError { refusal = error }
      #expect(refusal?.kind == .corrupt, "\(damage)")
      #expect(
        refusal?.message == expected.map { $0 + "; `weigh check` lists the damage" },
        "\(damage)")
      #expect(directory.bytes(HealthSQLiteStorage.fileName) == bytes, "\(damage)")
      let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(names.filter { $0.hasPrefix(HealthSQLiteStorage.fileName + ".") }.isEmpty)
    }
  }

  /// A format-3 file with a damaged record and a pending record of either layout: the
  /// repair keeps the record byte for byte, in the layout a commit writes for its length,
  /// and the rebuilt file checks clean.
  @Test(arguments: [false, true])
  func aRepairCopiesThePendingRecordInPieces(inPieces: Bool) throws {
    for writing in Self.writings {
      for count in [1, 4_999, 5_000, 12_345] {
        let directory = TemporaryStoreDirectory()
        defer { directory.remove() }
        try HealthSQLiteCheckFormat2Tests.formatTwo(in: directory)
        let path = directory.file(HealthSQLiteStorage.fileName)
        let record = Self.record(sequence: 4, count: count)
        try Self.setPending(path, record, inPieces: inPieces)
        let (_, plain) = try HealthSQLiteCheckFormat2Tests.positions(path)
        try HealthSQLiteCheckFormat2Tests.change(
          path, "UPDATE record SET value = value + 1 WHERE pos = ?", [plain])
        let report = try HealthSQLiteStorage.$pendingWriting.withValue(writing) {
          try HealthSQLiteStorage.repair(path: path, directory: directory.path)
        }
        #expect(report?.lost == 1)
        try Self.expectLayout(path, record, writing, "\(writing) \(count) \(inPieces)")
        #expect(HealthSQLiteStorage.check(path: path, journalSequence: 4).isEmpty)
      }
    }
  }

  /// A damaged pending record beside a damaged sample: the repair rebuilds the file and
  /// keeps the record as it was, so that it is still refused with the same message (it is
  /// not made whole with a new checksum, as the whole read's repair did), its bytes the same.
  @Test(arguments: [false, true])
  func aRepairKeepsADamagedPendingRecordDamaged(inPieces: Bool) throws {
    for damage in Self.damages where Self.damages(damage, inPieces: inPieces) {
      for writing in [Self.writings[0], Self.writings[3]] {
        let directory = TemporaryStoreDirectory()
        defer { directory.remove() }
        try HealthSQLiteCheckFormat2Tests.formatTwo(in: directory)
        let path = directory.file(HealthSQLiteStorage.fileName)
        try Self.setPending(path, Self.record(sequence: 4, count: 9_001), inPieces: inPieces)
        try HealthSQLiteCheckFormat2Tests.change(path, damage)
        let (_, plain) = try HealthSQLiteCheckFormat2Tests.positions(path)
        try HealthSQLiteCheckFormat2Tests.change(
          path, "UPDATE record SET value = value + 1 WHERE pos = ?", [plain])
        var expected: String?
        do { _ = try Self.pending(path) } catch { expected = Self.message(error) }
        #expect(expected != nil, "\(damage)")
        let rawRecord = try Self.rawPending(path).first
        _ = try HealthSQLiteStorage.$pendingWriting.withValue(writing) {
          try HealthSQLiteStorage.repair(path: path, directory: directory.path)
        }
        var after: String?
        do { _ = try Self.pending(path) } catch { after = Self.message(error) }
        // The same refusal but where the checksum's own row was the damage: the rebuilt
        // file's meta rows are new, and the record's checksum cannot match it.
        if damage.hasPrefix("UPDATE meta") {
          #expect(after?.contains("does not match its checksum") == true, "\(damage)")
        } else {
          #expect(after == expected, "\(damage) \(writing)")
        }
        let bytesAfter = try Self.rawPending(path).first.map { $0.split(separator: " ")[1] }
        #expect(bytesAfter == rawRecord.map { $0.split(separator: " ")[1] }, "\(damage)")
      }
    }
  }
}
