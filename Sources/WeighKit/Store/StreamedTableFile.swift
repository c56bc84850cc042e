/// The file of a table that held no rows, written while an import's run of rows streams into
/// its journal record (`Store.streamRows`), for the compaction that follows the commit:
/// each row's line is made from the bytes just encoded for the record, checksummed there,
/// and written to the table's temporary file (`entries.json.tmp`) 1 MiB at a time. The
/// compaction then only adds the last line and syncs and renames the file, where it used to
/// read the rows back from the journal, checksum them again and write them.
///
/// Nothing of the crash story moves: the temporary file is renamed over the table's file at
/// the step of the compaction that wrote it before, after the journal's `fdatasync`. A kill
/// before that leaves a temporary file that no weigh reads (the next write of the table
/// replaces it; `weigh check` notes it) beside the torn record that opening moves aside.
/// A write that fails, or a transaction that changes the table otherwise too, abandons the
/// file: the compaction then writes the table from its rows, as without this.
///
/// The bytes are those `TableFile.encode` writes for the same rows: the header of the
/// table's codec, one line per row, the tally's last line
/// (`Tests/WeighKitTests/Store/StoreStreamedTableFileTests.swift`).
final class StreamedTableFile {
  /// The fewest rows for which a run's table file is written as it streams: below, the
  /// compaction (if any) copies them from the journal as before.
  static let minimumRows = 4096

  /// The table's name.
  let table: String
  /// The transaction the file is complete up to, once every row is in.
  let sequence: Int
  /// The rows written so far, those copied from the table's file (`copyRows`) included.
  var rowCount: Int { tally.count }
  /// The table's rows the run's rows are merged among (`copyRows`).
  private(set) var copiedRowCount = 0
  /// The table's rows not written yet (`copyRows`): each run's row goes after those with
  /// smaller ids (`add`), the rest before the last line (`finish`).
  private var tableRows: TableRowLines?
  /// Whether a row's line was written: the next line starts with a comma.
  private var wroteRow = false
  /// False once a write failed or the file was abandoned.
  var isOpen: Bool { file != nil }

  // Unchecked: `add` runs once per row of an import, and the dynamic exclusivity checks of
  // these three cost 170 instructions a row (17 M of 630 M, callgrind, 100,000 MyFitnessPal
  // rows, wstore10). No method of this class calls out while it accesses them, so no two
  // accesses can overlap.
  @exclusivity(unchecked) private var file: OpenAtomicFile?
  @exclusivity(unchecked) private var writer = JSONWriter()
  @exclusivity(unchecked) private var tally = TableFileTally()
  private let pieceBytes: Int

  /// Opens `path`'s temporary file and writes `header` (the table's first line, up to the
  /// `[` that opens the rows, as of `sequence`).
  init(
    table: String, path: String, header: [UInt8], sequence: Int, pieceBytes: Int = 1 << 20
  ) throws(StoreError) {
    self.table = table
    self.sequence = sequence
    self.pieceBytes = pieceBytes
    do throws(FileWriteError) {
      file = try AtomicFileWriter.store.openTemporary(path)
    } catch {
      throw StoreError(.io, file: path, message: "cannot write: \(error.reason)")
    }
    writer.bytes.reserveCapacity(min(pieceBytes, 1 << 20) + (64 << 10))
    writer.bytes.append(contentsOf: header)
  }

  /// Adds the line of the row whose bytes (the row object, as the journal record holds it)
  /// are `bytes`. A write that fails abandons the file (`isOpen` false); the commit goes on.
  ///
  /// - Returns: the row's checksum (the CRC-32 of `bytes`), for the journal record's
  ///   (`RecordStream.absorbRow`); nil once the file is abandoned.
  func add(row bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
    guard file != nil else { return nil }
    if tableRows != nil {
      // The table's rows with smaller ids first: a row its id cannot be read of, or whose id
      // a table row has, abandons the file (the run then fails, and the import holds it).
      guard let id = TableRowLines.id(ofRow: bytes), writeTableRows(below: id) else {
        abandon()
        return nil
      }
    }
    let crc = StoreChecksum.of(bytes)
    tally.writeRowLine(bytes, crc: crc, first: !wroteRow, into: &writer)
    wroteRow = true
    if writer.bytes.count >= pieceBytes { write() }
    return crc
  }

  /// Writes the lines of the table's rows (`tableRows`) whose ids are below `id`
  /// (`Int.max`: all that are left); false when a row has the id `id` or a line is not as
  /// weigh writes it.
  private func writeTableRows(below id: Int) -> Bool {
    guard let rows = tableRows else { return true }
    // Its first line has no comma before it: one is written when a run's row came first.
    var comma = rows.isAtFirstLine && wroteRow
    let passed = rows.pass(below: id, pieceBytes: pieceBytes) { piece in
      guard file != nil else { return }
      if comma {
        writer.bytes.append(0x2C)
        comma = false
      }
      writer.bytes.appendMemory(of: piece)
      if writer.bytes.count >= pieceBytes { write() }
    }
    if !rows.isAtFirstLine { wroteRow = true }
    if rows.isPassed { tableRows = nil }
    return passed && file != nil
  }

  /// Takes the rows of the table's file at `path` (`TableFile.tableRowLines`: the first line
  /// and the last row verified), before any row is added: their lines are written as they
  /// are, a piece at a time, each run's row (`add`) after those with smaller ids, the rest
  /// by `finish`: the file then holds every row in id order, as `TableFile.appending` (the
  /// run's rows all after the table's) or the compaction from all of them writes it. The
  /// tally goes on from the file's last line, so its count and sum cover every row. False
  /// when the file is not a checksummed table as weigh writes it.
  func copyRows<Codec: StoreTableCodec>(of codec: Codec.Type, fromFileAt path: String)
    throws(StoreError) -> Bool
  {
    precondition(tally.count == 0 && !wroteRow, "rows are copied before any other")
    guard file != nil, let rows = try TableFile<Codec>.tableRowLines(ofFileAt: path) else {
      abandon()
      return false
    }
    take(rows)
    return true
  }

  /// Takes `rows` (in increasing id order: a table held, without a file) before any row is
  /// added, each encoded as `TableFile.encode` encodes it, and merged with the run's rows as
  /// a file's are (`copyRows(of:fromFileAt:)`): the file then holds them all, as the
  /// compaction writes it from all of them (an import into a log whose entries are in the
  /// journal alone, made by `log`). False when the file was abandoned.
  func copyRows<Codec: StoreTableCodec>(encoding rows: [Codec.Row], of codec: Codec.Type)
    -> Bool
  {
    precondition(tally.count == 0 && !wroteRow, "rows are copied before any other")
    guard file != nil else { return false }
    var lines = JSONWriter()
    var tally = TableFileTally()
    var row = JSONWriter()
    for index in rows.indices {
      row.bytes.removeAll(keepingCapacity: true)
      Codec.encode(rows[index], into: &row)
      row.bytes.withUnsafeBufferPointer { _ = tally.writeRowLine($0, into: &lines) }
    }
    take(
      TableRowLines(
        encoded: lines.bytes, tally: tally, lastID: rows.last.map(Codec.id(of:)) ?? 0))
    return true
  }

  /// Starts the merge of the run's rows among the table's `rows`.
  private func take(_ rows: TableRowLines) {
    tally = rows.tally
    copiedRowCount = rows.tally.count
    tableRows = rows.isPassed ? nil : rows
  }

  /// Writes the last line, syncs the file and renames it over the table's file.
  func finish() throws(StoreError) {
    guard file != nil, writeTableRows(below: Int.max), let file else {
      throw StoreError(.io, message: "the table file written with the import was abandoned")
    }
    tally.writeTrailer(into: &writer)
    write()
    guard self.file != nil else {
      throw StoreFileSystem.ioError(file.temporaryPath, "write")
    }
    self.file = nil
    do throws(FileWriteError) {
      try file.finish()
    } catch {
      throw StoreError(.io, file: file.temporaryPath, message: "cannot write: \(error.reason)")
    }
  }

  /// Removes the temporary file; the table's file is untouched.
  func abandon() {
    file?.abandon()
    file = nil
    writer = JSONWriter()
    tableRows = nil
  }

  private func write() {
    guard let file else { return }
    do throws(FileWriteError) {
      try file.append(writer.bytes)
      writer.bytes.removeAll(keepingCapacity: true)
      // Synced by the compaction after the journal's `fdatasync`: written to the disk
      // meanwhile (`StoreWriteback`).
      StoreWriteback.start(file.file.descriptor, from: 0)
    } catch {
      abandon()
    }
  }
}
