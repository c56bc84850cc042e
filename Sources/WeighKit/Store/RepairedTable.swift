/// One table as `Store.repair` rebuilds it: the rows its damaged file still holds intact,
/// with the journal's valid changes applied, written anew as a compaction writes a table.
protocol RepairedTable: AnyObject {
  var fileName: String { get }
  /// True when the table's file exists (readable or not): the repair writes it anew.
  var hasFile: Bool { get }
  /// The sequence the file says it is complete up to (the store's when its first line is
  /// damaged): the journal's changes up to it are in the file already.
  var snapshotSequence: Int { get }
  func apply(put row: StoreRow, sequence: Int)
  func apply(run: StoreRowRun, sequence: Int)
  func apply(removeIDs ids: [Int], sequence: Int)
  func apply(removeRuns runs: [IDStepRun], sequence: Int)
  /// The greatest id among the rows (0 for none); for a table with a file, once written.
  var largestID: Int { get }
  /// Writes the table's file as of `sequence`.
  func write(directory: String, sequence: Int) throws(StoreError)
  /// What was kept and lost of the file; once written.
  var salvage: TableSalvage { get }
}

/// A table repaired with its rows held: the file's intact rows loaded whole
/// (`TableFile.salvage(path:)`), the journal's changes applied to them, and every row encoded
/// again. The repair before rep23, kept as the tests' oracle of `StreamedRepairedTable`.
final class LoadedRepairedTable: RepairedTable {
  private let storage: any AnyTableStorage
  let salvage: TableSalvage

  init(_ storage: any AnyTableStorage, directory: String, fallbackSequence: Int) {
    self.storage = storage
    salvage = storage.salvage(directory: directory, fallbackSequence: fallbackSequence)
  }

  var fileName: String { storage.fileName }
  var hasFile: Bool { storage.hasFile }
  var snapshotSequence: Int { storage.snapshotSequence }
  var largestID: Int { storage.largestID }
  func apply(put row: StoreRow, sequence: Int) { storage.apply(put: row, sequence: sequence) }
  func apply(run: StoreRowRun, sequence: Int) { storage.apply(run: run, sequence: sequence) }
  func apply(removeIDs ids: [Int], sequence: Int) {
    storage.apply(removeIDs: ids, sequence: sequence)
  }
  func apply(removeRuns runs: [IDStepRun], sequence: Int) {
    storage.apply(removeRuns: runs, sequence: sequence)
  }
  func write(directory: String, sequence: Int) throws(StoreError) {
    try storage.writeSnapshot(directory: directory, sequence: sequence)
  }
}

/// A table repaired a piece at a time (rep23): only the first line of its file is read
/// before the journal's changes, which are held merged by id (the last put of each id, and
/// the runs of ids removed); the file is then read once as it is written anew
/// (`TableFile.salvaging(fileAt:…)`), each intact row's line copied with its checksum, the
/// puts written in their places. The file and its rows are never held: what is held is
/// bounded by the journal's changes to the table, whose rows the journal holds already.
final class StreamedRepairedTable<Codec: StoreTableCodec>: RepairedTable {
  private let path: String
  private let readable: Bool
  let hasFile: Bool
  let snapshotSequence: Int
  /// The last put of each id, less the ids removed after it.
  private var puts: [Int: Codec.Row] = [:]
  private var removed: [IDStepRun] = []
  /// True once a run whose rows were streamed and are not held was applied: it cannot be
  /// written (a store's open reads it from its journal), as `TableStorage` refuses it.
  private var streamedRun = false
  private(set) var salvage: TableSalvage
  private var written: Int?
  /// The journal's large last record, when it puts rows of this table (read a piece at a
  /// time by the inspection, `StoreJournal.LargeRecord`): its rows are read back as the file
  /// is written, not held.
  private let largeRecord: StoreJournal.LargeRecordRows?
  /// The largest id of that record's run, once applied (its rows are then written with the
  /// file's, winning over the puts of the same id).
  private var largeRun: Int?

  init(
    directory: String, fallbackSequence: Int, largeRecord: StoreJournal.LargeRecordRows? = nil
  ) {
    self.largeRecord = largeRecord
    path = StoreLocation.joinPath(directory, TableFile<Codec>.fileName)
    let header = TableFile<Codec>.salvageHeader(path: path)
    hasFile = header.exists
    readable = header.readable
    snapshotSequence = header.sequence ?? fallbackSequence
    salvage = TableSalvage(file: path)
  }

  var fileName: String { TableFile<Codec>.fileName }

  var largestID: Int { written ?? max(puts.keys.max() ?? 0, largeRun ?? 0) }

  func apply(put row: StoreRow, sequence: Int) {
    guard sequence > snapshotSequence else { return }
    // The large record is the journal's last: nothing changes the table after it.
    if largeRun != nil { streamedRun = true }
    // The store routes a row by its table's name, which names one codec.
    puts[row.id] = row.value(Codec.self)!
  }

  func apply(run: StoreRowRun, sequence: Int) {
    guard sequence > snapshotSequence, run.count > 0 else { return }
    guard let values = run.values(Codec.self) else {
      if largeRecord != nil, largeRun == nil {
        largeRun = run.largestID
      } else {
        streamedRun = true
      }
      return
    }
    if largeRun != nil { streamedRun = true }
    for index in values.indices { puts[Codec.id(of: values[index])] = values[index] }
  }

  func apply(removeIDs ids: [Int], sequence: Int) {
    apply(removeRuns: ids.map(IDStepRun.init), sequence: sequence)
  }

  func apply(removeRuns runs: [IDStepRun], sequence: Int) {
    guard sequence > snapshotSequence else { return }
    if largeRun != nil { streamedRun = true }
    for run in runs {
      removed.append(run)
      guard !puts.isEmpty else { continue }
      if run.count < puts.count {
        for id in run { puts[id] = nil }
      } else {
        puts = puts.filter { !run.contains($0.key) }
      }
    }
  }

  func write(directory: String, sequence: Int) throws(StoreError) {
    guard !streamedRun else {
      throw StoreError(
        .io, file: path,
        message:
          "the rows just streamed into the table are not in its file yet; open the store again to read them"
      )
    }
    let rows = puts.values.sorted { Codec.id(of: $0) < Codec.id(of: $1) }
    puts = [:]
    let done = try TableFile<Codec>.salvaging(
      fileAt: path, readable: readable, puts: rows,
      removed: TableStorage<Codec>.merged(removed), sequence: sequence,
      largeRun: largeRun == nil ? nil : largeRecord)
    salvage = done.salvage
    written = done.largestID
  }
}
