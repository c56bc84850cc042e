import Foundation
import GRDB
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
    let storage: HealthSQLiteStorage
    do {
      storage = try HealthSQLiteStorage(path: path, creating: false)
    } catch {
      return [StoreFinding(error)]
    }
    // The log's file is the mark that tells the next open to look for a pending record:
    // kept when it was there, or when the journal may lack the database's record (a command
    // may commit meanwhile: check takes no lock); else removed as any close removes it.
    storage.keepsLogOnClose = true
    defer {
      if !hadLog {
        if let journalSequence {
          let pending = try? storage.pendingRecord()
          storage.keepsLogOnClose =
            pending.map { ($0.record?.sequence ?? 0) > journalSequence } ?? true
        } else {
          storage.keepsLogOnClose = false
        }
      }
      try? storage.close()
    }
    if let journalSequence, let (pending, appSequence) = try? storage.pendingRecord() {
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
      try storage.queue.read { db in
        for line in try String.fetchAll(db, sql: "PRAGMA integrity_check(\(findingLimit))")
        where line != "ok" {
          add("sqlite's integrity check: \(line.lowercased())")
        }
        try checkRows(db, add)
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

  /// The meta, state and record rows (see `check(path:)`).
  private static func checkRows(_ db: Database, _ add: (String) -> Void) throws {
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
    var liveUUIDs = Set<UUID>()
    let records = try Row.fetchCursor(
      db,
      sql: "SELECT \(HealthSQLiteColumns.selection), row FROM record ORDER BY pos")
    while let row = try records.next() {
      let columns: HealthSQLiteColumns
      let record: HealthRecord
      do { (columns, record) = try decode(row) } catch let damage as HealthSQLiteDamage {
        add(damage.description)
        damaged = true
        continue
      }
      let position = columns.position
      if let last, position > last {
        add("record at position \(position): after the last position taken (\(last))")
      }
      let keys = countKeys(columns.type)
      counts[columns.isDeletion ? keys.deletions : keys.samples, default: 0] += 1
      if !columns.isDeletion, !liveUUIDs.insert(columns.uuid).inserted {
        add("record at position \(position): another live sample has uuid \(columns.uuid)")
      }
      if meta[longestKnownKey] == 1, case .sample(let sample, _) = record {
        let longest = Double(bitPattern: UInt64(bitPattern: meta[longestKey(sample.type)] ?? 0))
        if sample.endDate.timeIntervalSince(sample.startDate) > longest {
          add(
            "record at position \(position): lasts longer than the meta row "
              + "\"\(longestKey(sample.type))\" says (\(longest) s)")
        }
      }
    }
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
}
