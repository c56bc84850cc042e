import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// `check` and `repair` of a format-2 `health.sqlite` (docs/store.md, "Checking and
/// repairing health.sqlite"): a changed column, `extra`, origin JSON or origin checksum and
/// a missing origin row are each found, naming the record's position or the origin; a clean
/// file is clean; a repair keeps every record that reads.
@Suite struct HealthSQLiteCheckFormat2Tests {
  typealias Fixture = FormatOneFixture

  /// A format-2 file of the fixture's records (a format-1 fixture migrated); its contents.
  @discardableResult
  static func formatTwo(in directory: TemporaryStoreDirectory) throws
    -> FormatOneFixture.Contents
  {
    let contents = try Fixture.make(in: directory)
    try HealthSQLiteStorage.migrateIfNeeded(
      path: directory.file(HealthSQLiteStorage.fileName), directory: directory.path)
    return contents
  }

  /// Runs `sql` on the file at `path`, then closes it (the log checkpointed).
  static func change(_ path: String, _ sql: String, _ arguments: StatementArguments = []) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { try $0.execute(sql: sql, arguments: arguments) }
    try queue.close()
  }

  /// The position of the first record with `extra` and of the first without.
  static func positions(_ path: String) throws -> (extra: Int64, plain: Int64) {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      (
        try Int64.fetchOne(db, sql: "SELECT min(pos) FROM record WHERE extra IS NOT NULL")!,
        try Int64.fetchOne(db, sql: "SELECT min(pos) FROM record WHERE extra IS NULL")!
      )
    }
  }

  @Test func aMigratedFileChecksClean() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    _ = try Self.formatTwo(in: directory)
    let path = directory.file(HealthSQLiteStorage.fileName)
    #expect(try Fixture.version(path) == 3)
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
    #expect(HealthSQLiteStorage.check(path: path, journalSequence: 4).isEmpty)
  }

  /// Each column of a record (a plain one, and one with `extra`) changed is found, naming
  /// the record's position.
  @Test func aChangedColumnIsFoundAtItsPosition() throws {
    let base = TemporaryStoreDirectory()
    defer { base.remove() }
    _ = try Self.formatTwo(in: base)
    let (extra, plain) = try Self.positions(base.file(HealthSQLiteStorage.fileName))
    let changes = [
      "kind = 1 - kind", "type = 3 - type % 2", "uuid = randomblob(16)", "start = start + 1",
      "end = end + 0.5", "value = value + 1", "created = coalesce(created, 0) + 1",
      "sync_id = 'x' || coalesce(sync_id, '')", "deleted = coalesce(deleted, 0) + 1",
      "crc = crc + 1", "origin = origin + 1000",
    ]
    for position in [extra, plain] {
      for set in changes + ["extra = CAST(' ' || coalesce(CAST(extra AS TEXT), '') AS BLOB)"] {
        let directory = TemporaryStoreDirectory()
        defer { directory.remove() }
        base.copy(to: directory)
        let path = directory.file(HealthSQLiteStorage.fileName)
        try Self.change(path, "UPDATE record SET \(set) WHERE pos = ?", [position])
        let findings = HealthSQLiteStorage.check(path: path).map(\.message)
        #expect(
          findings.contains { $0.hasPrefix("record at position \(position): ") },
          "\(set) at \(position): \(findings)")
      }
    }
  }

  @Test func aDamagedOrMissingOriginIsFound() throws {
    let base = TemporaryStoreDirectory()
    defer { base.remove() }
    _ = try Self.formatTwo(in: base)
    let badJSON = Array("{\"source\":".utf8)
    let cases: [(sql: String, arguments: StatementArguments, finding: String)] = [
      (
        "UPDATE origin SET json = CAST(replace(CAST(json AS TEXT), '\"', ' \"') AS BLOB) "
          + "WHERE id = 1", [],
        "origin 1: it does not match its checksum (changed outside weigh, or damaged)"
      ),
      (
        "UPDATE origin SET crc = crc + 1 WHERE id = 1", [],
        "origin 1: it does not match its checksum (changed outside weigh, or damaged)"
      ),
      (
        "UPDATE origin SET json = ?, crc = ? WHERE id = 1",
        [
          Data(badJSON),
          Int64(HealthSQLiteFormat2.originChecksum(id: 1, json: badJSON)),
        ],
        "origin 1: "
      ),
      ("DELETE FROM origin WHERE id = 1", [], "record at position 1: its origin 1 is not in"),
    ]
    for (sql, arguments, finding) in cases {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      base.copy(to: directory)
      let path = directory.file(HealthSQLiteStorage.fileName)
      try Self.change(path, sql, arguments)
      let findings = HealthSQLiteStorage.check(path: path).map(\.message)
      #expect(findings.contains { $0.hasPrefix(finding) }, "\(sql): \(findings)")
      // The records that name the origin are found too, by position.
      #expect(
        findings.contains { $0.hasPrefix("record at position 1: its origin 1 is not in") },
        "\(sql): \(findings)")
    }
  }

  @Test func anOriginNoRecordNamesIsHarmless() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    _ = try Self.formatTwo(in: directory)
    let path = directory.file(HealthSQLiteStorage.fileName)
    let json = Array("{}".utf8)
    try Self.change(
      path, "INSERT INTO origin (id, json, crc) VALUES (999, ?, ?)",
      [Data(json), Int64(HealthSQLiteFormat2.originChecksum(id: 999, json: json))])
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
  }

  @Test func aRepairKeepsEveryRecordThatReads() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let before = try Self.formatTwo(in: directory)
    let path = directory.file(HealthSQLiteStorage.fileName)
    let (extra, plain) = try Self.positions(path)
    try Self.change(path, "UPDATE record SET value = value + 1 WHERE pos = ?", [plain])
    try Self.change(
      path, "UPDATE record SET extra = CAST(' ' || CAST(extra AS TEXT) AS BLOB) WHERE pos = ?",
      [extra])
    let report = try #require(
      try HealthSQLiteStorage.repair(path: path, directory: directory.path))
    #expect(report.kept == before.records.count - 2)
    #expect(report.lost == 2)
    #expect(report.problems.contains { $0.hasPrefix("record at position \(plain): ") })
    #expect(report.problems.contains { $0.hasPrefix("record at position \(extra): ") })
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
    let after = try Fixture.contents(of: path)
    #expect(after.records == before.records.filter { ![extra, plain].contains($0.position) })
    #expect(after.state == before.state)
    #expect(after.pending == before.pending)
    // The copy of the damaged file is kept.
    let damaged = try FileManager.default.contentsOfDirectory(
      atPath: directory.file(Store.damagedFolder))
    #expect(damaged.count == 1)
    // Nothing more to repair.
    #expect(try HealthSQLiteStorage.repair(path: path, directory: directory.path) == nil)
  }

  /// A live sample given another live sample's UUID, its checksum made again so that only
  /// the repeat is wrong, is found at its own position, as is a third with the same UUID; a
  /// deletion record with that UUID is not a repeat.
  @Test func aRepeatedLiveUUIDIsFoundAtTheLaterPosition() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    _ = try Self.formatTwo(in: directory)
    let path = directory.file(HealthSQLiteStorage.fileName)
    let (live, deletions) = try Self.positionsByKind(path)
    try #require(live.count >= 3 && !deletions.isEmpty)
    try Self.giveUUID(of: live[0], to: deletions[0], path)
    #expect(HealthSQLiteStorage.check(path: path).isEmpty)
    try Self.giveUUID(of: live[0], to: live[2], path)
    #expect(
      HealthSQLiteStorage.check(path: path).map(\.message) == [
        "record at position \(live[2]): another live sample has uuid \(try Self.uuid(live[0], path))"
      ])
    try Self.giveUUID(of: live[0], to: live[1], path)
    let findings = HealthSQLiteStorage.check(path: path).map(\.message)
    #expect(findings.count == 2, "\(findings)")
    for position in [live[1], live[2]] {
      #expect(findings.contains { $0.hasPrefix("record at position \(position): another live") })
    }
  }

  /// The positions of the live samples and of the deletion records, in order.
  static func positionsByKind(_ path: String) throws -> (live: [Int64], deletions: [Int64]) {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      (
        try Int64.fetchAll(db, sql: "SELECT pos FROM record WHERE kind = 0 ORDER BY pos"),
        try Int64.fetchAll(db, sql: "SELECT pos FROM record WHERE kind = 1 ORDER BY pos")
      )
    }
  }

  /// The checked parts of the record at `position`, and its origin's id.
  static func parts(_ position: Int64, _ db: Database) throws -> (HealthSQLiteRowParts, Int64) {
    let row = try #require(
      try Row.fetchOne(
        db, sql: "SELECT \(HealthSQLiteFormat2.selection) FROM record WHERE pos = ?",
        arguments: [position]))
    return (
      try HealthSQLiteRowParts.read(row, origins: try HealthSQLiteFormat2.origins(db)), row[7]
    )
  }

  /// The UUID of the record at `position`.
  static func uuid(_ position: Int64, _ path: String) throws -> UUID {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in try parts(position, db).0.uuid }
  }

  /// Gives the record at `position` the UUID of the one at `source`, with its checksum made
  /// again (so only the repeat is wrong).
  static func giveUUID(of source: Int64, to position: Int64, _ path: String) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      var (changed, originID) = try parts(position, db)
      changed.uuid = try parts(source, db).0.uuid
      try db.execute(
        sql: "UPDATE record SET uuid = ?, crc = ? WHERE pos = ?",
        arguments: [
          withUnsafeBytes(of: changed.uuid.uuid) { Data($0) },
          Int64(changed.checksum(originID: originID)), position,
        ])
    }
    try queue.close()
  }
}
