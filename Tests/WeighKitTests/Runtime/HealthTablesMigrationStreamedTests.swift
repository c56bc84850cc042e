import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// The migration of Health's tables to `health.sqlite`, streamed (docs/store.md, "The
/// migration streamed"), against the migration that held everything, kept here as the
/// oracle: on random stores of the layout before `health.sqlite` (samples with and without
/// sync identifiers, deletions, several sources, a simulation in the state or none, some
/// rows in the table files and some in the journal, a row of the file removed or replaced
/// there), the migrated `health.sqlite` holds the same records, origins, state, meta rows
/// and schema; its pending record the same changes (the removals in increasing order); the
/// backup the files as they were; and the store the same files and answers after.
@Suite struct HealthTablesMigrationStreamedTests {
  typealias Transaction = CommandTransactionTests

  /// Health's records and state made by a random script, as a store of today holds them.
  static func randomHealth(seed: UInt64) throws -> (
    records: [HealthRecord], state: HealthSmallState
  ) {
    var random = SeededGenerator(seed: seed)
    let sources = ["Withings", "Scale", "Phone", "weigh-test"]
    var lines = ["clock 2026-01-01T06:00Z"]
    if Bool.random(using: &random) {
      lines.append("simulate scale every 1d at 07:00 start 80kg noise 0.3kg")
    }
    for _ in 0..<Int.random(in: 10...40, using: &random) {
      let source = sources.randomElement(using: &random)!
      let kilograms =
        "\(Int.random(in: 55...95, using: &random)).\(Int.random(in: 0...9, using: &random))kg"
      switch Int.random(in: 0..<6, using: &random) {
      case 0:
        lines.append("health add \(kilograms) source \(source)")
      case 1:
        let sync = "s\(Int.random(in: 0..<6, using: &random))"
        let version = Int.random(in: 1...4, using: &random)
        lines.append("health add \(kilograms) source \(source) sync-id \(sync) version \(version)")
      case 2:
        lines.append(
          "health add \(Int.random(in: 100...9000, using: &random))steps source \(source)")
      case 3:
        lines.append("health add \(kilograms) source \(source)")
        lines.append("health delete last")
      case 4:
        let sync = "d\(Int.random(in: 0..<1000, using: &random))"
        lines.append("health add \(kilograms) source \(source) sync-id \(sync) version 1")
        lines.append("health delete last")
      default:
        lines.append("advance \(Int.random(in: 1...3, using: &random))d")
      }
    }
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    Transaction.run(lines.joined(separator: "\n"), in: directory.path)
    let storage = try HealthSQLiteStorage(
      path: directory.file(HealthSQLiteStorage.fileName), creating: false)
    defer { try? storage.close() }
    let records = try storage.records(after: 0, limit: 0)
    return (records, try #require(try storage.smallState()))
  }

  /// Writes a store of the layout before `health.sqlite` holding `records` and `state`: the
  /// first `split` records compacted into the table files, the others in the journal, with
  /// the removal of the file's row at `removed` and the replacement of the one at `replaced`
  /// (a sample made a deletion at its position) when given.
  static func writeOlderStore(
    _ directory: String, records: [HealthRecord], state: HealthSmallState, split: Int,
    removed: Int?, replaced: Int?, syncIndexDocument: Bool
  ) throws {
    let store = try Store.open(.directory(directory), tables: Session.storeTables)
    defer { store.close() }
    func puts(_ records: ArraySlice<HealthRecord>) -> [StoreChange] {
      records.flatMap { record -> [StoreChange] in
        var changes: [StoreChange] = [.put(StoreRow(HealthRecordCodec.self, record))]
        if case .sample(let sample, _) = record, sample.syncIdentifier != nil {
          changes.append(.put(StoreRow(HealthSyncIndexCodec.self, record)))
        }
        return changes
      }
    }
    var first = puts(records[..<split])
    first.append(.setDocument(name: "health", value: try DocumentCoding.encode(state)))
    if syncIndexDocument { first.append(.set(.healthSyncIndex, to: .bool(true))) }
    try store.commit(first)
    try store.compact()
    var later = puts(records[split...])
    if let removed {
      let id = HealthRecordCodec.id(of: records[removed])
      later += [.remove(table: "health", id: id), .remove(table: "health-sync", id: id)]
    }
    if let replaced, case .sample(let sample, let position) = records[replaced] {
      let deletion = HealthRecord.deletion(
        DeletedObjectRecord(deleting: sample, at: Date(timeIntervalSince1970: 1_767_300_000)),
        position: position)
      later += [
        .put(StoreRow(HealthRecordCodec.self, deletion)),
        .remove(table: "health-sync", id: Int(position)),
      ]
    }
    if !later.isEmpty { try store.commit(later) }
  }

  /// The migration as it was before it streamed: every row read, a removal per row (the
  /// last first), the record's line built whole and `build` from the array; the next open
  /// of a session finishes it (appends the record, compacts, drops the tables).
  static func heldMigration(_ directory: String) throws {
    let store = try Store.open(.directory(directory), tables: Session.storeTables)
    defer { store.close() }
    let records = try store.rows(HealthRecordCodec.self)
    let synced = try store.rows(HealthSyncIndexCodec.self)
    let document = try #require(store.document(.health))
    let state = try #require(DocumentCoding.decode(HealthSmallState.self, from: document))
    var changes: [StoreChange] = []
    for record in records.reversed() {
      changes.append(
        .remove(table: HealthRecordCodec.tableName, id: HealthRecordCodec.id(of: record)))
    }
    for record in synced.reversed() {
      changes.append(
        .remove(table: HealthSyncIndexCodec.tableName, id: HealthSyncIndexCodec.id(of: record)))
    }
    changes.append(.removeDocument(name: DocumentName.health.rawValue))
    if store.document(.healthSyncIndex) != nil {
      changes.append(.removeDocument(name: DocumentName.healthSyncIndex.rawValue))
    }
    changes.append(.set(.healthFormat, to: .string(HealthSQLiteStorage.fileName)))
    changes.append(.set(.healthSimulations, to: .bool(!state.simulations.isEmpty)))
    let sequence = store.committedSequence + 1
    var line = JSONWriter()
    try StoreJournal.encode(sequence: sequence, changes: changes, rows: EncodedRows(), into: &line)
    try HealthSQLiteStorage.build(
      at: directory + "/" + HealthSQLiteStorage.fileName, records: records, state: state,
      pending: HealthSQLiteStorage.PendingRecord(sequence: sequence, bytes: line.bytes),
      appSequence: sequence, directory: directory)
  }

  /// `health.sqlite`'s tables as text (the meta rows but a large record's checksum), and
  /// its pending record's changes with the removals sorted.
  static func contents(_ path: String) throws -> [String: [String]] {
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    return try queue.read { db in
      var found: [String: [String]] = [:]
      let queries = [
        "record":
          "SELECT pos, kind, type, hex(uuid), start, end, value, origin, created, sync_id, "
          + "deleted, hex(extra), crc FROM record ORDER BY pos",
        "origin": "SELECT * FROM origin ORDER BY 1",
        "meta": "SELECT key, value, crc FROM meta WHERE key != 'pending_crc' ORDER BY key",
        "state": "SELECT * FROM state",
        "schema": "SELECT type, name, sql FROM sqlite_schema ORDER BY name",
        "integrity": "PRAGMA integrity_check",
      ]
      for (name, sql) in queries {
        found[name] = try Row.fetchAll(db, sql: sql).map(\.description)
      }
      guard let pending = try Row.fetchOne(db, sql: "SELECT seq, record FROM pending_journal")
      else {
        // A command after the migration that changed Health and not the app's store.
        found["pending"] = []
        found["removals as written"] = []
        return found
      }
      let line = try JSONSerialization.jsonObject(with: pending["record"] as Data) as! [String: Any]
      var removals: [String] = []
      var others: [String] = []
      for change in line["changes"] as! [[String: Any]] {
        let text = String(
          decoding: try JSONSerialization.data(withJSONObject: change, options: .sortedKeys),
          as: UTF8.self)
        if let table = change["remove"] as? String {
          removals.append("\(table) \(change["id"] as! Int)")
        } else {
          others.append(text)
        }
      }
      found["pending"] = ["\(pending["seq"] as Int64)"] + removals.sorted() + others
      found["removals as written"] = removals
      return found
    }
  }

  /// The store's own files but `health.sqlite` and its backup, `weigh.json` without the
  /// tables' stamps (their files' modification times).
  static func storeFiles(_ directory: TemporaryStoreDirectory) -> [String: String] {
    var files: [String: String] = [:]
    for (name, bytes) in directory.snapshot()
    where !name.hasPrefix("health.sqlite") && name != "weigh.lock" && name != "backup" {
      let text = String(decoding: bytes, as: UTF8.self)
      files[name] =
        name == StoreManifest.fileName
        ? text.split(separator: "\n").filter {
          !$0.contains("\"stamp\"") && !$0.contains("\"crc\"")
        }.joined(separator: "\n") : text
    }
    return files
  }

  @Test(arguments: 0..<12) func theStreamedMigrationMakesWhatTheHeldOneMade(seed: UInt64) throws {
    let (records, state) = try Self.randomHealth(seed: seed)
    #expect(records.count > 3)
    var random = SeededGenerator(seed: seed &+ 1000)
    let split = Int.random(in: 0...records.count, using: &random)
    let removed =
      split > 0 && Bool.random(using: &random) ? Int.random(in: 0..<split, using: &random) : nil
    let replaced =
      split > 0 && Bool.random(using: &random) ? Int.random(in: 0..<split, using: &random) : nil
    let syncIndexDocument = Bool.random(using: &random)

    let streamed = TemporaryStoreDirectory()
    let held = TemporaryStoreDirectory()
    defer {
      streamed.remove()
      held.remove()
    }
    for directory in [streamed, held] {
      try Self.writeOlderStore(
        directory.path, records: records, state: state, split: split,
        removed: removed == replaced ? nil : removed, replaced: replaced,
        syncIndexDocument: syncIndexDocument)
    }
    let before = streamed.snapshot()
    let commands = "list\nhealth list\nhealth list steps"
    let first = Transaction.run(commands, in: streamed.path)
    try Self.heldMigration(held.path)
    let oracle = Transaction.run(commands, in: held.path)
    #expect(first.hasPrefix("note: migrated Health to health.sqlite ("), "\(first)")
    #expect(first.hasSuffix(oracle), "\(first)\n---\n\(oracle)")

    let path = HealthSQLiteStorage.fileName
    let made = try Self.contents(streamed.file(path))
    let expected = try Self.contents(held.file(path))
    for key in ["record", "origin", "meta", "state", "schema", "integrity", "pending"] {
      #expect(made[key] == expected[key], "\(key), seed \(seed)")
    }
    #expect(made["integrity"] == ["[integrity_check:\"ok\"]"])
    #expect(made["record"]!.count > 0)
    // The removals in increasing order, each table's after the other's.
    let written = made["removals as written"]!.map { $0.split(separator: " ") }
    for (before, after) in zip(written, written.dropFirst()) {
      let increasing = before[0] == after[0] && Int(before[1])! < Int(after[1])!
      #expect(increasing || (before[0] == "health" && after[0] == "health-sync"))
    }
    #expect(HealthSQLiteStorage.check(path: streamed.file(path)).isEmpty)

    // The backup holds the files as they were.
    let backups = try FileManager.default.contentsOfDirectory(atPath: streamed.file("backup"))
    #expect(backups.count == 1)
    let backup = streamed.file("backup/" + backups[0])
    for name in try FileManager.default.contentsOfDirectory(atPath: backup) {
      #expect(
        FileManager.default.contents(atPath: backup + "/" + name).map(Array.init) == before[name],
        "\(name)")
    }
    #expect(Self.storeFiles(streamed) == Self.storeFiles(held))
    #expect(StoreCheck.run(.directory(streamed.path)).text == "ok: the store reads in full\n")
  }

  /// The migration with its pending record written in pieces (a piece of 97 bytes),
  /// stopped at each writing call it makes (`WriteFaultInjector`: the temporary database,
  /// the backup's files, the rename, the journal's append, the compaction): the next open
  /// shows what the store showed, and the store checks clean, whether the migration was
  /// done or not.
  @Test func aMigrationInPiecesStoppedAtAnyWriteLeavesTheOldStoreOrTheMigratedOne() throws {
    let (records, state) = try Self.randomHealth(seed: 5)
    let commands = "list\nhealth list"
    let writing = HealthSQLiteStorage.PendingWriting(fromBytes: 0, pieceBytes: 97)
    func older() throws -> TemporaryStoreDirectory {
      let directory = TemporaryStoreDirectory()
      try Self.writeOlderStore(
        directory.path, records: records, state: state, split: records.count / 2,
        removed: 0, replaced: nil, syncIndexDocument: true)
      return directory
    }
    func shown(_ directory: TemporaryStoreDirectory) -> String {
      Transaction.run(commands, in: directory.path).split(separator: "\n")
        // What the open says of the migration, or of the journal's torn last line (a
        // crash in its append), aside: what the store shows.
        .filter { !$0.hasPrefix("note: ") && !$0.hasPrefix("warning: ") }
        .joined(separator: "\n")
    }
    let whole = try older()
    defer { whole.remove() }
    let counter = WriteFaultInjector()
    HealthSQLiteStorage.$pendingWriting.withValue(writing) {
      WriteFaultInjector.$current.withValue(counter) {
        _ = Transaction.run(commands, in: whole.path)
      }
    }
    let expected = shown(whole)
    #expect(expected.contains("kg"), "\(expected)")
    #expect(counter.count > 10)
    for crashAt in 0..<counter.count {
      let directory = try older()
      defer { directory.remove() }
      let injector = WriteFaultInjector(remaining: crashAt)
      HealthSQLiteStorage.$pendingWriting.withValue(writing) {
        WriteFaultInjector.$current.withValue(injector) {
          _ = Transaction.run(commands, in: directory.path)
        }
      }
      #expect(injector.crashed, "call \(crashAt) of \(counter.count) was not reached")
      #expect(shown(directory) == expected, "crash at call \(crashAt) of \(counter.count)")
      #expect(
        StoreCheck.run(.directory(directory.path)).text == "ok: the store reads in full\n",
        "crash at call \(crashAt)")
    }
  }
}
