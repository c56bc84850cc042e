/// The one validation of a store directory's files, against each other: opening a store and
/// `weigh check` both call `inspect`, so what one refuses the other reports.
///
/// Each file verifies itself (checksums, formats); this adds what no single file can say: a
/// journal that is missing or emptied while `weigh.json` exists, a journal that does not
/// start where `weigh.json` left off, acknowledged bytes (`journal.ack`) that are gone, a
/// table newer than every transaction, and whether a bad last record is a torn append (moved
/// aside) or damage (refused).
struct StoreInspection {
  /// `weigh.json`, or nil for a store not created yet.
  var manifest: StoreManifest?
  /// The journal's size in bytes, or nil when it does not exist. Only its whole lines are
  /// read (`StoreFileSystem.readLines`): the bytes after the last newline are a torn record
  /// (or damage), which is never held whole.
  var journalSize: Int?
  var journal = StoreJournal.Contents()
  /// `journal.ack`, when it exists and reads.
  var ack: StoreAck?
  /// The journal's bytes after its valid records that a crash left behind, never
  /// acknowledged: opening moves them aside.
  var torn: Range<Int>?
  /// What makes the store unreadable; the first is the one to report.
  var errors: [StoreError] = []
  /// Harmless findings worth telling (`weigh check` prints them).
  var notes: [StoreFinding] = []
  /// True for a store of the format before checksums (or one whose upgrade a crash
  /// interrupted): the next write upgrades it first.
  var needsUpgrade = false

  /// How much of each table file `inspect` reads.
  enum Rows {
    /// Its first line and its last bytes (opening a store).
    case ends
    /// Every row, checked as a load checks it, none held (`weigh check`).
    case verified
    /// Every row, loaded into the table's storage (a repair; tests, as the oracle of
    /// `verified`).
    case loaded
  }

  /// Reads and cross-checks the files of the store in `directory`, reading as much of each
  /// table as `rows` says. Changes nothing.
  ///
  /// - Complexity: O(size of `weigh.json` and the journal), plus the tables unless `rows` is
  ///   `ends`.
  ///
  /// A last record of `largeRecords` bytes or more, an import's rows, is read a piece at a
  /// time and its rows are not held (`StoreJournal.parse(_:large:…)`, `Contents.largeRecord`).
  static func inspect(
    directory: String, tables: [String: any AnyTableStorage], rows: Rows,
    largeRecords: Int = .max
  ) -> StoreInspection {
    var inspection = StoreInspection()
    inspection.run(directory: directory, tables: tables, rows: rows, largeRecords: largeRecords)
    return inspection
  }

  private mutating func run(
    directory: String, tables: [String: any AnyTableStorage], rows: Rows,
    largeRecords: Int
  ) {
    func path(_ name: String) -> String { StoreLocation.joinPath(directory, name) }
    let manifestPath = path(StoreManifest.fileName)
    let journalPath = path(StoreJournal.fileName)
    let ackPath = path(StoreAck.fileName)

    // `weigh.json` first: a newer format must be reported as such, even when the journal
    // holds lines this weigh cannot parse.
    do throws(StoreError) {
      if let bytes = try StoreFileSystem.read(manifestPath) {
        manifest = try StoreManifest.decode(bytes, path: manifestPath)
      }
    } catch {
      errors.append(error)
      if error.kind == .newerFormat { return }
    }
    let manifestBroken = !errors.isEmpty
    // The ack before the journal: a reader without the lock (weigh check) that races a
    // commit then sees a journal at least as long as the ack says, never shorter.
    do throws(StoreError) {
      if let bytes = try StoreFileSystem.read(ackPath) {
        ack = try StoreAck.decode(bytes, path: ackPath)
      }
    } catch {
      errors.append(error)
    }
    do throws(StoreError) {
      var read = try StoreFileSystem.readLines(
        journalPath, largeLine: largeRecords)
      var parsed = false
      if let large = read?.large {
        if let contents = try StoreJournal.parse(
          read!.lines, large: large, size: read!.size, path: journalPath, table: { tables[$0] })
        {
          journal = contents
          parsed = true
        } else if let contents = try StoreJournal.parse(
          read!.lines, removals: large, size: read!.size, path: journalPath,
          table: { tables[$0] })
        {
          journal = contents
          parsed = true
        } else {
          // Not an import's rows nor an undo's removals, or wrong: read whole, and said
          // wrong as before.
          read = try StoreFileSystem.readLines(journalPath)
        }
      }
      journalSize = read?.size
      if !parsed {
        journal = try StoreJournal.parse(
          read?.lines ?? [], size: read?.size ?? 0, path: journalPath
        ) { tables[$0] }
      }
    } catch {
      errors.append(error)
      if error.kind == .newerFormat { return }
    }
    for (_, table) in tables.sorted(by: { $0.key < $1.key }) {
      do throws(StoreError) {
        try table.readHeader(directory: directory)
        guard table.hasFile else { continue }
        switch rows {
        case .ends: break
        case .verified: try table.verifyFile(directory: directory)
        case .loaded: try table.load(directory: directory)
        }
      } catch {
        errors.append(error)
      }
    }
    for name in [StoreManifest.fileName, StoreJournal.fileName, StoreAck.fileName]
      + tables.values.map(\.fileName).sorted()
    where StoreFileSystem.exists(path(name + ".tmp")) {
      notes.append(
        StoreFinding(
          .note, file: path(name + ".tmp"),
          message:
            "a temporary file left by an interrupted compaction or import; it is ignored and "
            + "overwritten by the next one"))
    }
    // Unlinked as soon as it is made: only a kill in between leaves one (empty).
    for name in tables.values.map(\.fileName).sorted()
    where StoreFileSystem.exists(path(name + StoreScratchFile.suffix)) {
      notes.append(
        StoreFinding(
          .note, file: path(name + StoreScratchFile.suffix),
          message:
            "a scratch file left by an interrupted import; it is ignored and removed by the "
            + "next one"))
    }

    guard let manifest else {
      if manifestBroken { return }
      // A new store, or one whose creation was interrupted before `weigh.json` existed.
      // Anything else without `weigh.json` is damage that must not be papered over.
      let orphans = tables.values.filter(\.hasFile)
      if !journal.transactions.isEmpty || !orphans.isEmpty
        || (journal.problem != nil && journal.hasHeader)
      {
        errors.append(
          StoreError(
            .corrupt, file: manifestPath,
            message:
              "weigh.json is missing but the store holds data; restore "
              + "it from a backup or run weigh check --repair"))
      }
      return
    }
    checkJournal(manifest, journalPath: journalPath, ackPath: ackPath)
    for table in tables.values.sorted(by: { $0.name < $1.name })
    where !table.hasFile && manifest.tables[table.name]?["file"] != nil
      && !errors.contains(where: { $0.file == path(table.fileName) })
    {
      errors.append(
        StoreError(
          .corrupt, file: path(table.fileName),
          message:
            "the table file is missing but weigh.json lists it; restore it from a backup or "
            + "run weigh check --repair"))
    }
    for table in tables.values.sorted(by: { $0.name < $1.name }) where table.hasFile {
      let tablePath = path(table.fileName)
      if manifest.version >= 2 && !table.hasChecksums {
        errors.append(
          StoreError(
            .corrupt, file: tablePath, line: 1, column: 1,
            message:
              "the table has no checksums but weigh.json is of a store that writes them: the "
              + "file was replaced outside weigh; restore it from a "
              + "backup or run weigh check --repair"))
      }
      let newest = max(manifest.sequence, journal.lastSequence)
      if table.snapshotSequence > newest, journal.problem == nil {
        errors.append(
          StoreError(
            .corrupt, file: tablePath, line: 1, column: 1,
            message:
              "the table is at sequence \(table.snapshotSequence), after the store's last "
              + "transaction (\(newest)): transactions were removed from the journal or "
              + "weigh.json is older than the table; restore the store "
              + "from a backup or run weigh check --repair"))
      }
    }
    if manifest.version < 2 || journal.version < 2 || ack == nil
      || tables.values.contains(where: { $0.hasFile && !$0.hasChecksums })
    {
      needsUpgrade = true
      if errors.isEmpty {
        notes.append(
          StoreFinding(
            .note, file: manifestPath,
            message:
              "the store was written by an older weigh, without checksums; the next change "
              + "rewrites it with them"))
      }
    }
  }

  /// The journal against `weigh.json` and `journal.ack`.
  private mutating func checkJournal(
    _ manifest: StoreManifest, journalPath: String, ackPath: String
  ) {
    let restore = "restore it from a backup or run weigh check --repair"
    guard let size = journalSize else {
      errors.append(
        StoreError(
          .corrupt, file: journalPath,
          message:
            "journal.jsonl is missing but weigh.json exists: the changes since the last "
            + "compaction are gone; \(restore)"))
      return
    }
    guard journal.hasHeader else {
      if let problem = journal.problem, size > 0 {
        errors.append(
          StoreError(
            .corrupt, file: journalPath, line: problem.line, column: problem.column,
            message: "\(problem.message); \(restore)"))
      } else {
        errors.append(
          StoreError(
            .corrupt, file: journalPath, line: 1, column: 1,
            message:
              "journal.jsonl is empty but weigh.json exists: the changes since the last "
              + "compaction are gone; \(restore)"))
      }
      return
    }
    let position = (line: journal.completeLines + 1, column: 1)
    if journal.version < 2 {
      if manifest.version >= 2, journal.lastSequence > manifest.sequence {
        errors.append(
          StoreError(
            .corrupt, file: journalPath, line: 1, column: 1,
            message:
              "the journal is of the format before checksums but holds transactions after "
              + "weigh.json's sequence \(manifest.sequence); \(restore)"))
      }
      if let problem = journal.problem {
        if problem.unterminated {
          torn = problem.offset..<size
        } else {
          errors.append(
            StoreError(
              .corrupt, file: journalPath, line: problem.line, column: problem.column,
              message: "\(problem.message); \(restore)"))
        }
      }
      return
    }
    let base = journal.base ?? 0
    if manifest.version < 2 || base > manifest.sequence {
      errors.append(
        StoreError(
          .corrupt, file: journalPath, line: 1, column: 1,
          message:
            "the journal starts after sequence \(base), but weigh.json is at "
            + "\(manifest.sequence): weigh.json is older than the journal (restored from a "
            + "backup?); \(restore)"))
      return
    }
    // Bytes the store acknowledged, which must all be there and valid.
    var acknowledged = 0
    var acknowledgedSequence = base
    if let ack {
      if ack.base > base {
        errors.append(
          StoreError(
            .corrupt, file: journalPath, line: 1, column: 1,
            message:
              "journal.ack acknowledges transactions up to \(ack.sequence) of a journal "
              + "starting after \(ack.base), but journal.jsonl starts after \(base): the "
              + "journal was replaced or deleted and made again; \(restore)"))
        return
      }
      if ack.base == base {
        acknowledged = ack.length
        acknowledgedSequence = ack.sequence
      }
      // An older base: a compaction was interrupted before it rewrote the ack (or a power
      // loss lost its last writes); the journal's own checks still hold.
    } else if !journal.transactions.isEmpty || base != manifest.sequence {
      errors.append(
        StoreError(
          .corrupt, file: ackPath,
          message:
            "journal.ack is missing, so the journal's acknowledged length cannot be checked; "
            + "run weigh check --repair"))
      return
    }
    if let problem = journal.problem {
      // A kill during the append leaves a prefix of the line, without its newline; a power
      // loss, zeros. A whole line that is wrong was damaged after it was written.
      if problem.offset < acknowledged {
        errors.append(
          StoreError(
            .corrupt, file: journalPath, line: problem.line, column: problem.column,
            message:
              "\(problem.message); this record was acknowledged (the journal held "
              + "\(acknowledged) bytes through sequence \(acknowledgedSequence)); \(restore)"))
        return
      }
      if !problem.unterminated {
        errors.append(
          StoreError(
            .corrupt, file: journalPath, line: problem.line, column: problem.column,
            message: "\(problem.message); \(restore)"))
        return
      }
      torn = problem.offset..<size
    } else if journal.completeLength < acknowledged {
      errors.append(
        StoreError(
          .corrupt, file: journalPath, line: position.line, column: position.column,
          message:
            "the journal ends at byte \(journal.completeLength) (sequence "
            + "\(journal.lastSequence)), but \(acknowledged) bytes through sequence "
            + "\(acknowledgedSequence) were acknowledged: acknowledged records were removed "
            + "or the file was cut short; \(restore)"))
      return
    }
    if acknowledged > 0 {
      let headerEnd = journal.transactions.first.map { _ in 0 } ?? journal.completeLength
      let atAck = journal.transactions.first { $0.end == acknowledged }
      let matches =
        atAck.map { $0.sequence == acknowledgedSequence }
        ?? (acknowledgedSequence == base
          && (headerEnd == acknowledged
            || StoreJournal.header(base: base).count == acknowledged))
      if !matches {
        errors.append(
          StoreError(
            .corrupt, file: journalPath, line: position.line, column: position.column,
            message:
              "journal.ack says sequence \(acknowledgedSequence) ends at byte \(acknowledged), "
              + "but no record of the journal does: records were changed, removed or "
              + "reordered; \(restore)"))
        return
      }
    }
    if base < manifest.sequence, journal.lastSequence < manifest.sequence {
      errors.append(
        StoreError(
          .corrupt, file: journalPath, line: position.line, column: position.column,
          message:
            "the journal ends at sequence \(journal.lastSequence), before the sequence "
            + "\(manifest.sequence) weigh.json was written at: records were removed; \(restore)"))
    }
  }
}
