extension Store {
  /// Verifies every file of the store at `location` completely — every line of every table
  /// and of the journal, and the files against each other (`StoreInspection`, the same
  /// validation `open` makes) — without the lock and without changing anything; works on a
  /// store that `open` refuses. No finding of severity `error` means the store is sound.
  ///
  /// - Parameters:
  ///   - tables: codecs of tables beyond the built-in `entries`.
  ///   - largeRecordBytes: the size from which the journal's last record, an import's rows,
  ///     is read a piece at a time (`CompactionPolicy.largeRecordBytes`).
  /// - Complexity: O(total size of the store's files).
  public static func check(
    _ location: StoreLocation, tables extraTables: [any StoreTableCodec.Type] = [],
    largeRecordBytes: Int = CompactionPolicy.standard.largeRecordBytes
  ) -> [StoreFinding] {
    // The tables' rows are checked as they are read and none is held: a clean store of
    // 1,000,000 entries was checked in 117 MiB holding them, 4,000,000 in 398 MiB; 27 MiB
    // both now, 0.97x the instructions at 100,000 (docs/performance.md, chk21).
    check(location, tables: extraTables, largeRecordBytes: largeRecordBytes, rows: .verified)
  }

  /// `check(_:tables:largeRecordBytes:)` reading the tables' rows as `rows` says (tests
  /// compare the findings with the rows loaded, as check read them before chk21).
  static func check(
    _ location: StoreLocation, tables extraTables: [any StoreTableCodec.Type],
    largeRecordBytes: Int, rows: StoreInspection.Rows
  ) -> [StoreFinding] {
    guard case .directory(let directory) = location else { return [] }
    guard StoreFileSystem.isDirectory(directory) else {
      return [StoreFinding(.error, file: directory, message: "no store here; check the path")]
    }
    func stamps() -> [String?] {
      [StoreManifest.fileName, StoreJournal.fileName, StoreAck.fileName].map {
        StoreFileSystem.stamp(StoreLocation.joinPath(directory, $0))
      }
    }
    // Check takes no lock, so a commit or compaction by another process may change the
    // files while they are read: what looks wrong then is read again (a few times at most).
    var inspection: StoreInspection
    var attempts = 0
    repeat {
      let before = stamps()
      inspection = StoreInspection.inspect(
        directory: directory, tables: checkedStorages(builtInTables + extraTables),
        rows: rows, largeRecords: largeRecordBytes)
      attempts += 1
      if inspection.errors.isEmpty || stamps() == before { break }
    } while attempts < 3
    var findings = inspection.errors.map(StoreFinding.init)
    // Opening needs the lock file as much as any other.
    if let problem = StoreLock.problem(in: directory) { findings.append(StoreFinding(problem)) }
    if inspection.manifest == nil && inspection.errors.isEmpty {
      let manifestPath = StoreLocation.joinPath(directory, StoreManifest.fileName)
      if inspection.journalSize != nil {
        // What opening accepts: the first open was stopped before it wrote weigh.json.
        findings.append(
          StoreFinding(
            .note, file: manifestPath,
            message:
              "the store's creation was interrupted before weigh.json was written; the next "
              + "command that opens it finishes it"))
      } else {
        findings.append(
          StoreFinding(
            .error, file: manifestPath,
            message: "weigh.json is missing; this is not a weigh store, or it was damaged"))
      }
    }
    findings += inspection.notes
    if let torn = inspection.torn, inspection.errors.isEmpty {
      findings.append(
        StoreFinding(
          .note, file: StoreLocation.joinPath(directory, StoreJournal.fileName),
          line: inspection.journal.completeLines + 1, column: 1,
          message:
            "the last record is incomplete (\(torn.count) bytes): a commit interrupted by a "
            + "crash, never acknowledged; the next command that opens the store moves it "
            + "aside into \(damagedFolder)/"))
    }
    return findings
  }

  /// The last sequence the store at `location` committed, as its files say without the lock;
  /// nil when they cannot be read (`check` says why).
  public static func committedSequence(
    _ location: StoreLocation, tables extraTables: [any StoreTableCodec.Type] = []
  ) -> Int? {
    guard case .directory(let directory) = location else { return nil }
    // Only the sequence is needed: a large import record is not held (jcom19).
    let inspection = StoreInspection.inspect(
      directory: directory, tables: checkedStorages(builtInTables + extraTables), rows: .ends,
      largeRecords: CompactionPolicy.standard.largeRecordBytes)
    guard inspection.errors.isEmpty, let manifest = inspection.manifest else { return nil }
    return max(manifest.sequence, inspection.journal.lastSequence)
  }

  /// Verifies this store's files completely; see `Store.check(_:tables:)`. Memory stores
  /// have nothing to check.
  public func check() -> [StoreFinding] {
    Store.check(
      location, tables: extraTableCodecs, largeRecordBytes: compaction.largeRecordBytes)
  }

  private static func makeRepairedTable<Codec: StoreTableCodec>(
    _ codec: Codec.Type, directory: String, fallbackSequence: Int, rows: StoreInspection.Rows,
    largeRecord: StoreJournal.LargeRecordRows?
  ) -> any RepairedTable {
    if rows == .loaded {
      return LoadedRepairedTable(
        TableStorage<Codec>(empty: true), directory: directory,
        fallbackSequence: fallbackSequence)
    }
    return StreamedRepairedTable<Codec>(
      directory: directory, fallbackSequence: fallbackSequence, largeRecord: largeRecord)
  }

  private static func checkedStorages(
    _ codecs: [any StoreTableCodec.Type]
  ) -> [String: any AnyTableStorage] {
    var storages: [String: any AnyTableStorage] = [:]
    for codec in codecs { storages[codec.tableName] = makeCheckedStorage(codec) }
    return storages
  }

  private static func makeCheckedStorage<Codec: StoreTableCodec>(
    _ codec: Codec.Type
  ) -> any AnyTableStorage {
    TableStorage<Codec>(empty: true)
  }

  // MARK: Repair

  /// Makes a damaged store readable again from what is intact: the rows of each table
  /// whose checksums match, `weigh.json` if it reads, and the journal's valid transactions
  /// up to the first damaged one. Copies of the files as they were are kept first in
  /// `damaged/repair-<time>/`. Entry numbers are never given again: the next id of each
  /// table is past every id the store's files still mention. A sound store is left as it is
  /// (only a torn last record is moved aside, as any open does).
  ///
  /// - Throws: `locked` when another process has the store, `io` when a copy or the new
  ///   files cannot be written (the copies are made before anything is replaced).
  /// - Complexity: O(total size of the store's files).
  public static func repair(
    _ location: StoreLocation, tables extraTables: [any StoreTableCodec.Type] = [],
    lockTimeout: Duration = .seconds(5)
  ) throws(StoreError) -> StoreRepairReport {
    // The tables are salvaged and written a piece at a time: a damaged store of 4,000,000
    // entries was repaired in 885 MiB holding its rows, 29-33 MiB now (1,000,000: 238 MiB,
    // 30-34 MiB), 0.96x the instructions at 100,000 (docs/performance.md, rep23).
    try repair(location, tables: extraTables, lockTimeout: lockTimeout, rows: .verified)
  }

  /// `repair(_:tables:lockTimeout:)` salvaging the tables' rows as `rows` says: `verified`,
  /// a piece at a time as each file is written anew (`StreamedRepairedTable`); `loaded`,
  /// every intact row held and encoded again, as the repair did before rep23 (the tests'
  /// oracle).
  ///
  /// With `verified`, a journal's last record of `largeRecords` bytes or more, an import's
  /// rows, is read as an open reads it, a piece at a time (`StoreJournal.LargeRecord`), and
  /// its rows are read back as its table's file is written; `loaded` reads it whole.
  static func repair(
    _ location: StoreLocation, tables extraTables: [any StoreTableCodec.Type],
    lockTimeout: Duration, rows: StoreInspection.Rows,
    largeRecords: Int = CompactionPolicy.standard.largeRecordBytes
  ) throws(StoreError) -> StoreRepairReport {
    guard case .directory(let directory) = location else { return StoreRepairReport() }
    guard StoreFileSystem.isDirectory(directory) else {
      throw StoreError(.corrupt, file: directory, message: "no store here; check the path")
    }
    func path(_ name: String) -> String { StoreLocation.joinPath(directory, name) }
    let codecs = builtInTables + extraTables
    var report = StoreRepairReport()
    do {
      let lock = try StoreLock(directory: directory, timeout: lockTimeout)
      // The journal's large last record is read a piece at a time, as an open reads it:
      // read whole, the rows of a kill's 1,000,000-row import were held (rep23, hrep25).
      let inspection = StoreInspection.inspect(
        directory: directory, tables: checkedStorages(codecs), rows: .verified,
        largeRecords: rows == .loaded ? .max : largeRecords)
      guard !inspection.errors.isEmpty else {
        lock.release()
        // Nothing damaged: an open moves a torn record aside and says so.
        let store = try Store.open(location, tables: extraTables, lockTimeout: lockTimeout)
        report.kept = store.recoveryWarnings
        store.close()
        return report
      }
      if let newer = inspection.errors.first(where: { $0.kind == .newerFormat }) {
        throw newer
      }
      report.problems = inspection.errors.map(\.description)

      // Copies of every file of the store, before anything is replaced.
      let folder = path(damagedFolder)
      try StoreFileSystem.makeDirectory(folder)
      let copies = StoreLocation.joinPath(
        folder, uniqueName(in: folder, stem: "repair", suffix: ""))
      try StoreFileSystem.makeDirectory(copies)
      let names =
        [StoreManifest.fileName, StoreJournal.fileName, StoreAck.fileName]
        + codecs.map { $0.tableName + ".json" }
      for name in names where StoreFileSystem.exists(path(name)) {
        if StoreFileSystem.isDirectory(path(name)) {
          // Something else in the file's place: move it with the copies.
          try StoreFileSystem.rename(path(name), to: StoreLocation.joinPath(copies, name))
          report.lost.append("\(name): was a directory; moved to the copies")
        } else {
          // Copied a piece at a time: the journal may end with a torn record of hundreds of
          // megabytes (a repair that read it whole held 1,163 MiB for 576 MB torn, jrec18).
          do throws(StoreError) {
            try StoreFileSystem.create(
              StoreLocation.joinPath(copies, name),
              copying: 0..<(StoreFileSystem.size(path(name)) ?? 0), of: path(name)
            ) { _ in }
          } catch {
            // The file's own error (it cannot be read), not the copy's.
            guard error.kind == .corrupt else { throw error }
            report.lost.append("\(name): cannot be read, so no copy was kept")
          }
        }
      }
      report.copies = copies

      try rebuild(
        directory: directory, codecs: codecs, inspection: inspection, rows: rows,
        report: &report)
      lock.release()
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(.io, message: "\(error)")
    }
    return report
  }

  private static func rebuild(
    directory: String, codecs: [any StoreTableCodec.Type], inspection: StoreInspection,
    rows: StoreInspection.Rows, report: inout StoreRepairReport
  ) throws(StoreError) {
    func path(_ name: String) -> String { StoreLocation.joinPath(directory, name) }
    let manifest = inspection.manifest
    let manifestSequence = manifest?.sequence ?? inspection.journal.base ?? 0
    if manifest == nil {
      report.lost.append(
        "weigh.json: unreadable or missing; settings and the app's state are lost, except "
          + "what the journal sets again")
    } else {
      report.kept.append("weigh.json: settings and the app's state")
    }

    // Each table's line goes here, in the codecs' order, once its file is written.
    let tableLines = (kept: report.kept.count, lost: report.lost.count)
    var storages: [String: any RepairedTable] = [:]
    let large = inspection.journal.largeRecord
    let inspected = checkedStorages(codecs)
    for codec in codecs {
      let largeRecord = large.flatMap { record in
        record.table == codec.tableName
          ? StoreJournal.LargeRecordRows(
            path: path(StoreJournal.fileName), record: record, table: { inspected[$0] }) : nil
      }
      storages[codec.tableName] = makeRepairedTable(
        codec, directory: directory, fallbackSequence: manifestSequence, rows: rows,
        largeRecord: largeRecord)
    }

    var documents = manifest?.documents ?? [:]
    var nextIDs: [String: Int] = [:]
    for (name, info) in manifest?.tables ?? [:] {
      if let next = info["nextID"]?.intValue { nextIDs[name] = next }
    }
    var sequence = manifestSequence
    for storage in storages.values { sequence = max(sequence, storage.snapshotSequence) }
    let transactions = inspection.journal.transactions
    for transaction in transactions {
      let changes = transaction.changes
      var index = changes.startIndex
      while index < changes.endIndex {
        let change = changes[index]
        index += 1
        switch change {
        case .put(let row):
          storages[row.table]?.apply(put: row, sequence: transaction.sequence)
          nextIDs[row.table] = max(nextIDs[row.table] ?? 1, row.id + 1)
        case .putRun(let run):
          storages[run.table]?.apply(run: run, sequence: transaction.sequence)
          if run.count > 0 { nextIDs[run.table] = max(nextIDs[run.table] ?? 1, run.largestID + 1) }
        case .remove(let table, let id):
          // A run of removals from one table in one call, as `Store.apply` makes it.
          var ids = [id]
          while index < changes.endIndex, case .remove(table, let next) = changes[index] {
            ids.append(next)
            index += 1
          }
          storages[table]?.apply(removeIDs: ids, sequence: transaction.sequence)
        case .removeRun(let table, let ids):
          storages[table]?.apply(removeRuns: ids.runs, sequence: transaction.sequence)
        case .setDocument(let name, let value):
          if transaction.sequence > manifestSequence { documents[name] = value }
        case .removeDocument(let name):
          if transaction.sequence > manifestSequence { documents[name] = nil }
        }
      }
      sequence = max(sequence, transaction.sequence)
    }
    let journalPath = StoreJournal.fileName
    if let first = transactions.first, let last = transactions.last {
      report.kept.append(
        "\(journalPath): \(transactions.count) transactions (sequence \(first.sequence) to "
          + "\(last.sequence))")
    } else {
      report.kept.append("\(journalPath): no transactions")
    }
    // The lost lines are read from the file a piece at a time (they may end with a torn
    // record of hundreds of megabytes), counted and searched for ids as they pass.
    var lostIDs = MentionedIDs()
    if let size = inspection.journalSize, inspection.journal.completeLength < size {
      var newlines = 0
      var last: UInt8 = 0
      try StoreFileSystem.readPieces(
        path(journalPath), inspection.journal.completeLength..<size
      ) { piece in
        newlines += piece.count { $0 == 0x0A }
        last = piece.last ?? last
        lostIDs.scan(piece)
      }
      lostIDs.finish()
      let from = inspection.journal.completeLines + 1
      let lines = newlines + (last == 0x0A ? 0 : 1)
      report.lost.append(
        "\(journalPath): \(English.counted(lines, "line")) from line \(from) on "
          + "(\(inspection.journal.problem?.message ?? "not valid"))")
    }

    sequence = max(sequence, inspection.ack?.sequence ?? 0) + 1

    // The tables whose files exist now say what was kept of them.
    let salvaged = codecs.map { $0.tableName }.filter { storages[$0]?.hasFile == true }

    // The new files, in compaction's order: tables, weigh.json, journal, ack.
    var tableInfo = manifest?.tables ?? [:]
    for (name, storage) in storages.sorted(by: { $0.key < $1.key }) {
      var info = tableInfo[name]?.objectMembers ?? [:]
      if storage.hasFile || storage.largestID > 0 {
        try storage.write(directory: directory, sequence: sequence)
        info["file"] = .string(storage.fileName)
        info["stamp"] = StoreFileSystem.stamp(path(storage.fileName)).map(JSONValue.string)
      } else {
        // A table file that is gone (its rows are lost) is no longer listed.
        if manifest?.tables[name]?["file"] != nil {
          report.lost.append("\(storage.fileName): missing; its rows are lost")
        }
        info["file"] = nil
        info["stamp"] = nil
      }
      tableInfo[name] = info.isEmpty ? nil : .object(info)
    }
    var keptLines: [String] = []
    var lostLines: [String] = []
    for name in salvaged {
      guard let storage = storages[name] else { continue }
      let salvage = storage.salvage
      var line = "\(storage.fileName): kept \(English.counted(salvage.keptRows, "row"))"
      if salvage.lostLines.isEmpty && salvage.problem == nil {
        keptLines.append(line)
      } else {
        line +=
          "; lost \(English.counted(salvage.lostLines.count, "line")) (\(salvage.problem ?? "unreadable"))"
        lostLines.append(line)
      }
    }
    report.kept.insert(contentsOf: keptLines, at: tableLines.kept)
    report.lost.insert(contentsOf: lostLines, at: tableLines.lost)

    // Numbers already given (also in what is lost) are never given again.
    for (name, next) in inspection.ack?.nextIDs ?? [:] {
      nextIDs[name] = max(nextIDs[name] ?? 1, next)
    }
    for (name, storage) in storages {
      nextIDs[name] = max(nextIDs[name] ?? 1, storage.largestID + 1)
      if let id = lostIDs.largest[name] { nextIDs[name] = max(nextIDs[name] ?? 1, id + 1) }
    }
    for (name, next) in nextIDs where storages[name] != nil {
      var info = tableInfo[name]?.objectMembers ?? [:]
      info["nextID"] = .integer(next)
      tableInfo[name] = .object(info)
    }
    let rebuilt = StoreManifest(sequence: sequence, tables: tableInfo, documents: documents)
    try StoreFileSystem.replace(
      path(StoreManifest.fileName), with: rebuilt.encoded())
    let header = StoreJournal.header(base: sequence)
    try StoreFileSystem.replace(path(StoreJournal.fileName), with: header)
    let ack = StoreAck(base: sequence, sequence: sequence, length: header.count, nextIDs: nextIDs)
    try StoreFileSystem.replace(path(StoreAck.fileName), with: ack.encoded())
  }
}

/// What `Store.repair` kept and lost, for `weigh check --repair` to print.
public struct StoreRepairReport: Equatable, Sendable {
  /// What made the store unreadable (empty when nothing did).
  public var problems: [String] = []
  /// What was kept, one line per file.
  public var kept: [String] = []
  /// What was lost, one line per file.
  public var lost: [String] = []
  /// The folder with copies of the files as they were, when anything was replaced.
  public var copies: String?

  /// An empty report.
  public init() {}
}
