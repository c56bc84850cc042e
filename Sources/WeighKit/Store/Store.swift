#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The app's durable data: small named documents and tables of rows, in a directory of
/// human-readable JSON files, or in memory only.
///
/// Layout of a store directory (docs/store.md describes the format and its guarantees):
/// - `weigh.json` (`weigh-store` version 2): the sequence it is complete up to, per table
///   its file and next unused id, the named documents (`settings`, `app`, `health`), and its
///   CRC-32.
/// - `<table>.json` (`weigh-entries` for `entries.json`): a header line with the table's own
///   sequence, then one row per line in increasing id order, each with its CRC-32, then a
///   line with the rows' count and checksum sum. Written at the first compaction that has
///   changes for the table.
/// - `journal.jsonl` (`weigh-journal` version 2): a header naming the sequence it starts
///   after, then one line per committed transaction, numbered without gaps, each with its
///   CRC-32.
/// - `journal.ack`: the last acknowledged sequence and the journal's length after it,
///   overwritten in place after each commit's `fdatasync`: what was acknowledged, so that
///   a journal cut short is told from an append torn by a crash.
/// - `damaged/`: what the store moved aside (a torn last record) or a repair replaced.
/// - `weigh.lock`: the `flock` held by the process that has the store open, with its pid
///   and command line.
///
/// A commit appends one journal line and fdatasyncs it before returning, so it costs the
/// size of the change, not of the store. Opening reads `weigh.json`, the first and last line
/// of each table and the journal (kept under about 1 MiB by compaction); a table's rows are
/// read only when asked for. Compaction rewrites each changed table, then `weigh.json`, then
/// an empty journal, then `journal.ack`, each by temporary file, fsync, rename and directory
/// fsync; since every file records the sequence it is complete up to, replay after a crash
/// between any two steps skips the journal lines a file already holds.
///
/// A store that cannot be read is never written to: `open` (or the first read of a table)
/// fails with a `StoreError` naming the file, line and column; `StoreInspection` is the one
/// validation that `open` and `check` share. `weigh.json` records each table file's size and
/// modification time as compaction wrote it; a file that differs (edited, restored, copied)
/// is read whole at open, and its new stamp recorded once it reads. Stores of the format
/// before checksums (version 1) are read, and rewritten with checksums at their first write.
public final class Store {
  /// Where the store lives.
  public let location: StoreLocation
  /// The named documents, as of the last commit.
  public private(set) var documents: [String: JSONValue] = [:]
  /// When the journal gets folded into the snapshot files.
  public let compaction: CompactionPolicy
  /// The last automatic compaction's failure, if any; the commits themselves were durable.
  public private(set) var lastCompactionError: StoreError?

  /// What opening the store recovered from, one sentence each, to be shown once as a
  /// warning (a torn last record moved aside); empty almost always.
  public private(set) var recoveryWarnings: [String] = []

  private let directory: String?
  private var lock: StoreLock?
  private var journalDescriptor: Int32 = -1
  private var journalLength = 0
  /// The sequence the journal starts after.
  private var journalBase = 0
  private var ackDescriptor: Int32 = -1
  /// True when the journal cannot be written (read-only file): reading works, commits fail.
  private var isReadOnly = false
  /// True for a store without checksums (an older format): the next commit rewrites it.
  private var needsUpgrade = false
  private var sequence = 0
  private var tables: [String: any AnyTableStorage] = [:]
  private var tableInfo: [String: JSONValue] = [:]
  private var nextIDs: [String: Int] = [:]
  private var snapshotBytes = 0
  private var isClosed = false
  /// Each table file's stamp (size and modification time) when the store was closed.
  private var stampsAtClose: [String: String?] = [:]
  /// The tables whose rows this store took over from the store it reopened
  /// (`reuseRows(of:)`), instead of reading their files.
  public private(set) var reusedTables: Set<String> = []
  /// `weigh.json` as it is on disk (the journal's changes are not in it).
  private var diskManifest = StoreManifest()
  /// Tables whose file is not the one the last compaction wrote (its size or modification
  /// time differs): edited, restored or copied. Opening reads them whole, so that damage
  /// anywhere in them is found before any command runs, not after a change was appended.
  private var unverifiedTables: Set<String> = []
  /// The tables whose file had changed outside weigh since the last compaction when the
  /// store was opened (and were read whole then): what was derived from them may be stale.
  public private(set) var tablesChangedOutside: Set<String> = []
  /// The commits gathered since `beginBatch`, applied in memory but not yet written.
  private var batch: [StoreChange]?
  /// The documents when the batch began: a document set back to its value is not written.
  private var documentsBeforeBatch: [String: JSONValue] = [:]
  /// The codecs given to `open` beyond the built-in tables.
  let extraTableCodecs: [any StoreTableCodec.Type]
  /// The rows of the transaction being committed (of the whole batch while batching), each
  /// encoded once: read back by `commit`'s check, then copied into the journal record.
  private var encodedRows = EncodedRows()
  /// The journal record being written; its buffer is kept from one commit to the next.
  private var record = JSONWriter()
  /// The record of the transaction being committed, when its first changes (the row
  /// changes a transaction starts with: an import's rows) were encoded, read back and
  /// written to the journal as its first commit checked them (`streamRows`), so that its
  /// rows are never held as bytes; `appendRecord` finishes it. The bytes past
  /// `journalLength` are a record without its checksum and newline until then: a crash
  /// leaves them as a torn append, which opening moves aside.
  private var stream: RecordStream?
  /// Where the rows of the streamed record lie in the journal, for the compaction that
  /// follows the commit (which copies them instead of encoding them again).
  private var journalRows = JournalRowPlaces()
  /// The file of the table an import's run fills from empty, written as the run streams
  /// (`StreamedTableFile`), for the compaction that follows the commit; nil otherwise, and
  /// abandoned at the end of the commit when no compaction took it.
  private var tableStream: StreamedTableFile?
  /// The run of rows being streamed (`beginStreamedRun` … `finishStreamedRun`): its table,
  /// and its rows' ids so far.
  private var streamedRun: (table: String, ids: StreamedRunIDs)?
  /// The table of the streamed run the running batch committed, until `endBatch`.
  private var committedStreamedRun: String?
  /// True once the store closed itself after a command whose streamed rows no compaction
  /// wrote into their table's file: they are in the journal only, and the store must be
  /// opened again to read them (`Session` does).
  public private(set) var needsReopening = false
  /// The row shapes read back through their codec in the running transaction (the batch
  /// while batching): a row of one of them is not read back again (`StoreRow.loadProblem`).
  private var readShapes = ReadBackShapes()
  /// `journal.ack`'s bytes; its buffer is kept from one commit to the next.
  private var ackBytes: [UInt8] = []
  /// The journal's and the ack's paths.
  private let journalPath: String
  private let ackPath: String

  /// The table codecs every store knows.
  public static let builtInTables: [any StoreTableCodec.Type] = [EntryCodec.self]

  private init(
    location: StoreLocation, compaction: CompactionPolicy,
    extraTableCodecs: [any StoreTableCodec.Type]
  ) {
    self.location = location
    self.extraTableCodecs = extraTableCodecs
    self.compaction = compaction
    if case .directory(let path) = location {
      directory = path
    } else {
      directory = nil
    }
    journalPath = StoreLocation.joinPath(directory ?? ".", StoreJournal.fileName)
    ackPath = StoreLocation.joinPath(directory ?? ".", StoreAck.fileName)
  }

  /// Opens (creating on first use) the store at `location` and takes its lock until `close`.
  ///
  /// - Parameters:
  ///   - tables: codecs of tables beyond the built-in `entries`.
  ///   - lockTimeout: how long to wait for another process to release the store.
  /// - Throws: `StoreError` of kind `locked`, `corrupt`, `newerFormat` or `io`. Nothing on
  ///   disk is changed when the store cannot be read.
  /// - Complexity: O(size of `weigh.json` and the journal); table rows are not read, unless
  ///   a table file changed outside weigh since the last compaction.
  public static func open(
    _ location: StoreLocation, tables extraTables: [any StoreTableCodec.Type] = [],
    lockTimeout: Duration = .seconds(5), compaction: CompactionPolicy = .standard
  ) throws(StoreError) -> Store {
    let store = Store(location: location, compaction: compaction, extraTableCodecs: extraTables)
    let codecs = builtInTables + extraTables
    for codec in codecs {
      store.tables[codec.tableName] = makeStorage(codec, empty: location == .memory)
    }
    if let directory = store.directory {
      try store.openDirectory(directory, lockTimeout: lockTimeout)
    }
    return store
  }

  private static func makeStorage<Codec: StoreTableCodec>(
    _ codec: Codec.Type, empty: Bool
  ) -> any AnyTableStorage {
    TableStorage<Codec>(empty: empty)
  }

  private func path(_ name: String) -> String {
    StoreLocation.joinPath(directory ?? ".", name)
  }

  private func openDirectory(_ directory: String, lockTimeout: Duration) throws(StoreError) {
    try StoreFileSystem.makeDirectory(directory)
    lock = try StoreLock(directory: directory, timeout: lockTimeout)
    do throws(StoreError) {
      try readState(directory)
    } catch {
      close()
      throw error
    }
  }

  private func readState(_ directory: String) throws(StoreError) {
    let manifestPath = path(StoreManifest.fileName)
    var inspection = StoreInspection.inspect(
      directory: directory, tables: tables, rows: .ends,
      largeRecords: compaction.largeRecordBytes)
    if let error = inspection.errors.first { throw error }
    let large = inspection.journal.largeRecord.flatMap { record in
      largeRecordReplay(record, inspection: inspection, directory: directory)
    }
    if large == .unfit {
      // Held as any record: its rows are applied to the table in memory.
      inspection = StoreInspection.inspect(directory: directory, tables: tables, rows: .ends)
      if let error = inspection.errors.first { throw error }
    }

    var manifest: StoreManifest
    var journal = inspection.journal
    if let existing = inspection.manifest {
      manifest = existing
      needsUpgrade = inspection.needsUpgrade
    } else {
      // A new store (or one whose creation was interrupted): journal, ack, then weigh.json.
      try StoreFileSystem.replace(
        journalPath, with: StoreJournal.header(base: 0))
      journal = try StoreJournal.parse(StoreJournal.header(base: 0), path: journalPath) { _ in nil }
      try StoreFileSystem.replace(
        ackPath,
        with: StoreAck(base: 0, sequence: 0, length: journal.completeLength).encoded())
      manifest = StoreManifest()
      try StoreFileSystem.replace(manifestPath, with: manifest.encoded())
    }

    diskManifest = manifest
    for (name, table) in tables where table.hasFile {
      let recorded = manifest.tables[name]?["stamp"]?.stringValue
      if recorded == nil || recorded != StoreFileSystem.stamp(path(table.fileName)) {
        unverifiedTables.insert(name)
        if recorded != nil { tablesChangedOutside.insert(name) }
      }
    }
    documents = manifest.documents
    tableInfo = manifest.tables
    for (name, info) in manifest.tables {
      if let next = info["nextID"]?.intValue { nextIDs[name] = next }
    }
    sequence = manifest.sequence
    for table in tables.values { sequence = max(sequence, table.snapshotSequence) }
    for transaction in journal.transactions {
      apply(
        transaction.changes, sequence: transaction.sequence, documentsSequence: manifest.sequence)
      sequence = max(sequence, transaction.sequence)
    }
    // Numbers handed out are never given again, even if their transactions were lost.
    for (name, next) in inspection.ack?.nextIDs ?? [:] where tables[name] != nil {
      nextIDs[name] = max(nextIDs[name] ?? 1, next)
    }
    journalBase = journal.base ?? manifest.sequence
    journalLength = journal.completeLength

    if let descriptor = try StoreFileSystem.openForWriting(journalPath, append: true) {
      journalDescriptor = descriptor
    } else {
      isReadOnly = true
    }
    var tornIDs = false
    if let torn = inspection.torn {
      // Read from the file a piece at a time, as it is written aside and searched for ids:
      // it may be hundreds of megabytes.
      let mentioned = try setAside(torn, line: journal.completeLines + 1)
      // The torn commit's numbers were never shown, but they are not given again either.
      for (name, id) in mentioned.largest where tables[name] != nil && id >= nextIDs[name] ?? 1 {
        nextIDs[name] = id + 1
        tornIDs = true
      }
    }
    if !isReadOnly, !needsUpgrade {
      guard let descriptor = try StoreFileSystem.openForWriting(ackPath) else {
        throw StoreFileSystem.ioError(ackPath, "open for writing")
      }
      ackDescriptor = descriptor
      if tornIDs { acknowledge() }
    }
    try verifyTables()
    measureSnapshots()
    if large == .compact, let record = inspection.journal.largeRecord {
      try compactLargeRecord(record)
    }
  }

  /// What opening does with a large last record read a piece at a time
  /// (`StoreJournal.LargeRecord`).
  private enum LargeRecordReplay {
    /// The table's file holds its rows already (a kill in the compaction, after the file's
    /// rename): the run is skipped as any change older than the file.
    case inFile
    /// The table has no rows: its file is written from the record, and the journal
    /// compacted, as the import's compaction would have (`compactLargeRecord`).
    case compact
    /// Anything else: the journal is read whole, as before.
    case unfit
  }

  private func largeRecordReplay(
    _ record: StoreJournal.LargeRecord, inspection: StoreInspection, directory: String
  ) -> LargeRecordReplay {
    guard let table = tables[record.table], let last = inspection.journal.transactions.last
    else { return .unfit }
    if table.hasFile, table.snapshotSequence >= last.sequence { return .inFile }
    guard !table.hasFile, !table.isDirty, table.loadedRowCount == 0, !inspection.needsUpgrade,
      compaction.shouldCompact(journalBytes: record.range.count, snapshotBytes: 0),
      access(journalPath, W_OK) == 0
    else { return .unfit }
    // The table's rows must all come from the record: no earlier one may change it.
    for transaction in inspection.journal.transactions.dropLast() {
      for change in transaction.changes {
        switch change {
        case .put(let row): if row.table == record.table { return .unfit }
        case .putRun(let run): if run.table == record.table { return .unfit }
        case .remove(let name, _), .removeRun(let name, _):
          if name == record.table { return .unfit }
        case .setDocument, .removeDocument: continue
        }
      }
    }
    return .compact
  }

  /// Writes the file of the table a large last record filled (a new store's import whose
  /// compaction a kill or a failed write stopped) from the record's rows, read from the
  /// journal a piece at a time and encoded again (`StreamedTableFile`), then compacts: the
  /// files the import's compaction would have written, without holding the rows: the command
  /// after a kill at the rename of a 4,000,000-row import's table file (a 626 MB record)
  /// peaked at 1,259 MiB holding them, 27 MiB now, the same files (`md5sum`; jcom19).
  ///
  /// - Throws: `corrupt` when the record changed since it was read, `io` when a file cannot
  ///   be written; the store is closed then, and its files are those before or after a step
  ///   of the compaction, as a kill would leave them.
  private func compactLargeRecord(_ record: StoreJournal.LargeRecord) throws(StoreError) {
    guard let table = tables[record.table] else { return }
    let file = try StreamedTableFile(
      table: record.table, path: path(table.fileName),
      header: table.fileHeader(sequence: sequence), sequence: sequence,
      pieceBytes: journalPieceBytes)
    var writer = JSONWriter()
    let read = try StoreJournal.readLargeRecord(
      journalPath, record.range, table: { tables[$0] },
      each: { row in
        writer.truncate(to: 0)
        row.encode(into: &writer)
        _ = writer.bytes.withUnsafeBufferPointer { file.add(row: $0) }
      })
    guard let read, read.1.ids == record.ids, file.isOpen,
      file.rowCount == record.count
    else {
      file.abandon()
      throw StoreError(
        .io, file: journalPath,
        message: "cannot compact: the journal changed while its last record was read")
    }
    tableStream = file
    try compact(reused: [:])
  }

  /// Moves the torn bytes at the journal's end (`range`) into `damaged/` and cuts them off,
  /// so that nothing is lost silently and the next append starts on a clean line; returns
  /// the ids they mention (`MentionedIDs`). They are read from the journal a piece at a
  /// time, each written aside and searched as it passes: a kill during a streamed import of
  /// 4,000,000 rows left 576 MB torn, and the open that held them peaked at 600 MiB; 24 MiB
  /// now, the same bytes set aside (jrec18).
  private func setAside(_ range: Range<Int>, line: Int) throws(StoreError) -> MentionedIDs {
    let position = "\(journalPath):\(line):1"
    var mentioned = MentionedIDs()
    guard !isReadOnly, directory != nil else {
      try StoreFileSystem.readPieces(journalPath, range) { mentioned.scan($0) }
      recoveryWarnings.append(
        "\(position): the last record is incomplete (a commit interrupted by a crash, never "
          + "acknowledged); it is ignored, and will be moved aside once the journal can be written")
      mentioned.finish()
      return mentioned
    }
    let folder = path(Store.damagedFolder)
    try StoreFileSystem.makeDirectory(folder)
    let name = Store.uniqueName(in: folder, stem: "journal-torn", suffix: ".jsonl")
    try StoreFileSystem.create(
      StoreLocation.joinPath(folder, name), copying: range, of: journalPath
    ) { mentioned.scan($0) }
    try StoreFileSystem.truncate(journalDescriptor, to: journalLength, path: journalPath)
    try StoreFileSystem.sync(journalDescriptor, path: journalPath, dataOnly: true)
    recoveryWarnings.append(
      "\(position): the last record was incomplete (a commit interrupted by a crash, never "
        + "acknowledged); its \(range.count) bytes were moved aside to "
        + "\(Store.damagedFolder)/\(name)")
    mentioned.finish()
    return mentioned
  }

  /// The folder inside a store where damaged or torn data is kept.
  public static let damagedFolder = "damaged"

  /// `stem-<UTC time><suffix>`, with `-2`, `-3`, … when that exists in `folder`.
  static func uniqueName(in folder: String, stem: String, suffix: String) -> String {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var writer = JSONWriter()
    UTCTimestamp.write(Int64(now.tv_sec), into: &writer)  // checked: time_t is Int64
    let stamp = String(decoding: writer.bytes, as: UTF8.self)
      .filter { $0 != "\"" && $0 != ":" && $0 != "-" }
    var name = "\(stem)-\(stamp)\(suffix)"
    var counter = 2
    while StoreFileSystem.exists(StoreLocation.joinPath(folder, name)) {
      name = "\(stem)-\(stamp)-\(counter)\(suffix)"
      counter += 1
    }
    return name
  }

  private func measureSnapshots() {
    snapshotBytes = tables.values.reduce(0) { total, table in
      total + (StoreFileSystem.size(path(table.fileName)) ?? 0)
    }
  }

  private func apply(_ changes: [StoreChange], sequence: Int, documentsSequence: Int) {
    let touchesDocuments = sequence > documentsSequence
    var index = changes.startIndex
    while index < changes.endIndex {
      let change = changes[index]
      index += 1
      switch change {
      case .put(let row):
        // A run of puts into one table (an import's rows) goes to the table in one call, and
        // raises its next id once: no look-up by the table's name per row.
        let start = index - 1
        var largest = row.id
        while index < changes.endIndex, case .put(let next) = changes[index],
          next.table == row.table
        {
          largest = max(largest, next.id)
          index += 1
        }
        tables[row.table]?.apply(puts: changes[start..<index], sequence: sequence)
        if touchesDocuments { nextIDs[row.table] = max(nextIDs[row.table] ?? 1, largest + 1) }
      case .putRun(let run):
        guard run.count > 0 else { continue }
        tables[run.table]?.apply(run: run, sequence: sequence)
        if touchesDocuments {
          nextIDs[run.table] = max(nextIDs[run.table] ?? 1, run.largestID + 1)
        }
      case .remove(let table, _), .removeRun(let table, _):
        // A run of removals from one table (an undo of an import) goes in one call: each call
        // is a pass over a loaded table's rows.
        var runs: [IDStepRun] = []
        var single = true
        index -= 1
        while index < changes.endIndex {
          if case .remove(table, let id) = changes[index] {
            runs.append(IDStepRun(id))
          } else if case .removeRun(table, let ids) = changes[index] {
            runs += ids.runs
            single = false
          } else {
            break
          }
          index += 1
        }
        if single {
          tables[table]?.apply(removeIDs: runs.map(\.lowerBound), sequence: sequence)
        } else {
          tables[table]?.apply(removeRuns: runs, sequence: sequence)
        }
      case .setDocument(let name, let value):
        if touchesDocuments { documents[name] = value }
      case .removeDocument(let name):
        if touchesDocuments { documents[name] = nil }
      }
    }
  }

  // MARK: Reading

  /// Takes over the rows that `previous`, the same store opened before and closed since,
  /// had read, for each table that is as it was: nobody committed in between (the same
  /// sequence, journal base and journal length) and the table's file has the size and
  /// modification time it had when `previous` closed. Another process's commit raises the
  /// sequence and an edit outside weigh changes the stamp; such a table is read again from
  /// its file when it is next used.
  ///
  /// The REPL reopens the store for every command (docs/store.md); this keeps a command
  /// from reading a large table again when nothing changed.
  public func reuseRows(of previous: Store) {
    guard directory != nil, previous.directory == directory, previous.isClosed, !isClosed,
      batch == nil, previous.sequence == sequence, previous.journalBase == journalBase,
      previous.journalLength == journalLength
    else { return }
    for (name, old) in previous.tables where old.isLoaded {
      guard let current = tables[name],
        ObjectIdentifier(type(of: current)) == ObjectIdentifier(type(of: old)),
        current.snapshotSequence == old.snapshotSequence,
        let recorded = previous.stampsAtClose[name],
        recorded == StoreFileSystem.stamp(path(current.fileName))
      else { continue }
      tables[name] = old
      reusedTables.insert(name)
    }
  }

  /// The log's entries in increasing id order. The first call reads `entries.json`.
  ///
  /// - Complexity: O(n) on the first call, O(1) after.
  public func entries() throws(StoreError) -> [Entry] {
    try rows(EntryCodec.self)
  }

  /// Gives each row of the table `codec` describes to `body`, in increasing id order, read
  /// from the table's file as it goes and not kept, when the table has not been read yet and
  /// its file holds every row (no change since, in the journal or in this session) and has
  /// been checked since it last changed outside weigh; false, giving nothing, otherwise. The
  /// table stays unread: a later `rows` reads it from its file. `sizing` is told the file's
  /// size in bytes before the first row.
  ///
  /// - Throws: `corrupt` when the file cannot be read, as `rows` would.
  /// - Complexity: O(n) in the file's size, in memory O(1) but for what `body` keeps.
  func forEachRowInFile<Codec: StoreTableCodec>(
    _ codec: Codec.Type, sizing: (Int) -> Void = { _ in }, _ body: (borrowing Codec.Row) -> Void
  ) throws(StoreError) -> Bool {
    guard let path = try pathOfTableOnlyInFile(codec) else { return false }
    return try TableFile<Codec>.forEachRow(path: path, sizing: sizing, body)
  }

  /// Gives `body` the rows of the table `codec` describes whose id is greater than `id` and
  /// whose line in its file holds `needle` (its byte at `anchor` searched for), in
  /// increasing id order, under the conditions of ``forEachRowInFile(_:sizing:_:)``: the
  /// end of the file found by a binary search over its lines, and only the lines that hold
  /// `needle` decoded (`TableFile.forEachRow(path:after:whoseLineHolds:anchor:_:)`). False
  /// when the conditions do not hold or the file is not laid out as the store writes it
  /// (the caller then drops what `body` was given).
  ///
  /// - Throws: `corrupt` when the file's first line cannot be read.
  /// - Complexity: O(log n) row decodes, a byte search over the rows after `id`.
  func forEachRowInFile<Codec: StoreTableCodec>(
    _ codec: Codec.Type, after id: Int, whoseLineHolds needle: StaticString, anchor: Int,
    _ body: (borrowing Codec.Row) -> Void
  ) throws(StoreError) -> Bool {
    guard let path = try pathOfTableOnlyInFile(codec) else { return false }
    return try TableFile<Codec>.forEachRow(
      path: path, after: id,
      whoseLineHolds: needle, anchor: anchor, body) ?? false
  }

  /// A cursor over the rows of the table `codec` describes, in increasing id order, read
  /// from the table's file as asked for, under the conditions of
  /// ``forEachRowInFile(_:sizing:_:)``; nil when they do not hold or the file does not exist.
  /// The table stays unread.
  ///
  /// - Throws: `corrupt` when the file's first line cannot be read.
  func rowCursorInFile<Codec: StoreTableCodec>(
    _ codec: Codec.Type
  ) throws(StoreError) -> TableFile<Codec>.Cursor? {
    guard let path = try pathOfTableOnlyInFile(codec) else { return nil }
    return try TableFile<Codec>.Cursor(path: path)
  }

  /// The path of the file of the table `codec` describes when the table is in that file
  /// alone (unread, nothing in the journal past it) and the file was checked since it last
  /// changed outside weigh; nil otherwise, or when the store is closed or in memory.
  private func pathOfTableOnlyInFile<Codec: StoreTableCodec>(
    _ codec: Codec.Type
  ) throws(StoreError) -> String? {
    let storage = try storage(codec)
    guard let directory, !isClosed, storage.isOnlyInFile,
      !unverifiedTables.contains(Codec.tableName)
    else { return nil }
    return StoreLocation.joinPath(directory, storage.fileName)
  }

  /// Gives `body` each row of the table `codec` describes, in increasing id order, the rows
  /// that `rows` would return, without reading the table into memory: its file read a row
  /// at a time with the changes since merged in (`TableStorage.forEachRow`).
  ///
  /// - Throws: what `rows` throws, or what `body` throws (the rest not read).
  /// - Complexity: O(n); in memory O(the journal's changes of the table).
  func forEachRow<Codec: StoreTableCodec>(
    _ codec: Codec.Type, _ body: (Codec.Row) throws(StoreError) -> Void
  ) throws(StoreError) {
    try storage(codec).forEachRow(directory: directory, body)
  }

  /// The rows of the table `codec` describes, in increasing id order, read on first use.
  ///
  /// - Complexity: O(n) on the first call, O(1) after.
  public func rows<Codec: StoreTableCodec>(_ codec: Codec.Type) throws(StoreError) -> [Codec.Row] {
    let storage = try storage(codec)
    try storage.load(directory: directory)
    return storage.rows ?? []
  }

  /// The rows of a table whose id is greater than `id`, in increasing id order. While the
  /// table is not read whole, this reads only the end of its file (after a binary search
  /// over its lines), so asking for what is new in a large table is cheap.
  ///
  /// - Complexity: O(log n + k) for k rows returned.
  public func rows<Codec: StoreTableCodec>(
    _ codec: Codec.Type, after id: Int
  ) throws(StoreError) -> [Codec.Row] {
    try storage(codec).rows(after: id, directory: directory)
  }

  /// The row with `id`, or nil.
  ///
  /// - Complexity: O(log n) once the table is read.
  public func row<Codec: StoreTableCodec>(_ codec: Codec.Type, id: Int) throws(StoreError) -> Codec
    .Row?
  {
    let storage = try storage(codec)
    try storage.load(directory: directory)
    guard let rows = storage.rows else { return nil }
    let index = TableStorage<Codec>.lowerBound(id, in: rows)
    return index < rows.count && Codec.id(of: rows[index]) == id ? rows[index] : nil
  }

  /// The sequence number of the last committed transaction (0 for a new store): a commit
  /// by any process raises it, so a changed number tells that the store changed.
  public var committedSequence: Int { sequence }

  /// Whether commits can be written (a directory store whose journal is read-only cannot).
  public var isWritable: Bool { !isReadOnly && !isClosed }

  /// The smallest id never used in `table` (removed ids are not reused). O(1).
  public func nextID(in table: String = EntryCodec.tableName) -> Int {
    nextIDs[table] ?? 1
  }

  private func storage<Codec: StoreTableCodec>(_ codec: Codec.Type) throws(StoreError)
    -> TableStorage<Codec>
  {
    guard let storage = tables[Codec.tableName] as? TableStorage<Codec> else {
      throw StoreError(
        .invalidChange,
        message:
          "the store was opened without the table \"\(Codec.tableName)\"; pass its codec to open")
    }
    return storage
  }

  // MARK: Changing

  /// `changes` without the documents they set to the value they already have (or remove
  /// when absent), so that a command that changed nothing (`sync push` with nothing to
  /// push) writes nothing.
  private func withoutNoOps(_ changes: [StoreChange]) -> [StoreChange] {
    // Most commits change rows only: nothing to compare, nothing to copy.
    guard let first = changes.firstIndex(where: \.isDocumentChange) else { return changes }
    // One document change (a sync's commit sets the app document once): compared with the
    // document as it is, without the dictionary of the latest values, 1,900 instructions a
    // commit of `advance 3650d`'s 3,650 (callgrind, wstore11).
    if !changes[(first + 1)...].contains(where: \.isDocumentChange) {
      let isNoOp =
        switch changes[first] {
        case .setDocument(let name, let value): documents[name] == value
        case .removeDocument(let name): documents[name] == nil
        case .put, .putRun, .remove, .removeRun: false
        }
      guard isNoOp else { return changes }
      var kept = changes
      kept.remove(at: first)
      return kept
    }
    var latest: [String: JSONValue?] = [:]
    var noOps = Set<Int>()
    for (index, change) in changes.enumerated() {
      switch change {
      case .setDocument(let name, let value):
        let current = latest[name] ?? documents[name]
        latest[name] = .some(value)
        if current == value { noOps.insert(index) }
      case .removeDocument(let name):
        let current = latest[name] ?? documents[name]
        latest[name] = .some(nil)
        if current == nil { noOps.insert(index) }
      case .put, .putRun, .remove, .removeRun:
        continue
      }
    }
    // Copied only when something is dropped: an import's puts are not held twice.
    guard !noOps.isEmpty else { return changes }
    return changes.enumerated().filter { !noOps.contains($0.offset) }.map(\.element)
  }

  /// Applies `changes` as one transaction, durable on disk before this returns.
  ///
  /// - Throws: `invalidChange` for a non-finite number, a row or document that loading
  ///   would refuse (`StoreChange.problem(in:)`, directory stores only; while batching, the
  ///   documents are checked by `endBatch`, once each) or an unknown table (nothing is
  ///   written), `io` when the journal cannot be written or synced.
  /// - Complexity: O(size of the changes), plus an occasional compaction.
  public func commit(_ changes: [StoreChange]) throws(StoreError) {
    guard !isClosed else { throw StoreError(.io, message: "the store is closed") }
    let changes = withoutNoOps(changes)
    guard !changes.isEmpty else { return }
    guard streamedRun == nil else {
      throw StoreError(
        .invalidChange, message: "a run of rows is being streamed; finish or abandon it first")
    }
    // A streamed run's rows are in the record begun for it: it heads that record's commit.
    if let index = changes.firstIndex(where: \.isStreamedRun), index != 0 || stream == nil {
      throw StoreError(
        .invalidChange, message: "a streamed run must be the first change of its record")
    }
    var known: String?  // the last table found: an import's rows all name one
    for change in changes {
      let table: String
      switch change {
      case .put(let row): table = row.table
      case .putRun(let run): table = run.table
      case .remove(let name, _), .removeRun(let name, _): table = name
      default: continue
      }
      if table == known { continue }
      known = table
      guard tables[table] != nil else {
        throw StoreError(
          .invalidChange, message: "unknown table \"\(table)\"; pass its codec to open")
      }
    }
    if directory != nil {
      guard !isReadOnly else {
        throw StoreError(
          .io, file: journalPath,
          message:
            "cannot write: the journal is read-only (permission denied); make the store's "
            + "files writable (chmod u+w) to change it")
      }
      // Nothing that loading would refuse reaches the disk (values are checked where they
      // enter; this catches any path that did not): each row is encoded, once, and read
      // back from the bytes the journal will hold. An in-memory store writes nothing to
      // load again and skips it: reading every row back would cost a --memory script of
      // `log` lines about a fifth of its time.
      let rowsBefore = encodedRows.count
      // The row changes a transaction starts with go to the journal as they are checked
      // (`streamRows`): the first commit of a batch, or a commit outside one.
      let leading = changes.firstIndex(where: \.isDocumentChange) ?? changes.endIndex
      // A run streamed already (`finishStreamedRun`) heads the changes: its rows were
      // encoded and checked as they streamed.
      let resumes = changes.first!.isStreamedRun
      let streams =
        !resumes && leading > 0 && stream == nil && (batch?.isEmpty ?? true)
        && encodedRows.count == 0
      // A command's transaction writes each document once, with its last value, so
      // `endBatch` checks that value and no other (a sync per delivery of `advance 3650d`
      // sets the app document 3,650 times).
      let documents = batch == nil
      do throws(StoreError) {
        if resumes {
          if let problem = StoreChange.problem(
            in: Array(changes.dropFirst()), rows: &encodedRows, shapes: &readShapes,
            documents: documents)
          {
            throw problem
          }
        } else if streams {
          try verifyTables()
          // A store of the older format gets its checksums before anything is added.
          if needsUpgrade { try compact() }
          try streamRows(changes[..<leading], sequence: sequence + 1)
          if let problem = StoreChange.problem(
            in: Array(changes[leading...]), rows: &encodedRows, shapes: &readShapes,
            documents: documents)
          {
            throw problem
          }
        } else {
          if let problem = StoreChange.problem(
            in: changes, rows: &encodedRows, shapes: &readShapes, documents: documents)
          {
            throw problem
          }
          try verifyTables()
          if needsUpgrade { try compact() }
        }
      } catch {
        encodedRows.truncate(to: rowsBefore)
        if streams || resumes { dropStream() }
        throw error
      }
    }
    let next = sequence + 1
    if batch != nil {
      // Applied now, so that the rest of the command reads it; written by `endBatch`.
      // Kept for the journal record, which copies each put's encoded bytes: not the rows,
      // but for a run's (an import's), whose array is the table's own, shared: the changes
      // are kept as they are then, not copied.
      if case .putRun(let run) = changes.first!, run.isStreamed {
        committedStreamedRun = run.table
        streamedRunsCommitted += 1
      }
      if batch!.isEmpty, changes.allSatisfy(\.holdsNoRowOfItsOwn) {
        batch = changes
      } else {
        batch! += changes.lazy.map(\.withoutRowValue)
      }
      apply(changes, sequence: next, documentsSequence: 0)
      return
    }
    // An in-memory store writes no journal, so it need not build the line (about a tenth
    // of a --memory script's time).
    defer {
      encodedRows.truncate(to: 0)
      journalRows = JournalRowPlaces()
      readShapes.removeAll()
      abandonTableStream()
    }
    if directory != nil {
      try appendRecord(sequence: next, changes: changes)
    }
    sequence = next
    apply(changes, sequence: next, documentsSequence: 0)
    if directory != nil { acknowledge() }
    if directory != nil,
      compaction.shouldCompact(journalBytes: journalLength, snapshotBytes: snapshotBytes)
    {
      do {
        try compact(reusing: changes)
        lastCompactionError = nil
      } catch {
        lastCompactionError = error
      }
    }
  }

  /// Starts the record of transaction `sequence` with `changes` (puts and removals), each
  /// row encoded straight into the record, read back from those bytes through its codec,
  /// and written to the journal a piece at a time (`journalPieceBytes`), so a million rows
  /// are never held as bytes: the record's bytes past `journalLength` have no checksum and
  /// no newline until `appendRecord` finishes it, fdatasyncs it and only then counts them.
  /// A record under a piece (every `log`) is not written here at all, so it is still one
  /// `write`.
  ///
  /// - Throws: `invalidChange` for a row that loading would refuse, `io` when the journal
  ///   cannot be written; the caller then cuts off what was written (`dropStream`).
  private func streamRows(_ changes: ArraySlice<StoreChange>, sequence: Int) throws(StoreError) {
    var started = RecordStream()
    started.begin(sequence: sequence, into: &record)
    var places = JournalRowPlaces()
    places.base = journalLength
    // Set before anything is written, so that a failure below cuts it off.
    stream = started
    tableStream = streamedTableFile(for: changes, sequence: sequence)
    let table = tableStream
    try started.encodeRows(
      changes, into: &record, pieceBytes: journalPieceBytes, shapes: &readShapes,
      row: { start, end, bytes in
        if let table { return table.add(row: bytes) }
        places.add(start: start, end: end)
        return nil
      }
    ) { (bytes) throws(StoreError) in
      try StoreFileSystem.writeAll(journalDescriptor, bytes, path: journalPath)
      // The record's end and its `fdatasync` come after the last row: the disk writes the
      // pieces before it meanwhile (`StoreWriteback`).
      StoreWriteback.start(journalDescriptor, from: journalLength)
    }
    stream = started
    // The table's file holds the rows: the compaction does not read them back.
    journalRows = table == nil ? places : JournalRowPlaces()
  }

  /// The file to write as `changes` stream, when they are one run of increasing ids into a
  /// table with no rows and no file, large enough that the compaction will follow the
  /// commit (`StreamedTableFile`): an import into a new store.
  private func streamedTableFile(
    for changes: ArraySlice<StoreChange>, sequence: Int
  ) -> StreamedTableFile? {
    guard changes.count == 1, case .putRun(let run) = changes.first!, run.idsIncrease,
      run.count >= streamedTableMinimumRows, let table = tables[run.table],
      !table.hasFile, !table.isDirty, table.loadedRowCount == 0,
      !unverifiedTables.contains(run.table),
      // A row is at least 64 bytes in the record: the compaction follows the commit.
      compaction.shouldCompact(
        journalBytes: journalLength + run.count * 64, snapshotBytes: snapshotBytes)
    else { return nil }
    // A temporary file that cannot be made leaves the compaction to copy the rows as before.
    return try? StreamedTableFile(
      table: run.table, path: path(table.fileName), header: table.fileHeader(sequence: sequence),
      sequence: sequence, pieceBytes: journalPieceBytes)
  }

  /// Whether the streamed table file holds the table as the transaction `changes` (just
  /// committed as `sequence`) leaves it: its run was the only change of the table.
  private func streamedTableIsWhole(_ changes: [StoreChange]) -> Bool {
    guard let file = tableStream, file.isOpen, file.sequence == sequence,
      let table = tables[file.table],
      table.loadedRowCount ?? (committedStreamedRun == file.table ? file.rowCount : -1)
        == file.rowCount
    else { return false }
    var changed = 0
    for change in changes {
      switch change {
      case .put(let row): if row.table == file.table { return false }
      case .putRun(let run):
        if run.table == file.table {
          guard changed == 0, run.count == file.rowCount - file.copiedRowCount else {
            return false
          }
          changed += 1
        }
      case .remove(let name, _), .removeRun(let name, _): if name == file.table { return false }
      case .setDocument, .removeDocument: continue
      }
    }
    return changed == 1
  }

  /// Removes the streamed table file's temporary file, if any.
  private func abandonTableStream() {
    tableStream?.abandon()
    tableStream = nil
  }

  /// Forgets a streamed record that will not be finished, and cuts what it wrote off the
  /// journal (a failure to do so leaves a torn append, which the next open moves aside).
  private func dropStream() {
    abandonTableStream()
    streamedRun = nil
    guard stream != nil else { return }
    stream = nil
    journalRows = JournalRowPlaces()
    if record.bytes.capacity > 4 << 20 { record = JSONWriter() }
    if journalDescriptor >= 0 {
      try? StoreFileSystem.truncate(journalDescriptor, to: journalLength, path: journalPath)
    }
  }

  // MARK: A run of rows streamed as it is read (an import into a new store)

  /// The fewest rows a streamed run should hold (`beginStreamedRun`): at 64 bytes a row at
  /// least, its record passes every compaction threshold, so the compaction that renames
  /// its table's file follows the commit.
  public static let streamedRunMinimumRows = 1 << 14

  /// Whether `beginStreamedRun(into:afterItsRows:)` would start: a directory store that can
  /// be written, a command's transaction (`beginBatch`) with nothing committed yet, and a
  /// table with no file and no rows; or, `afterItsRows`, a table whose checksummed file holds
  /// every row (`fileHoldsEveryRow`: nothing in the journal past it; checked since it last
  /// changed), or one without a file whose rows are held (a log made by `log`, in the journal
  /// alone). Reads nothing.
  public func canStreamRun(into table: String, afterItsRows: Bool = false) -> Bool {
    guard directory != nil, !isReadOnly, !isClosed, !needsUpgrade, let batch, batch.isEmpty,
      stream == nil, streamedRun == nil, encodedRows.count == 0, let storage = tables[table],
      afterItsRows
        ? streamsRunsAfterRows
          && (storage.fileHoldsEveryRow || (!storage.hasFile && storage.isLoaded))
        : streamsRunsIntoEmptyTables && !storage.hasFile && !storage.isDirty
          && storage.loadedRowCount == 0,
      !unverifiedTables.contains(table),
      compaction.shouldCompact(
        journalBytes: journalLength + Self.streamedRunMinimumRows * 64,
        snapshotBytes: snapshotBytes)
    else { return false }
    return true
  }

  /// Starts the record of the running transaction with a run of rows of `table` that come a
  /// block at a time (`streamRun`): each row is encoded into the record, read back, written
  /// to the journal a piece at a time and to the table's temporary file, as `streamRows`
  /// does for a run held whole, and is not kept. `finishStreamedRun` gives the change that
  /// stands for the run, which must head the transaction's first commit.
  ///
  /// `afterItsRows` (an import into a log with entries): the temporary file gets the table's
  /// rows too, the lines of its file copied as they are, a piece at a time, or the rows
  /// held encoded when it has no file (`StreamedTableFile.copyRows`), merged with the run's
  /// by id (each table row before the run's rows with greater ids; none may have a table
  /// row's id); the compaction that follows the commit renames
  /// it over the table's file, which is then the one the compaction of the run held whole
  /// writes (`TableFile.appending`, or `TableFile.encode` of every row). The table holds no
  /// row after the commit: it reads them from that file when asked.
  ///
  /// Returns false (and starts nothing) unless `canStreamRun(into:afterItsRows:)`, or when
  /// the table's temporary file cannot be made, or its file's rows cannot be copied (not a
  /// checksummed table as weigh writes it).
  public func beginStreamedRun(into table: String, afterItsRows: Bool = false) -> Bool {
    guard canStreamRun(into: table, afterItsRows: afterItsRows), let storage = tables[table]
    else { return false }
    // As a commit that streams its rows checks them first (`commit`).
    do throws(StoreError) { try verifyTables() } catch { return false }
    let sequence = self.sequence + 1
    guard
      let file = try? StreamedTableFile(
        table: table, path: path(storage.fileName), header: storage.fileHeader(sequence: sequence),
        sequence: sequence, pieceBytes: journalPieceBytes)
    else { return false }
    if afterItsRows {
      guard (try? storage.copyRows(into: file, fromFileAt: path(storage.fileName))) == true
      else {
        file.abandon()
        return false
      }
    }
    var started = RecordStream()
    started.begin(sequence: sequence, into: &record)
    stream = started
    tableStream = file
    journalRows = JournalRowPlaces()
    streamedRun = (table, StreamedRunIDs())
    return true
  }

  /// Adds `rows` (ids increasing, after the run's last) to the run begun by
  /// `beginStreamedRun`.
  ///
  /// - Throws: `invalidChange` for a row that loading would refuse or ids out of order,
  ///   `io` when the journal or the table's file cannot be written. The run is abandoned
  ///   then: what it wrote is cut off the journal, its temporary file removed.
  public func streamRun<Codec: StoreTableCodec>(_ rows: [Codec.Row], of codec: Codec.Type)
    throws(StoreError)
  {
    // The run's fields, not the run: a copy of it would share its ids, copied at each change.
    guard let table = streamedRun?.table, var started = stream, let file = tableStream,
      table == Codec.tableName
    else {
      throw StoreError(.invalidChange, message: "no run of rows of this table is being streamed")
    }
    guard !rows.isEmpty else { return }
    let block = StoreRowRun(codec, rows)
    do throws(StoreError) {
      // Increasing, with gaps or without (an export of a log after deletions, atyp19); among
      // the table's rows, if any, none of whose ids they may have (the table's file, which
      // merges them by id, is abandoned then, merge24).
      guard block.idsIncrease, block.smallestID > streamedRun?.ids.last ?? Int.min else {
        throw StoreError(.invalidChange, message: "a streamed run's ids must increase")
      }
      try started.encodeRows(
        [.putRun(block)][...], into: &record, pieceBytes: journalPieceBytes,
        shapes: &readShapes,
        row: { _, _, bytes in file.add(row: bytes) }
      ) { (bytes) throws(StoreError) in
        try StoreFileSystem.writeAll(journalDescriptor, bytes, path: journalPath)
        StoreWriteback.start(journalDescriptor, from: journalLength)
      }
      // Without its table's file the compaction would need the rows, which are not held.
      guard file.isOpen else {
        throw StoreError(.io, message: "the table file written with the import was abandoned")
      }
    } catch {
      stream = started
      dropStream()
      throw error
    }
    // The run counts as one change of the record, once finished.
    started.changes = 0
    stream = started
    var ids = streamedRun!.ids
    streamedRun = nil  // so that `ids` is changed in place
    for index in rows.indices { ids.append(Codec.id(of: rows[index])) }
    streamedRun = (table, ids)
  }

  /// Ends the run begun by `beginStreamedRun`: the change that stands for its rows (held
  /// nowhere), to be committed first in the running transaction; nil when none is running
  /// or it streamed no row.
  public func finishStreamedRun() -> StoreChange? {
    guard let run = streamedRun, stream != nil, run.ids.count > 0 else {
      abandonStreamedRun()
      return nil
    }
    streamedRun = nil
    stream!.changes = 1
    return .putRun(StoreRowRun(streamedInto: run.table, ids: run.ids))
  }

  /// A scratch file in the store's folder for a command that streams rows of `table`
  /// (`StoreScratchFile`: unlinked at once, never read as the store's), named after the
  /// table's file (`entries.json.scratch.tmp`); nil for a store without a folder, or when it
  /// cannot be made.
  func scratchFile(for table: String) -> StoreScratchFile? {
    guard directory != nil, !isReadOnly, let storage = tables[table] else { return nil }
    scratchFilesMade += 1
    return try? StoreScratchFile(path: path(storage.fileName + StoreScratchFile.suffix))
  }

  /// Abandons the run begun by `beginStreamedRun`, if any: what it wrote is cut off the
  /// journal and its temporary file removed.
  public func abandonStreamedRun() {
    guard streamedRun != nil else { return }
    dropStream()
  }

  // MARK: One transaction per command

  /// Whether commits are being gathered into one transaction (`beginBatch`).
  public var isBatching: Bool { batch != nil }

  /// Starts gathering commits into one transaction: until `endBatch`, each commit is checked
  /// and applied in memory at once (later reads see it), but nothing is written. A directory
  /// store only; an in-memory store writes nothing anyway. Does nothing while batching.
  ///
  /// A crash before `endBatch` returns loses every commit since `beginBatch`, never some of
  /// them: a command that runs many events (`advance 3650d`) is one journal record.
  ///
  /// Returns whether commits are gathered now (false for a memory store or a closed one).
  @discardableResult
  public func beginBatch() -> Bool {
    guard directory != nil, !isClosed else { return false }
    guard batch == nil else { return true }
    batch = []
    documentsBeforeBatch = documents
    return true
  }

  /// Writes the commits gathered since `beginBatch` as one transaction (one journal record,
  /// one `fdatasync`), durable before this returns; then compacts if the journal grew past
  /// its threshold. Each document appears once, with its last value, and not at all when
  /// that is the value it had before the batch. Does nothing when not batching.
  ///
  /// - Throws: `io` when the journal cannot be written, `invalidChange` for a document that
  ///   loading would refuse (the batch's commits checked their rows, not their documents).
  ///   The store's memory is then ahead of its files, so it closes itself: open it again to
  ///   go on (nothing of the batch is kept).
  ///
  /// - Parameter commitPoint: called with the record's sequence and bytes (nil when the
  ///   batch changed nothing) before the record is written: Health's database commits
  ///   there, with the record (docs/store.md, "One commit across the two stores"). When it
  ///   throws, nothing is written. A record that began with a streamed run comes as its
  ///   `head`, which the journal already holds, and the bytes after it.
  public func endBatch(
    commitPoint: (
      (_ sequence: Int, _ record: [UInt8]?, _ head: StoreRecordHead?) throws(StoreError) -> Void
    )? = nil
  ) throws(StoreError) {
    guard let gathered = batch else { return }
    batch = nil
    defer {
      encodedRows.truncate(to: 0)
      journalRows = JournalRowPlaces()
      readShapes.removeAll()
      abandonTableStream()
      committedStreamedRun = nil
    }
    // Every put is kept, in order, so the rows encoded by the batch's commits stay in step;
    // the streamed ones are the first changes of the first commit, which come first.
    let changes = Self.coalesced(gathered, before: documentsBeforeBatch)
    documentsBeforeBatch = [:]
    guard !changes.isEmpty, !isClosed else {
      dropStream()
      if !isClosed { try commitPoint?(sequence, nil, nil) }
      return
    }
    let next = sequence + 1
    do throws(StoreError) {
      // Each document the record sets, checked as loading checks it (the batch's commits
      // checked their rows only): one that would not load fails the whole command.
      if let problem = StoreChange.documentProblem(in: changes) { throw problem }
      try appendRecord(sequence: next, changes: changes, commitPoint: commitPoint)
    } catch {
      close()
      throw error
    }
    sequence = next
    acknowledge()
    releaseLargeRecord()
    if compaction.shouldCompact(journalBytes: journalLength, snapshotBytes: snapshotBytes) {
      do {
        try compact(reusing: changes)
        lastCompactionError = nil
      } catch {
        lastCompactionError = error
      }
    }
    if let name = committedStreamedRun, let table = tables[name], table.isDirty || !table.hasFile {
      // The streamed rows are durable in the journal but held nowhere: opening the store
      // again reads them from there.
      close()
      needsReopening = true
    }
  }

  /// `changes` with each document's changes but the last dropped, and that one too when it
  /// leaves the document as it was in `before`. Rows keep every change, in order (a put
  /// raises the table's next id even when a later change removes the row).
  static func coalesced(_ changes: [StoreChange], before: [String: JSONValue]) -> [StoreChange] {
    guard changes.contains(where: \.isDocumentChange) else { return changes }
    // Read from the end, a document's first change is its last: one pass, no index per name
    // (a command of `advance 3650d` sets the app document once per delivery).
    var named = Set<String>()
    // The name of the document change just read: the same name again is not hashed (each
    // of `advance 3650d`'s 3,650 syncs sets the app document, 800 instructions each).
    var previous: String?
    func isLast(_ name: String) -> Bool {
      if name == previous { return false }
      previous = name
      return named.insert(name).inserted
    }
    var dropped = [Bool](repeating: false, count: changes.count)
    var droppedCount = 0
    for index in changes.indices.reversed() {
      switch changes[index] {
      case .setDocument(let name, let value):
        dropped[index] = !isLast(name) || before[name] == value
      case .removeDocument(let name):
        dropped[index] = !isLast(name) || before[name] == nil
      case .put, .putRun, .remove, .removeRun:
        continue
      }
      if dropped[index] { droppedCount += 1 }
    }
    // Copied only when something is dropped: an import's puts are not held twice.
    guard droppedCount > 0 else { return changes }
    var kept: [StoreChange] = []
    kept.reserveCapacity(changes.count - droppedCount)
    for index in changes.indices where !dropped[index] { kept.append(changes[index]) }
    return kept
  }

  /// Reads every table whose file changed outside weigh, and records the files as read.
  ///
  /// - Throws: `corrupt` when one cannot be read; nothing is written then.
  /// - Complexity: O(size of those tables), once; O(1) when there are none.
  private func verifyTables() throws(StoreError) {
    guard let directory, !unverifiedTables.isEmpty else { return }
    for name in unverifiedTables.sorted() { try tables[name]!.load(directory: directory) }
    // An older store keeps its weigh.json until the upgrade rewrites everything.
    if isReadOnly || needsUpgrade { return }
    for name in unverifiedTables {
      var info = diskManifest.tables[name]?.objectMembers ?? [:]
      info["stamp"] = StoreFileSystem.stamp(path(tables[name]!.fileName)).map(JSONValue.string)
      diskManifest.tables[name] = .object(info)
      var current = tableInfo[name]?.objectMembers ?? [:]
      current["stamp"] = info["stamp"]
      tableInfo[name] = .object(current)
    }
    // Only the stamps change: the sequence and documents stay those on disk.
    try StoreFileSystem.replace(
      path(StoreManifest.fileName), with: diskManifest.encoded())
    unverifiedTables = []
  }

  /// The size of the pieces a journal record is written in (`appendRecord`), and a table
  /// file written as an import streams (`StreamedTableFile`).
  var journalPieceBytes = 1 << 20

  /// The bytes a command's scratch file is written in (`ImportRenumberedEntries`): smaller
  /// in tests, so that a few rows cross it.
  var scratchPieceBytes = 1 << 20

  /// The fewest rows of a run for which the table's file is written as it streams (tests).
  var streamedTableMinimumRows = StreamedTableFile.minimumRows
  /// Whether a run may stream after a table's rows (`canStreamRun(into:afterItsRows:)`);
  /// off, an import into a log with entries holds them as before (tests compare the two).
  var streamsRunsAfterRows = true
  /// Whether a run may stream into a table without rows (`canStreamRun(into:)`); off, an
  /// import into a new store holds its entries (tests compare the two).
  var streamsRunsIntoEmptyTables = true
  /// How many scratch files were asked for (`scratchFile(for:)`, tests).
  private(set) var scratchFilesMade = 0
  /// How many table files written as their rows streamed a compaction took (tests).
  private(set) var streamedTableFilesWritten = 0
  /// How many runs streamed a block at a time (`beginStreamedRun`) were committed (tests).
  private(set) var streamedRunsCommitted = 0

  /// The bytes of the running transaction's rows and record held in memory (not yet
  /// written): at most about a piece for a transaction that starts with its rows, however
  /// many (tests).
  var bytesHeldForTransaction: Int { encodedRows.byteCount + record.bytes.count }

  /// Appends the journal record of `changes` as transaction `sequence`, written in pieces of
  /// about `journalPieceBytes` as it is encoded (so a large import's record is never held
  /// whole, a second time beside its rows' bytes), then `fdatasync`s it: the same bytes and
  /// checksum as one write. A record cut short by a crash has no checksum and newline, so
  /// opening moves it aside as any torn append; on an error here, the journal is cut back.
  ///
  /// With `commitPoint` (a command that changed Health), the record is handed to it before
  /// it is written: health.sqlite's commit holds it first (docs/store.md, "One commit across
  /// the two stores"). What a stream already wrote goes as the place it has in the journal,
  /// not read back (hpend21: `HealthSQLiteStorage.commitCommand` copies it a piece at a
  /// time, where the record was held whole twice: 301 → 83 MiB at the peak of a new
  /// store's import of 1,000,000 weights with `types`).
  private func appendRecord(
    sequence: Int, changes: [StoreChange],
    commitPoint: (
      (_ sequence: Int, _ record: [UInt8]?, _ head: StoreRecordHead?) throws(StoreError) -> Void
    )? = nil
  ) throws(StoreError) {
    // A record begun by `streamRows` goes on where it stopped.
    let resuming = stream
    stream = nil
    var written = resuming?.written ?? 0
    do throws(StoreError) {
      try StoreJournal.encode(
        sequence: sequence, changes: changes, rows: encodedRows, into: &record,
        pieceBytes: commitPoint == nil ? journalPieceBytes : .max, resuming: resuming
      ) { (bytes) throws(StoreError) in
        if let commitPoint {
          let head = StoreRecordHead(
            path: journalPath, range: journalLength..<journalLength + written)
          try commitPoint(sequence, bytes, written == 0 ? nil : head)
        }
        try StoreFileSystem.writeAll(journalDescriptor, bytes, path: journalPath)
        written += bytes.count
      }
      try StoreFileSystem.sync(journalDescriptor, path: journalPath, dataOnly: true)
    } catch {
      // Leave no partial line for a later append to follow (a full disk, say).
      try? StoreFileSystem.truncate(journalDescriptor, to: journalLength, path: journalPath)
      journalRows = JournalRowPlaces()
      throw error
    }
    journalLength += written
  }

  /// Gives back the journal record's buffer after a large transaction (an import), instead
  /// of keeping it for the next commit: before the compaction that usually follows.
  private func releaseLargeRecord() {
    if record.bytes.capacity > 4 << 20 { record = JSONWriter() }
  }

  /// Records in `journal.ack` what was just acknowledged. Not synced: a kill cannot undo it,
  /// and a power loss that does leaves an older ack, which only weakens the check of the
  /// journal's length (docs/store.md). A failure to write it is not the commit's failure.
  private func acknowledge() {
    guard ackDescriptor >= 0 else { return }
    let ack = StoreAck(
      base: journalBase, sequence: sequence, length: journalLength, nextIDs: nextIDs)
    ack.encode(into: &ackBytes)
    try? StoreFileSystem.overwrite(ackDescriptor, ackBytes, path: ackPath)
  }

  /// Folds the journal into fresh snapshot files and empties it. Safe to interrupt at any
  /// point: the next open finds the old or the new files and replays what they lack.
  ///
  /// - Complexity: O(size of every table changed since its last snapshot).
  public func compact() throws(StoreError) {
    try compact(reusing: nil)
  }

  // MARK: Tables no longer used (Health's, after its move to health.sqlite)

  /// Whether the store knows the table `name`: `weigh.json` lists it, or its file exists.
  public func holdsTable(_ name: String) -> Bool {
    tableInfo[name] != nil || tables[name]?.hasFile == true
  }

  /// Drops the tables `names`, which must hold no rows, from the store: a compaction writes
  /// `weigh.json`, the journal and `journal.ack` without them (the commit point), then their
  /// files are removed. Interrupted between the two, a file stays, unlisted and empty, and
  /// the next call removes it.
  public func dropEmptyTables(_ names: [String]) throws(StoreError) {
    guard let directory else { return }
    guard !isReadOnly, !isClosed, !isBatching else {
      throw StoreError(.io, file: path(StoreManifest.fileName), message: "the store is closed")
    }
    for name in names {
      guard let table = tables[name] else { continue }
      try table.load(directory: directory)
      guard table.largestID == 0 else {
        throw StoreError(
          .invalidChange, file: path(table.fileName),
          message: "the table \(name) still holds rows; it is not dropped")
      }
    }
    // Folded first: a compaction writes the file of a table the journal changed.
    if names.contains(where: { tables[$0]?.isDirty == true }) { try compact() }
    for name in names {
      tableInfo[name] = nil
      nextIDs[name] = nil
    }
    try compact()
    for name in names {
      guard let table = tables[name], table.hasFile else { continue }
      try StoreFileSystem.remove(path(table.fileName))
      try table.readHeader(directory: directory)
      unverifiedTables.remove(name)
    }
    try StoreFileSystem.syncDirectory(directory)
  }

  /// Compacts; when `changes` is the transaction just committed (its rows still in
  /// `encodedRows`, in the order of its puts), the rows it put are copied from the bytes it
  /// was journalled with instead of being encoded again.
  private func compact(reusing changes: [StoreChange]?) throws(StoreError) {
    if tableStream != nil, changes.map(streamedTableIsWhole) != true { abandonTableStream() }
    guard let changes, encodedRows.count + journalRows.count > 0, journalRows.isComplete else {
      return try compact(reused: [:])
    }
    let puts = Self.lastPuts(in: changes)
    guard puts.rowCount == journalRows.count + encodedRows.count else {
      return try compact(reused: [:])
    }
    // The streamed rows are the transaction's first puts, read back from the journal.
    let journal = journalRows.count > 0 ? JournalRowWindow(path: journalPath, journalRows) : nil
    try encodedRows.withBuffer { (bytes) throws(StoreError) in
      try compact(
        reused: puts.tables.mapValues { rows in
          EncodedRowBytes(rows: rows, ends: encodedRows.ends, bytes: bytes, journal: journal)
        })
    }
  }

  /// For each table, the rows whose last change in `changes` is a put, by increasing id,
  /// with the number of that put among the puts (its row in `encodedRows`); and how many
  /// puts there are. A table that one run with increasing ids changes alone (an import's)
  /// is that run, not a list of its rows.
  ///
  /// - Complexity: O(n), O(n log n) when a table's rows are not put in increasing id order;
  ///   O(number of changes) for a table changed by one such run alone.
  static func lastPuts(in changes: [StoreChange]) -> (
    tables: [String: ReusedRowIndex], rowCount: Int
  ) {
    var tables: [String: ReusedRowIndex] = [:]
    // The tables changed otherwise than by one run with increasing ids: listed row by row.
    var listed: Set<String> = []
    // The last table inserted into `listed`: the puts of one table follow each other, and
    // its name is compared, not hashed, for each (5.4 M instructions for the 3,650 puts of
    // `advance 3650d`'s compaction, callgrind, wstore11).
    var lastListed: String?
    func list(_ table: String) {
      guard table != lastListed else { return }
      lastListed = table
      listed.insert(table)
    }
    var puts = 0
    for change in changes {
      switch change {
      case .put(let put): list(put.table)
      case .remove(let table, _), .removeRun(let table, _): list(table)
      case .putRun(let run):
        if run.idsIncrease, tables[run.table] == nil {
          tables[run.table] = .run(run, first: puts)
        } else {
          list(run.table)
        }
      case .setDocument, .removeDocument: continue
      }
      puts += change.putCount
    }
    guard !listed.isEmpty else { return (tables, puts) }
    var lists: [String: [(id: Int, row: Int)]] = [:]
    var name: String?
    var list: [(id: Int, row: Int)] = []
    var row = 0
    func add(_ table: String, _ id: Int, _ row: Int) {
      if table != name {
        if let name { lists[name] = list }
        name = table
        list = lists.removeValue(forKey: table) ?? []
      }
      list.append((id, row))
    }
    // Whether the table of the last put looked up is listed (the same name, not hashed).
    var lastLooked: (table: String, isListed: Bool)?
    func isListed(_ table: String) -> Bool {
      if let lastLooked, lastLooked.table == table { return lastLooked.isListed }
      let found = listed.contains(table)
      lastLooked = (table, found)
      return found
    }
    for change in changes {
      switch change {
      case .put(let put):
        if isListed(put.table) { add(put.table, put.id, row) }
      case .putRun(let run):
        if listed.contains(run.table) {
          for index in 0..<run.count { add(run.table, run.id(at: index), row + index) }
        }
      case .remove(let table, let id): add(table, id, -1)  // a removal
      case .removeRun(let table, let ids): for id in ids { add(table, id, -1) }
      case .setDocument, .removeDocument: continue
      }
      row += change.putCount
    }
    if let name { lists[name] = list }
    for (table, list) in lists {
      var rows = list
      if !zip(rows, rows.dropFirst()).allSatisfy({ $0.id < $1.id }) {
        // The last change of each id wins: sorted by id, then by order of the changes.
        rows = rows.enumerated().sorted { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) }
          .map(\.element)
        rows = rows.enumerated().filter {
          $0.offset + 1 == rows.count || rows[$0.offset + 1].id != $0.element.id
        }
        .map(\.element)
      }
      tables[table] = .list(rows.filter { $0.row >= 0 })
    }
    return (tables, puts)
  }

  private func compact(reused: [String: EncodedRowBytes]) throws(StoreError) {
    // While a batch holds changes, the files would get what the journal lacks: `endBatch`
    // compacts then.
    guard let directory, !isClosed, batch?.isEmpty ?? true else { return }
    guard !isReadOnly else {
      throw StoreError(
        .io, file: journalPath,
        message: "cannot compact: the journal is read-only (permission denied)")
    }
    for (name, table) in tables.sorted(by: { $0.key < $1.key })
    where table.isDirty || (table.hasFile && !table.hasChecksums) {
      if let file = tableStream, file.table == name {
        // Written as the rows streamed: only its last line, sync and rename are left.
        tableStream = nil
        try file.finish()
        table.snapshotWritten(sequence: sequence)
        streamedTableFilesWritten += 1
      } else {
        try table.writeSnapshot(directory: directory, sequence: sequence, reusing: reused[name])
      }
      var info = tableInfo[name]?.objectMembers ?? [:]
      info["file"] = .string(table.fileName)
      info["stamp"] = StoreFileSystem.stamp(path(table.fileName)).map(JSONValue.string)
      tableInfo[name] = .object(info)
      unverifiedTables.remove(name)
    }
    for (name, next) in nextIDs {
      var info = tableInfo[name]?.objectMembers ?? [:]
      info["nextID"] = .integer(next)
      tableInfo[name] = .object(info)
    }
    let manifest = StoreManifest(sequence: sequence, tables: tableInfo, documents: documents)
    try StoreFileSystem.replace(
      path(StoreManifest.fileName), with: manifest.encoded())
    diskManifest = manifest
    let header = StoreJournal.header(base: sequence)
    try StoreFileSystem.replace(journalPath, with: header)
    StoreFileSystem.closeDescriptor(journalDescriptor)
    journalDescriptor = -1
    let ack = StoreAck(
      base: sequence, sequence: sequence, length: header.count, nextIDs: nextIDs)
    do throws(StoreError) {
      journalDescriptor = try StoreFileSystem.openForAppending(journalPath)
      try StoreFileSystem.replace(ackPath, with: ack.encoded())
      if ackDescriptor >= 0 { StoreFileSystem.closeDescriptor(ackDescriptor) }
      ackDescriptor = -1
      guard let descriptor = try StoreFileSystem.openForWriting(ackPath) else {
        throw StoreFileSystem.ioError(ackPath, "open for writing")
      }
      ackDescriptor = descriptor
    } catch {
      isClosed = true
      throw error
    }
    journalBase = sequence
    journalLength = header.count
    needsUpgrade = false
    measureSnapshots()
  }

  /// Releases the lock; later commits fail. Called by deinit too.
  public func close() {
    if directory != nil, !isClosed {
      for (name, table) in tables {
        stampsAtClose[name] = StoreFileSystem.stamp(path(table.fileName))
      }
    }
    batch = nil
    encodedRows.truncate(to: 0)
    readShapes.removeAll()
    dropStream()
    abandonTableStream()
    if journalDescriptor >= 0 {
      StoreFileSystem.closeDescriptor(journalDescriptor)
      journalDescriptor = -1
    }
    if ackDescriptor >= 0 {
      StoreFileSystem.closeDescriptor(ackDescriptor)
      ackDescriptor = -1
    }
    lock?.release()
    lock = nil
    isClosed = true
  }

  deinit { close() }
}
