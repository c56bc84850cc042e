import Foundation
import GRDB
import GRDBSQLite
import HealthSim

extension HealthSQLiteStorage {
  /// At most this many findings are listed; the last one says that more were left out.
  static let findingLimit = 100

  /// What is wrong in the Health database at `path`, or nothing (issue 15 step 7, for a
  /// later `weigh check`): SQLite's `integrity_check` (b-trees, and index entries against
  /// their rows), the meta and state rows against their checksums, and every record: its
  /// columns and its JSON row against their checksums, the record against its columns, its
  /// position against the last position taken and the state's counter, a live sample's
  /// UUID held once; then the counts per type against the records. Writes nothing.
  ///
  /// With `journalSequence` (the app journal's last sequence), also says when the database
  /// holds the record of a command the journal lacks (weigh stopped between the two
  /// commits: a note, the next open finishes it), or is ahead of the journal by more.
  public static func check(path: String, journalSequence: Int? = nil) -> [StoreFinding] {
    var findings: [StoreFinding] = []
    func add(_ message: String) {
      guard findings.count < findingLimit else { return }
      findings.append(
        StoreFinding(
          .error, file: path,
          message: findings.count == findingLimit - 1 ? "more damage not listed" : message))
    }
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
      add("there is no Health database here")
      return findings
    }
    // Opening an empty file would write a header to it (the log's mode).
    guard (attributes[.size] as? NSNumber)?.int64Value ?? 0 > 0 else {
      add("the database is empty")
      return findings
    }
    // Looked for before the open, which makes the file.
    let hadLog = StoreFileSystem.exists(path + "-wal")
    // A connection of its own, not the storage's, whose open takes only the format this
    // weigh writes: check reads either (format 1 and format 2).
    _ = HealthSQLiteLibrary.configured
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    let queue: DatabaseQueue
    let version: Int64
    do throws(StoreError) {
      queue = try mapped(path) { try DatabaseQueue(path: path, configuration: configuration) }
      version = try mapped(path) { try queue.inDatabase { db in try layoutVersion(db) } }
    } catch {
      return [StoreFinding(error)]
    }
    let pending = try? mapped(path) {
      try queue.inDatabase { db in
        (
          try readPendingRecord(db, pieceBytes: pendingPieceBytes),
          Int(clamping: try meta("app_sequence", db) ?? 0)
        )
      }
    }
    // The log's file is the mark that tells the next open to look for a pending record:
    // kept when it was there, or when the journal may lack the database's record (a command
    // may commit meanwhile: check takes no lock); else removed as any close removes it.
    defer {
      let keepsLog =
        hadLog
        || journalSequence.map { sequence in
          pending.map { ($0.0?.sequence ?? 0) > sequence } ?? true
        } ?? false
      if keepsLog { keepLogFile(of: queue) }
      try? queue.close()
    }
    if let journalSequence, let (pending, appSequence) = pending {
      let ahead = max(appSequence, pending?.sequence ?? 0)
      if let pending, pending.sequence == journalSequence + 1 {
        findings.append(
          StoreFinding(
            .note, file: path,
            message:
              "the last command's record (sequence \(pending.sequence)) is here but not yet in "
              + "journal.jsonl: weigh stopped between the two writes; the next command that "
              + "opens the store adds it (or weigh check --repair)"))
      } else if ahead > journalSequence {
        add(
          "the database matches the app's journal up to sequence \(ahead), but the journal "
            + "ends at \(journalSequence) (an older journal.jsonl put back?)")
      }
    }
    do {
      try queue.inDatabase { db in
        for line in try String.fetchAll(db, sql: "PRAGMA integrity_check(\(findingLimit))")
        where line != "ok" {
          add("sqlite's integrity check: \(line.lowercased())")
        }
        if version == HealthSQLiteFormat3.version {
          for finding in try HealthSQLiteFormat3.layoutFindings(db) { add(finding) }
        }
        try checkRows(db, version: version, add)
      }
    } catch let damage as HealthSQLiteDamage {
      add(damage.description)
    } catch let error as DatabaseError {
      add("the database cannot be read: \((error.message ?? "\(error.resultCode)").lowercased())")
    } catch {
      add("the database cannot be read: \(error)")
    }
    return findings
  }

  /// Makes closing `queue` keep the log's file, emptied (as `keepLogFile()` does for the
  /// storage's connection).
  private static func keepLogFile(of queue: DatabaseQueue) {
    try? queue.inDatabase { db in
      var persist: Int32 = 1
      _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
      try db.execute(sql: "PRAGMA journal_size_limit = 0")
    }
  }

  /// The meta, state and record rows (see `check(path:)`).
  private static func checkRows(_ db: Database, version: Int64, _ add: (String) -> Void) throws {
    let cursor = try Row.fetchCursor(db, sql: "SELECT key FROM meta ORDER BY key")
    var keys: [String] = []
    while let row = try cursor.next() {
      let key: DatabaseValue = row[0]
      guard case .string(let name) = key.storage else {
        add("a meta row's key is not text")
        continue
      }
      keys.append(name)
    }
    var meta: [String: Int64] = [:]
    for key in keys {
      do { meta[key] = try Self.meta(key, db) } catch let damage as HealthSQLiteDamage {
        add(damage.description)
      }
    }
    let last = meta["last_position"]
    if last == nil { add("the meta row \"last_position\" is missing or damaged") }
    var counter: Int64?
    do { counter = try readState(db)?.counter } catch let damage as HealthSQLiteDamage {
      add(damage.description)
    }
    if let last, let counter, last > counter {
      add("the last position (\(last)) is after the state's counter (\(counter))")
    }

    var counts: [String: Int64] = [:]
    var damaged = false
    let origins =
      version >= HealthSQLiteFormat2.version
      ? try checkedOrigins(db) { add($0) } : [:]
    try eachRecord(db, version: version, origins: origins) { read in
      let checked: CheckedRecord
      switch read {
      case .failure(let damage):
        add(damage.description)
        damaged = true
        return
      case .success(let record): checked = record
      }
      let position = checked.position
      if let last, position > last {
        add("record at position \(position): after the last position taken (\(last))")
      }
      let keys = countKeys(checked.type)
      counts[checked.isDeletion ? keys.deletions : keys.samples, default: 0] += 1
      if meta[longestKnownKey] == 1, case .sample(let sample, _) = checked.record {
        let longest = Double(bitPattern: UInt64(bitPattern: meta[longestKey(sample.type)] ?? 0))
        if sample.endDate.timeIntervalSince(sample.startDate) > longest {
          add(
            "record at position \(position): lasts longer than the meta row "
              + "\"\(longestKey(sample.type))\" says (\(longest) s)")
        }
      }
    }
    try checkLiveUUIDsOnce(db, add)
    // A damaged record cannot be counted: the counts are compared only without one.
    for type in SampleType.allCases where !damaged {
      let keys = countKeys(type)
      for key in [keys.samples, keys.deletions]
      where (meta[key] ?? 0) != (counts[key] ?? 0) {
        add(
          "the count \"\(key)\" says \(meta[key] ?? 0) but there are \(counts[key] ?? 0) records")
      }
    }
  }

  /// Says which live samples share a UUID with one before them, in UUID order, from SQLite's
  /// sort of the live rows' `uuid` column (not through `record_uuid`, which the check does
  /// not trust: `integrity_check` compares it with the rows). The sort spills to temporary
  /// files past its page cache, so the check's memory does not grow with the samples: a set
  /// of every live UUID held 10,000,000 of them, and `weigh check` of the 10,000,000-sample
  /// bench store peaked at 415 MiB (docs/performance.md, "`weigh check` of 10M samples").
  /// Each row's UUID was checked against its row's checksum by the pass before.
  private static func checkLiveUUIDsOnce(_ db: Database, _ add: (String) -> Void) throws {
    let rows = try Row.fetchCursor(
      db, sql: "SELECT uuid, pos FROM record NOT INDEXED WHERE kind != 1 ORDER BY uuid, pos")
    var previous: [UInt8] = []
    while let row = try rows.next() {
      guard case .blob(let data) = (row[0] as DatabaseValue).storage, data.count == 16,
        case .int64(let position) = (row[1] as DatabaseValue).storage
      else { continue }
      let bytes = Array(data)
      if bytes == previous {
        let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        add("record at position \(position): another live sample has uuid \(uuid)")
      }
      previous = bytes
    }
  }
}
