/// A journal's last complete record when it is large: an import's rows streamed into a new
/// store (`Store.streamRun`) whose compaction did not follow (a kill after the commit, or a
/// failed write). Its line is read from the file a piece at a time and never held: the
/// record of 4,000,000 Withings rows is 576 MB, which opening and `weigh check` read and
/// decoded whole (jcom19).
///
/// Only one shape is read so: puts of one table with increasing ids (one after the other,
/// or with gaps: weigh's own file exported after deletions, streamed as runs), then
/// documents set or unset, as `StoreJournal.encode` writes them, in a journal of checksums.
/// Anything else in such a line (another change, a row that does not decode, an id that
/// goes back or repeats, a checksum that does not match) makes `readLargeRecord` give up: the caller then
/// reads the journal whole, as before, so the refusal and its message are those of before.
extension StoreJournal {
  /// The size from which the last whole line is read a piece at a time. A record of a
  /// hundred rows is about 15 KB; a compacted journal stays under about 1 MiB.
  static let largeRecordBytes = 8 << 20

  /// Where a large record's rows lie, and what they are.
  struct LargeRecord {
    /// Its line, without the newline.
    var range: Range<Int>
    var table: String
    /// Its rows' ids, as runs of consecutive ids.
    var ids: StreamedRunIDs
    /// How many rows.
    var count: Int { ids.count }
  }

  /// Parses `lines`, a journal's bytes up to its large last whole line `large`
  /// (`StoreFileSystem.readLines(…largeLine:)`), then that line a piece at a time; the bytes
  /// after it, up to `size`, are a torn record, as `parse(_:size:path:table:)` says.
  ///
  /// - Returns: nil when the journal is to be read whole instead: a problem before the line,
  ///   or a line that `readLargeRecord` does not take.
  static func parse(
    _ lines: [UInt8], large: Range<Int>, size: Int, path: String,
    table: (String) -> (any AnyTableStorage)?
  ) throws(StoreError) -> Contents? {
    var contents = try parse(lines, path: path, table: table)
    guard contents.problem == nil, contents.version >= 2, let base = contents.base,
      contents.completeLength == large.lowerBound,
      let (transaction, record) = try readLargeRecord(path, large, table: table, each: { _ in }),
      transaction.sequence == contents.lastSequence + 1, transaction.sequence > base
    else { return nil }
    var found = transaction
    found.line = contents.completeLines + 1
    found.end = large.upperBound + 1
    contents.transactions.append(found)
    contents.completeLength = found.end
    contents.completeLines += 1
    contents.largeRecord = record
    if size > contents.completeLength {
      contents.problem = Problem(
        offset: contents.completeLength, line: contents.completeLines + 1, column: 1,
        message: incompleteLastLine, unterminated: true)
    }
    return contents
  }

  /// Reads the record in `range` of the journal at `path` a piece at a time, checking what
  /// parsing it whole checks (its checksum, every row decoded through its table's codec,
  /// each change), and hands each row to `each` in order, before the checksum is known:
  /// a caller that keeps anything waits for the result.
  ///
  /// - Returns: the transaction, its run of rows standing for them without holding them
  ///   (`StoreRowRun(streamedInto:)`), then its documents; nil when the record is not of the
  ///   shape read here or anything in it is wrong.
  /// - Throws: `corrupt` when the file cannot be read or ends early.
  /// - Complexity: O(n) in the record's size; memory O(piece + largest row + documents).
  static func readLargeRecord(
    _ path: String, _ range: Range<Int>, table: (String) -> (any AnyTableStorage)?,
    pieceBytes: Int = StoreFileSystem.tailPiece, each: (StoreRow) -> Void
  ) throws(StoreError) -> (Transaction, LargeRecord)? {
    guard range.count > StoreChecksum.lineSuffixLength + 32 else { return nil }
    var scan = LargeRecordScan(
      suffixStart: range.upperBound - StoreChecksum.lineSuffixLength, base: range.lowerBound)
    try StoreFileSystem.readPieces(path, range, pieceBytes: pieceBytes) { piece in
      scan.take(piece, table: table, each: each)
    }
    return scan.finish(table: table)
  }

  /// The rows of a large record read back on demand, a piece of the journal at a time
  /// (`weigh check --repair` merges them with the table file's rows as it writes the file
  /// anew): at most one piece's rows are held. Read whole, the journal of a kill that left a
  /// 1,000,000-row import's record before its compaction held every row during the repair.
  final class LargeRecordRows {
    private let path: String
    private let record: LargeRecord
    private let table: (String) -> (any AnyTableStorage)?
    private let pieceBytes: Int
    private var scan: LargeRecordScan
    /// The file offset of the next piece to read.
    private var offset: Int
    private var rows: [StoreRow] = []
    private var index = 0

    /// A reader of `record`'s rows in the journal at `path`, its rows decoded through
    /// `table`'s codec, `pieceBytes` read at a time.
    init(
      path: String, record: LargeRecord, table: @escaping (String) -> (any AnyTableStorage)?,
      pieceBytes: Int = StoreFileSystem.tailPiece
    ) {
      self.path = path
      self.record = record
      self.table = table
      self.pieceBytes = pieceBytes
      scan = LargeRecordScan(
        suffixStart: record.range.upperBound - StoreChecksum.lineSuffixLength,
        base: record.range.lowerBound)
      offset = record.range.lowerBound
    }

    /// The id of the next row, without taking it; nil after the last.
    ///
    /// - Throws: `corrupt` when the journal cannot be read, or its record is no longer the
    ///   one read before (its rows, their ids or its checksum differ).
    func nextID() throws(StoreError) -> Int? {
      while index == rows.count {
        guard offset < record.range.upperBound else { return nil }
        rows.removeAll(keepingCapacity: true)
        index = 0
        let piece = offset..<min(offset + pieceBytes, record.range.upperBound)
        try StoreFileSystem.readPieces(path, piece, pieceBytes: pieceBytes) { bytes in
          scan.take(bytes, table: table) { rows.append($0) }
        }
        offset = piece.upperBound
        if offset == record.range.upperBound {
          guard let read = scan.finish(table: table), read.1.ids == record.ids
          else {
            throw StoreError(
              .corrupt, file: path,
              message: "the journal's last record changed while it was read; run the repair again")
          }
        }
      }
      return rows[index].id
    }

    /// Takes the next row (`nextID()` said there is one).
    func take() -> StoreRow {
      defer { index += 1 }
      return rows[index]
    }
  }

  /// The changes of a large record after its rows or removals (`bytes`, up to the record's
  /// `]`), read as a record of their own; nil unless they are well-formed document changes.
  static func documentChanges(
    _ bytes: ArraySlice<UInt8>, table: (String) -> (any AnyTableStorage)?
  ) -> [StoreChange]? {
    var line = Array("{\"seq\":1,\"changes\":[".utf8)
    line += bytes
    line.append(0x7D)
    let parsed = line.withUnsafeBufferPointer { bytes -> [StoreChange]? in
      var reader = JSONReader(bytes: bytes)
      guard let transaction = try? StoreJournal.readTransaction(&reader, table: table),
        (try? reader.expectEnd()) != nil
      else { return nil }
      return transaction.changes
    }
    guard let parsed, parsed.allSatisfy(\.isDocumentChange) else { return nil }
    return parsed
  }
}

/// The state of `StoreJournal.readLargeRecord` between two pieces.
private struct LargeRecordScan {
  enum Stage {
    case start, puts, rest, failed
  }

  /// Where the line starts, and where its `,"crc":"…"}` starts, in the file.
  let lineStart: Int
  let suffixStart: Int
  /// The file offset of `buffer`'s first byte.
  var base: Int
  /// The bytes read and not consumed yet (with the consumed bytes before `position`).
  var buffer: [UInt8] = []
  var position = 0
  var stage = Stage.start
  var crc = ZipCRC32()
  var sequence = 0
  var putHead: [UInt8] = []
  var storage: (any AnyTableStorage)?
  var tableName = ""
  /// The ids of the rows read, in increasing order.
  var ids = StreamedRunIDs()

  /// The most a row or the record's documents may take: more is read whole by the caller.
  static let largestPart = 16 << 20
  /// The bytes a row is given before the next piece is waited for.
  static let margin = 64 << 10

  init(suffixStart: Int, base: Int) {
    self.suffixStart = suffixStart
    self.lineStart = base
    self.base = base
  }

  mutating func take(
    _ piece: UnsafeBufferPointer<UInt8>, table: (String) -> (any AnyTableStorage)?,
    each: (StoreRow) -> Void
  ) {
    let pieceStart = base + buffer.count
    let checked = max(0, min(piece.count, suffixStart - pieceStart))
    crc.update(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: piece[0..<checked])))
    guard stage != .failed else { return }
    if position > 0 {
      buffer.removeFirst(position)
      base += position
      position = 0
    }
    buffer.append(contentsOf: piece)
    if stage == .rest, buffer.count - position > Self.largestPart {
      // Not the documents of an import's record: read whole by the caller.
      stage = .failed
      buffer = []
      return
    }
    let final = base + buffer.count >= suffixStart + StoreChecksum.lineSuffixLength
    if stage == .start { readStart(table: table) }
    if stage == .puts { readPuts(final: final, each: each) }
  }

  /// Whether `buffer` holds `literal` at `offset`.
  private func holds(_ literal: [UInt8], at offset: Int) -> Bool {
    guard offset + literal.count <= buffer.count else { return false }
    return buffer[offset..<offset + literal.count].elementsEqual(literal)
  }

  private static let seqHead = Array("{\"seq\":".utf8)
  private static let changesHead = Array(",\"changes\":[".utf8)
  private static let putStart = Array("{\"put\":\"".utf8)
  private static let rowHead = Array("\",\"row\":".utf8)

  /// `{"seq":N,"changes":[{"put":"<table>","row":` — the first piece holds it.
  private mutating func readStart(table: (String) -> (any AnyTableStorage)?) {
    stage = .failed
    guard holds(Self.seqHead, at: 0) else { return }
    var offset = Self.seqHead.count
    var value = 0
    let digits = offset
    while offset < buffer.count, offset - digits < 18, (0x30...0x39).contains(buffer[offset]) {
      // checked: a digit's value, 0 to 9; at most 18 digits, under Int.max
      value = value * 10 + Int(buffer[offset] - 0x30)
      offset += 1
    }
    guard offset > digits, buffer[digits] != 0x30 || offset == digits + 1,
      holds(Self.changesHead, at: offset)
    else { return }
    sequence = value
    offset += Self.changesHead.count
    guard holds(Self.putStart, at: offset) else { return }
    var nameEnd = offset + Self.putStart.count
    while nameEnd < buffer.count, nameEnd - offset < 64,
      buffer[nameEnd] == 0x5F || (0x61...0x7A).contains(buffer[nameEnd])
        || (0x30...0x39).contains(buffer[nameEnd])
    {
      nameEnd += 1
    }
    guard holds(Self.rowHead, at: nameEnd) else { return }
    tableName = String(decoding: buffer[offset + Self.putStart.count..<nameEnd], as: UTF8.self)
    guard let found = table(tableName) else { return }
    storage = found
    putHead = Array(buffer[offset..<nameEnd + Self.rowHead.count])
    position = offset
    stage = .puts
  }

  /// Each put whose row the buffer holds whole; then `rest` at the first other change.
  private mutating func readPuts(final: Bool, each: (StoreRow) -> Void) {
    guard let storage else {
      stage = .failed
      return
    }
    let putHead = self.putHead
    var read: (position: Int, ids: StreamedRunIDs, stage: Stage) = (position, ids, stage)
    // Not held twice while it grows (`read.ids` is its only reference).
    ids = StreamedRunIDs()
    buffer.withUnsafeBufferPointer { bytes in
      while true {
        let start = read.position
        guard final || bytes.count - start >= Self.margin else { return }
        guard start + putHead.count <= bytes.count,
          bytes[start..<start + putHead.count].elementsEqual(putHead)
        else {
          read.stage = .rest
          return
        }
        var reader = JSONReader(bytes: bytes, offset: start + putHead.count)
        let row: StoreRow
        do throws(JSONSyntaxError) {
          row = try storage.decodeRow(from: &reader)
        } catch {
          // Cut by the piece's end, or wrong: more bytes decide, up to a bound.
          if final || bytes.count - start > Self.largestPart { read.stage = .failed }
          return
        }
        let end = reader.offset
        guard end + 1 < bytes.count, bytes[end] == 0x7D,
          bytes[end + 1] == 0x2C || bytes[end + 1] == 0x5D
        else {
          if final || bytes.count - start > Self.largestPart { read.stage = .failed }
          return
        }
        // Increasing ids, and a next id after the largest.
        if row.id == .max || read.ids.last.map({ row.id <= $0 }) == true {
          read.stage = .failed
          return
        }
        read.ids.append(row.id)
        each(row)
        if bytes[end + 1] == 0x5D {
          read.position = end + 1
          read.stage = .rest
          return
        }
        read.position = end + 2
      }
    }
    (position, ids, stage) = (read.position, read.ids, read.stage)
  }

  /// The documents after the rows, the `]` and the checksum, once every piece is in.
  func finish(
    table: (String) -> (any AnyTableStorage)?
  ) -> (StoreJournal.Transaction, StoreJournal.LargeRecord)? {
    guard stage == .rest, ids.count > 0,
      base + buffer.count == suffixStart + StoreChecksum.lineSuffixLength
    else { return nil }
    let suffix = suffixStart - base
    guard suffix - position <= Self.largestPart, position < suffix else { return nil }
    let documents: [StoreChange]
    if buffer[position] == 0x5D {
      guard position + 1 == suffix else { return nil }
      documents = []
    } else {
      guard let parsed = StoreJournal.documentChanges(buffer[position..<suffix], table: table)
      else { return nil }
      documents = parsed
    }
    let matches = buffer.withUnsafeBufferPointer { bytes in
      StoreChecksum.parseHex(bytes, at: suffix + 8) == crc.value
        && bytes[suffix..<suffix + 8].elementsEqual(",\"crc\":\"".utf8)
        && bytes[suffix + 16] == 0x22 && bytes[suffix + 17] == 0x7D
    }
    guard matches else { return nil }
    let run = StoreRowRun(streamedInto: tableName, ids: ids)
    let transaction = StoreJournal.Transaction(
      sequence: sequence, changes: [.putRun(run)] + documents)
    let record = StoreJournal.LargeRecord(
      range: lineStart..<suffixStart + StoreChecksum.lineSuffixLength, table: tableName, ids: ids)
    return (transaction, record)
  }
}
