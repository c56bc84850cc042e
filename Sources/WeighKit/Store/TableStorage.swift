/// The store's view of one table, whatever its row type.
protocol AnyTableStorage: AnyObject {
  var name: String { get }
  var fileName: String { get }
  /// The sequence the table's file is complete up to (0 when it has no file).
  var snapshotSequence: Int { get }
  /// True when the journal holds changes of this table newer than its file.
  var isDirty: Bool { get }
  var hasFile: Bool { get }
  /// True when the table's file is checksummed and holds every row, read or not.
  var fileHoldsEveryRow: Bool { get }
  /// True when the table's file has checksums (false for a file of an older store).
  var hasChecksums: Bool { get }
  /// Reads the file's header (not its rows); records whether the file exists.
  func readHeader(directory: String) throws(StoreError)
  func decodeRow(from reader: inout JSONReader) throws(JSONSyntaxError) -> StoreRow
  /// Applies a change from the journal or a commit numbered `sequence`.
  func apply(put row: StoreRow, sequence: Int)
  /// Applies `changes`, puts of rows of this table, as `apply(put:sequence:)` does each.
  func apply(puts changes: ArraySlice<StoreChange>, sequence: Int)
  /// Applies the puts of `run`, rows of this table, in order.
  func apply(run: StoreRowRun, sequence: Int)
  /// Removes the rows with `ids` (each if present), as `apply(removeID:sequence:)` does each.
  func apply(removeIDs ids: [Int], sequence: Int)
  func apply(removeID id: Int, sequence: Int)
  /// Removes the rows whose ids lie in `runs` (each if present), as one removal per id in
  /// order would: held as the runs while the table is not read.
  func apply(removeRuns runs: [IDStepRun], sequence: Int)
  func load(directory: String?) throws(StoreError)
  /// Reads the table's file through with every check `load` makes (each row decoded, ids
  /// strictly increasing, checksums, the last line's count and sum) and the same errors,
  /// holding none of its rows: `weigh check` of a million entries held them all (117 MiB).
  ///
  /// - Complexity: O(n) in the file's size; in memory O(1) (its passed pages given back).
  func verifyFile(directory: String) throws(StoreError)
  /// Writes the table's file as of `sequence` (loading the rows first); the rows `reused`
  /// holds are copied from those bytes instead of being encoded again.
  func writeSnapshot(directory: String, sequence: Int, reusing reused: EncodedRowBytes?)
    throws(StoreError)
  /// Takes the rows of the table's file that are intact (for a repair), as of the file's
  /// sequence or `fallbackSequence` when its first line is damaged.
  func salvage(directory: String, fallbackSequence: Int) -> TableSalvage
  /// The greatest id among the rows (loaded rows only).
  var largestID: Int { get }
  /// True when the rows are in memory (read, or a table without a file).
  var isLoaded: Bool { get }
  /// The number of rows, when they are in memory.
  var loadedRowCount: Int? { get }
  /// The first line of the table's file as of `sequence`, up to the `[` that opens the rows.
  func fileHeader(sequence: Int) -> [UInt8]
  /// Records that the table's file was written, as of `sequence`, with every row the table
  /// holds (by a `StreamedTableFile`), as `writeSnapshot` records it.
  func snapshotWritten(sequence: Int)
  /// Copies the rows of the table's file at `path` into `file` before a run streams after
  /// them (`StreamedTableFile.copyRows`); false when they cannot be.
  func copyRows(into file: StreamedTableFile, fromFileAt path: String) throws(StoreError) -> Bool
}

extension AnyTableStorage {
  /// Writes the table's file as of `sequence`, encoding every row.
  func writeSnapshot(directory: String, sequence: Int) throws(StoreError) {
    try writeSnapshot(directory: directory, sequence: sequence, reusing: nil)
  }
}

/// The rows of one table: loaded from its file on first use, with the journal's changes
/// held aside until then, so that opening a store costs nothing for a large table.
final class TableStorage<Codec: StoreTableCodec>: AnyTableStorage {
  private enum PendingChange {
    case put(Codec.Row)
    case remove(Int)
    case removeRuns([IDStepRun])
  }

  /// The rows in increasing id order, or nil until loaded.
  private(set) var rows: [Codec.Row]?
  private var pending: [PendingChange] = []
  private(set) var snapshotSequence = 0
  private(set) var isDirty = false
  private(set) var hasFile = false
  private(set) var hasChecksums = false
  /// True from a streamed run's commit (`apply(run:sequence:)`) until its table file is
  /// renamed into place (`snapshotWritten`): its rows are in the journal and that file
  /// alone, so neither this table's file nor its pending changes hold them, and reading the
  /// table, or writing its file from what it holds, would leave them out.
  private var streamedRowsOutsideFile = false
  /// The lowest row id put or removed since the table's file was written or read (`Int.max`:
  /// none). When it lies past the file's last row, the changes only added rows, and a
  /// compaction appends them to the file's bytes instead of encoding every row again.
  private var lowestChangedID = Int.max

  var name: String { Codec.tableName }
  var isLoaded: Bool { rows != nil }
  var loadedRowCount: Int? { rows?.count }
  var fileName: String { TableFile<Codec>.fileName }
  /// True when the table is not read yet and its file holds every row: no change to it
  /// since the file was written or read.
  var isOnlyInFile: Bool { rows == nil && hasFile && pending.isEmpty && !isDirty }
  /// True when the table's file is checksummed and holds every row, read or not: no change
  /// to the table since the file was written or read.
  var fileHoldsEveryRow: Bool { hasFile && hasChecksums && pending.isEmpty && !isDirty }

  /// An empty, loaded table (memory stores, new tables).
  init(empty: Bool) {
    rows = empty ? [] : nil
  }

  func readHeader(directory: String) throws(StoreError) {
    let path = StoreLocation.joinPath(directory, fileName)
    if let header = try TableFile<Codec>.readHeader(path: path) {
      snapshotSequence = header.sequence
      hasFile = true
      hasChecksums = header.checksummed
      rows = nil
      lowestChangedID = .max
      streamedRowsOutsideFile = false
    } else {
      snapshotSequence = 0
      hasFile = false
      hasChecksums = false
      rows = []
      streamedRowsOutsideFile = false
    }
  }

  func decodeRow(from reader: inout JSONReader) throws(JSONSyntaxError) -> StoreRow {
    StoreRow(Codec.self, try Codec.decode(from: &reader))
  }

  func apply(put row: StoreRow, sequence: Int) {
    guard sequence > snapshotSequence else { return }
    isDirty = true
    lowestChangedID = min(lowestChangedID, row.id)
    // The store routes a row by its table's name, which names one codec.
    let value = row.value(Codec.self)!
    if rows != nil {
      Self.put(value, into: &rows!)
    } else {
      pending.append(.put(value))
    }
  }

  func apply(puts changes: ArraySlice<StoreChange>, sequence: Int) {
    guard sequence > snapshotSequence else { return }
    isDirty = true
    for change in changes {
      if case .put(let row) = change { lowestChangedID = min(lowestChangedID, row.id) }
    }
    // Looked up once, not per row: in this generic class each look-up of the box's type
    // costs a search of the runtime's metadata cache.
    let boxTypes = BoxTypes()
    guard var loaded = rows else {
      for change in changes {
        guard case .put(let row) = change else { continue }
        pending.append(.put(Self.value(of: row, boxTypes: boxTypes)))
      }
      return
    }
    rows = nil  // so that `loaded` is the array's only reference, changed in place
    // Read where they are, not copied: the store passes puts alone (others are left out).
    let isPut = { (change: StoreChange) in if case .put = change { true } else { false } }
    let puts = changes.allSatisfy(isPut) ? changes : ArraySlice(changes.filter(isPut))
    Self.merge(
      count: puts.count,
      id: { index in
        guard case .put(let row) = puts[puts.startIndex + index] else { return .min }
        return row.id
      },
      row: { index in
        guard case .put(let row) = puts[puts.startIndex + index] else { return nil }
        return Self.value(of: row, boxTypes: boxTypes)
      }, into: &loaded)
    rows = loaded
  }

  func apply(run: StoreRowRun, sequence: Int) {
    guard sequence > snapshotSequence, run.count > 0 else { return }
    guard !run.isStreamed else {
      // Rows streamed into a table without rows (`Store.streamRun`): not held, and read from
      // the file the commit's compaction renames into place (the store reopens itself when
      // none does).
      isDirty = true
      lowestChangedID = min(lowestChangedID, run.smallestID)
      rows = nil
      pending = []
      streamedRowsOutsideFile = true
      return
    }
    // The store routes a run by its table's name, which names one codec.
    let values = run.values(Codec.self)!
    isDirty = true
    lowestChangedID = min(lowestChangedID, run.smallestID)
    guard var loaded = rows else {
      pending.reserveCapacity(pending.count + values.count)
      for index in values.indices { pending.append(.put(values[index])) }
      return
    }
    rows = nil  // so that `loaded` is the array's only reference, changed in place
    let lastID = loaded.isEmpty ? Int.min : Codec.id(of: loaded[loaded.count - 1])
    if run.idsIncrease, run.smallestID > lastID {
      // An import's run, in order after every row: a table without rows takes the array
      // itself (shared until the commit's changes are let go), others copy it at once.
      if loaded.isEmpty { loaded = values } else { loaded.append(contentsOf: values) }
    } else {
      Self.merge(
        count: values.count, id: { Codec.id(of: values[values.startIndex + $0]) },
        row: { values[values.startIndex + $0] }, into: &loaded)
    }
    rows = loaded
  }

  /// The types of the objects that hold this table's rows in a put.
  private struct BoxTypes {
    let single = ObjectIdentifier(StoreRowBox<Codec>.self)
    let run = ObjectIdentifier(StoreRowRunBox<Codec>.self)
  }

  /// The row a put holds.
  private static func value(of row: StoreRow, boxTypes: BoxTypes) -> Codec.Row {
    let type = ObjectIdentifier(Swift.type(of: row.content))
    if type == boxTypes.single {
      return unsafeDowncast(row.content, to: StoreRowBox<Codec>.self).row
    }
    // The store routes a row by its table's name, which names one codec.
    precondition(type == boxTypes.run, "a row of another table")
    return unsafeDowncast(row.content, to: StoreRowRunBox<Codec>.self).rows[row.index]
  }

  func apply(removeID id: Int, sequence: Int) {
    guard sequence > snapshotSequence else { return }
    isDirty = true
    lowestChangedID = min(lowestChangedID, id)
    if rows != nil {
      Self.remove(id, from: &rows!)
    } else {
      pending.append(.remove(id))
    }
  }

  func apply(removeIDs ids: [Int], sequence: Int) {
    guard ids.count > 1, rows != nil else {
      for id in ids { apply(removeID: id, sequence: sequence) }
      return
    }
    guard sequence > snapshotSequence else { return }
    isDirty = true
    lowestChangedID = min(lowestChangedID, ids.min() ?? .max)
    Self.remove(Set(ids), from: &rows!)
  }

  func apply(removeRuns runs: [IDStepRun], sequence: Int) {
    guard sequence > snapshotSequence, !runs.isEmpty else { return }
    isDirty = true
    lowestChangedID = min(lowestChangedID, runs.lazy.map(\.lowerBound).min() ?? .max)
    if rows != nil {
      Self.remove(runs, from: &rows!)
    } else {
      pending.append(.removeRuns(runs))
    }
  }

  /// The runs of ids removed since the table's file was written or read, when that is all
  /// that changed and the rows are not read: what a compaction can leave out of the file's
  /// rows as it copies them (`TableFile.copying(_:removing:…)`). Nil otherwise.
  ///
  /// A row put and removed since counts as removed only: the migration of Health's tables
  /// removes every row, those the journal put since the file too, and the compaction after
  /// it read the table whole for them (1,000,000 samples: 500 MiB; hmig24).
  var removalsOnly: [IDStepRun]? {
    guard rows == nil, hasFile, hasChecksums, isDirty, !pending.isEmpty else { return nil }
    var runs: [IDStepRun] = []
    var puts: Set<Int> = []
    for change in pending {
      switch change {
      case .put(let row): puts.insert(Codec.id(of: row))
      case .remove(let id):
        puts.remove(id)
        runs.append(IDStepRun(id))
      case .removeRuns(let more):
        if !puts.isEmpty {
          let removed = Self.merged(more)
          puts = puts.filter { id in
            // The first run that does not end before `id`.
            var (low, high) = (0, removed.count)
            while low < high {
              let middle = (low + high) / 2
              if removed[middle].upperBound < id { low = middle + 1 } else { high = middle }
            }
            return !(low < removed.count && removed[low].contains(id))
          }
        }
        runs += more
      }
    }
    return puts.isEmpty ? runs : nil
  }

  /// The ids of `runs` as runs by increasing id, apart (each run's last id below the next
  /// run's first): sorted, and each cluster of runs that overlap made one range when its runs
  /// are consecutive ids, or made anew from its ids otherwise (the undos of two imports whose
  /// numbers interleave; an import's undo alone is apart already, every other number one run).
  static func merged(_ runs: [IDStepRun]) -> [IDStepRun] {
    var merged: [IDStepRun] = []
    var cluster: [IDStepRun] = []
    var clusterEnd = Int.min
    func endCluster() {
      if cluster.count == 1 {
        merged.append(cluster[0])
      } else if cluster.allSatisfy({ $0.step == 1 }) {
        merged.append(IDStepRun(cluster[0].lowerBound...clusterEnd))
      } else {
        var apart = IDRuns()
        for id in Set(cluster.joined()).sorted() { apart.append(id) }
        merged += apart.runs
      }
      cluster = []
    }
    for run in runs.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if !cluster.isEmpty, run.lowerBound > clusterEnd { endCluster() }
      cluster.append(run)
      clusterEnd = cluster.count == 1 ? run.upperBound : max(clusterEnd, run.upperBound)
    }
    if !cluster.isEmpty { endCluster() }
    return merged
  }

  func load(directory: String?) throws(StoreError) {
    guard rows == nil, let directory else { return }
    let path = StoreLocation.joinPath(directory, fileName)
    try refuseWhileStreamedRowsOutsideFile(path)
    guard var (_, loaded) = try TableFile<Codec>.read(path: path) else {
      throw Self.disappeared(path)
    }
    Self.apply(pending, to: &loaded)
    pending = []
    rows = loaded
  }

  /// Gives `body` every row the table holds, in increasing id order, as `load` would make
  /// them, without holding them: the loaded rows, or else the file's read one at a time
  /// (`TableFile.Cursor`, its passed pages given back) with the changes held aside since
  /// merged in by id (the last change of an id decides: its put, or its removal). The table
  /// stays unread. The migration of Health's tables reads its rows so.
  ///
  /// - Throws: what `load` throws for the file, or what `body` throws (the rest unread).
  /// - Complexity: O(n) in the file's size; in memory O(the changes held aside).
  func forEachRow(
    directory: String?, _ body: (Codec.Row) throws(StoreError) -> Void
  ) throws(StoreError) {
    if let rows {
      for row in rows { try body(row) }
      return
    }
    guard let directory else { return }
    let path = StoreLocation.joinPath(directory, fileName)
    try refuseWhileStreamedRowsOutsideFile(path)
    guard let cursor = try TableFile<Codec>.Cursor(path: path) else {
      throw Self.disappeared(path)
    }
    var puts: [Int: Codec.Row] = [:]
    var removed: [IDStepRun] = []
    for change in pending {
      switch change {
      case .put(let row): puts[Codec.id(of: row)] = row
      case .remove(let id):
        puts[id] = nil
        removed.append(IDStepRun(id))
      case .removeRuns(let runs):
        for run in runs where !puts.isEmpty {
          puts = puts.filter { !run.contains($0.key) }
        }
        removed += runs
      }
    }
    let runs = Self.merged(removed)
    let added = puts.keys.sorted()
    var nextAdded = 0
    var nextRun = 0
    while let row = try cursor.next() {
      let id = Codec.id(of: row)
      while nextAdded < added.count, added[nextAdded] < id {
        try body(puts[added[nextAdded]]!)
        nextAdded += 1
      }
      if nextAdded < added.count, added[nextAdded] == id {
        try body(puts[id]!)
        nextAdded += 1
        continue
      }
      while nextRun < runs.count, runs[nextRun].upperBound < id { nextRun += 1 }
      if nextRun < runs.count, runs[nextRun].contains(id) { continue }
      try body(row)
    }
    for id in added[nextAdded...] { try body(puts[id]!) }
  }

  func verifyFile(directory: String) throws(StoreError) {
    let path = StoreLocation.joinPath(directory, fileName)
    guard try TableFile<Codec>.forEachRow(path: path, sizing: { _ in }, { _ in }) else {
      throw Self.disappeared(path)
    }
  }

  private static func disappeared(_ path: String) -> StoreError {
    StoreError(
      .corrupt, file: path,
      message: "the table file disappeared while the store was open; restore it from a backup")
  }

  /// The rows with an id greater than `id`; reads only the end of the file when the table
  /// is not loaded yet.
  func rows(after id: Int, directory: String?) throws(StoreError) -> [Codec.Row] {
    if rows == nil, let directory {
      try refuseWhileStreamedRowsOutsideFile(StoreLocation.joinPath(directory, fileName))
    }
    if rows == nil, let directory,
      let partial = try TableFile<Codec>.read(
        path: StoreLocation.joinPath(directory, fileName), after: id),
      var tail = partial
    {
      Self.apply(pending, to: &tail, above: id)
      return tail
    }
    try load(directory: directory)
    let loaded = rows ?? []
    let index = Self.lowerBound(id + 1, in: loaded)
    return Array(loaded[index...])
  }

  func writeSnapshot(directory: String, sequence: Int, reusing reused: EncodedRowBytes?)
    throws(StoreError)
  {
    let path = StoreLocation.joinPath(directory, fileName)
    try refuseWhileStreamedRowsOutsideFile(path)
    if let removed = removalsOnly,
      try TableFile<Codec>.copying(
        fileAt: path, removing: Self.merged(removed), sequence: sequence)
    {
      snapshotWritten(sequence: sequence)
      return
    }
    if hasFile, hasChecksums, lowestChangedID > 0, lowestChangedID != .max,
      let appended = try TableFile<Codec>.appending(
        rowsAdded(since: lowestChangedID), firstNewID: lowestChangedID, toFileAt: path,
        sequence: sequence, reusing: reused)
    {
      try StoreFileSystem.replace(path, with: appended)
    } else {
      try load(directory: directory)
      // Written 1 MiB at a time: a million-row table is not held a second time as bytes.
      try StoreFileSystem.replace(path) { (write) throws(FileWriteError) in
        try TableFile<Codec>.encode(
          rows ?? [], sequence: sequence, reusing: reused, chunkBytes: 1 << 20, write: write)
      }
    }
    snapshotWritten(sequence: sequence)
  }

  func fileHeader(sequence: Int) -> [UInt8] {
    var writer = JSONWriter()
    TableFile<Codec>.writeHeader(sequence: sequence, into: &writer)
    return writer.bytes
  }

  func snapshotWritten(sequence: Int) {
    // The file now holds every change: a table not loaded has none left to apply.
    if rows == nil { pending = [] }
    streamedRowsOutsideFile = false
    snapshotSequence = sequence
    isDirty = false
    hasFile = true
    hasChecksums = true
    lowestChangedID = .max
  }

  func copyRows(into file: StreamedTableFile, fromFileAt path: String) throws(StoreError) -> Bool {
    if let rows, !hasFile { return file.copyRows(encoding: rows, of: Codec.self) }
    guard fileHoldsEveryRow else { return false }
    return try file.copyRows(of: Codec.self, fromFileAt: path)
  }

  /// Throws while a streamed run's rows are outside the table's file and its pending changes
  /// (`streamedRowsOutsideFile`): the store reads them from its journal once opened again.
  private func refuseWhileStreamedRowsOutsideFile(_ path: String) throws(StoreError) {
    guard streamedRowsOutsideFile else { return }
    throw StoreError(
      .io, file: path,
      message:
        "the rows just streamed into the table are not in its file yet; open the store again to read them"
    )
  }

  /// The rows with an id of at least `id`, for a table whose changes since its file all have
  /// such ids: from the loaded rows, or from the pending changes alone.
  private func rowsAdded(since id: Int) -> [Codec.Row] {
    if let rows { return Array(rows[Self.lowerBound(id, in: rows)...]) }
    var added: [Codec.Row] = []
    Self.apply(pending, to: &added)
    return added
  }

  func salvage(directory: String, fallbackSequence: Int) -> TableSalvage {
    let path = StoreLocation.joinPath(directory, fileName)
    let found = TableFile<Codec>.salvage(path: path)
    rows = found.rows
    pending = []
    streamedRowsOutsideFile = false
    snapshotSequence = found.sequence ?? fallbackSequence
    hasFile = found.exists
    hasChecksums = true
    isDirty = true
    // The file is damaged: the repair writes it anew, never appends to it.
    lowestChangedID = .min
    return found.report
  }

  var largestID: Int { rows?.last.map(Codec.id(of:)) ?? 0 }

  /// The index of the first row whose id is not less than `id`.
  static func lowerBound(_ id: Int, in rows: [Codec.Row]) -> Int {
    var low = 0
    var high = rows.count
    while low < high {
      let middle = (low + high) / 2
      if Codec.id(of: rows[middle]) < id { low = middle + 1 } else { high = middle }
    }
    return low
  }

  private static func put(_ row: Codec.Row, into rows: inout [Codec.Row]) {
    let id = Codec.id(of: row)
    // New rows usually get the next id: appending keeps that O(1).
    if rows.isEmpty || Codec.id(of: rows[rows.count - 1]) < id {
      rows.append(row)
      return
    }
    let index = lowerBound(id, in: rows)
    if index < rows.count && Codec.id(of: rows[index]) == id {
      rows[index] = row
    } else {
      rows.insert(row, at: index)
    }
  }

  /// Applies `changes` to `rows` in order, the puts of rows with an id above `above` only:
  /// the puts and removals of ids between two removals of runs merged into the rows in one
  /// pass (`merge(count:id:row:into:)`). Each put inserted among the rows in turn made a held
  /// import of rows numbered backwards quadratic (500,000 among 500,000: 318.5 s, perf: 95 %
  /// in memmove; merge24).
  ///
  /// - Complexity: O(n + k log k) for n rows and k changes between two removals of runs.
  private static func apply(
    _ changes: [PendingChange], to rows: inout [Codec.Row], above: Int = .min
  ) {
    var start = changes.startIndex
    while start < changes.endIndex {
      var end = start
      while end < changes.endIndex {
        if case .removeRuns = changes[end] { break }
        end += 1
      }
      if end > start {
        // Puts at or below `above` change nothing: left out by their positions (8 bytes
        // each), not by a copy of the changes.
        let kept =
          above == .min
          ? nil
          : (start..<end).filter { index in
            if case .put(let row) = changes[index] { return Codec.id(of: row) > above }
            return true
          }
        let position = { (index: Int) in kept?[index] ?? start + index }
        merge(
          count: kept?.count ?? end - start,
          id: { index in
            switch changes[position(index)] {
            case .put(let row): Codec.id(of: row)
            case .remove(let id): id
            case .removeRuns: preconditionFailure("removals of runs are applied apart")
            }
          },
          row: { index in
            if case .put(let row) = changes[position(index)] { return row }
            return nil
          }, into: &rows)
      }
      if end < changes.endIndex, case .removeRuns(let runs) = changes[end] {
        remove(runs, from: &rows)
      }
      start = end + 1
    }
  }

  /// Up to this many changes, `merge` applies them one at a time: each moves at most the
  /// rows after it (a `memmove`), where the merge copies every row.
  static var fewChanges: Int { 16 }

  /// Applies `count` changes, in order, to `rows`: change `index` puts `row(index)` (a row
  /// whose id is `id(index)`), or removes the row with id `id(index)` when `row` gives nil;
  /// exactly as putting (`put(_:into:)`) or removing each in turn would. Puts in increasing id
  /// order after the last row (an import's) are appended, a few changes applied in turn
  /// (`fewChanges`); others are sorted by id, the last change of each id kept, and merged into
  /// the rows in one pass.
  ///
  /// - Complexity: O(n + k log k) for n rows and k changes; the rows held twice while merged.
  static func merge(
    count: Int, id: (Int) -> Int, row: (Int) -> Codec.Row?, into rows: inout [Codec.Row]
  ) {
    guard count > 0 else { return }
    var appendOnly = true
    var lastID = rows.isEmpty ? Int.min : Codec.id(of: rows[rows.count - 1])
    for index in 0..<count {
      let next = id(index)
      guard next > lastID, row(index) != nil else {
        appendOnly = false
        break
      }
      lastID = next
    }
    if appendOnly {
      // Appended without reserving: an exact reservation per commit would copy the rows at
      // each (a loaded table takes one `log` at a time).
      for index in 0..<count { rows.append(row(index)!) }
      return
    }
    if count <= fewChanges {
      // A few changes (an edit, a removal) in place: the merge would copy every row.
      for index in 0..<count {
        if let value = row(index) {
          put(value, into: &rows)
        } else {
          remove(id(index), from: &rows)
        }
      }
      return
    }
    // The changes by id, a later change of an id after an earlier one: the last of each
    // decides.
    var order: [(id: Int, index: Int)] = []
    order.reserveCapacity(count)
    for index in 0..<count { order.append((id(index), index)) }
    // A file numbered backwards is one descending run: the sort reverses it in one pass.
    order.sort { ($0.id, $0.index) < ($1.id, $1.index) }
    var merged: [Codec.Row] = []
    // checked: both counts are those of arrays held in memory.
    merged.reserveCapacity(rows.count + count)
    var next = 0
    var position = 0
    while position < order.count {
      let changedID = order[position].id
      var decides = order[position].index
      position += 1
      while position < order.count, order[position].id == changedID {
        decides = order[position].index
        position += 1
      }
      while next < rows.count, Codec.id(of: rows[next]) < changedID {
        merged.append(rows[next])
        next += 1
      }
      if next < rows.count, Codec.id(of: rows[next]) == changedID { next += 1 }
      if let put = row(decides) { merged.append(put) }
    }
    merged.append(contentsOf: rows[next...])
    rows = merged
  }

  /// Removes the rows whose ids lie in `runs`, in one pass over the rows when the runs
  /// increase (an undo of an import's); through a set of their ids otherwise.
  private static func remove(_ runs: [IDStepRun], from rows: inout [Codec.Row]) {
    guard zip(runs, runs.dropFirst()).allSatisfy({ $0.upperBound < $1.lowerBound }) else {
      remove(Set(runs.joined()), from: &rows)
      return
    }
    var next = 0
    rows.removeAll { row in
      let id = Codec.id(of: row)
      while next < runs.count, runs[next].upperBound < id { next += 1 }
      return next < runs.count && runs[next].contains(id)
    }
  }

  /// Removes the rows with `ids`, in one pass over the rows: removed one at a time, in the
  /// increasing order an undo of an import writes them, each removal moved every row after
  /// it (85,715 removals of a streamed import's undo took 3.1 s, 857,143 more than 300 s,
  /// perf: 93 % in memmove).
  private static func remove(_ ids: Set<Int>, from rows: inout [Codec.Row]) {
    if ids.count == 1, let id = ids.first {
      remove(id, from: &rows)
    } else {
      rows.removeAll { ids.contains(Codec.id(of: $0)) }
    }
  }

  private static func remove(_ id: Int, from rows: inout [Codec.Row]) {
    let index = lowerBound(id, in: rows)
    if index < rows.count && Codec.id(of: rows[index]) == id { rows.remove(at: index) }
  }
}
