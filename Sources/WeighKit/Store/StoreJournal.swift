/// Reads and writes `journal.jsonl`: a header line, then one line per committed transaction
/// whose sequence numbers follow the header's `base` without a gap, each line ending with the
/// CRC-32 of the bytes before its `,"crc"`:
///
///     {"format":"weigh-journal","version":2,"base":42,"crc":"…"}
///     {"seq":43,"changes":[{"put":"entries","row":{"id":7,…}},{"remove":"entries","id":3}],"crc":"…"}
///     {"seq":44,"changes":[{"set":"settings","value":{"unit":"kg"}},{"unset":"goal"}],"crc":"…"}
///
/// Version 1 (stores made before checksums) has no `base` and no `crc`; it is still read.
/// Parsing stops at the first line that is not a valid next record (`Contents.problem`):
/// whether that is damage or an append torn by a crash is for `StoreInspection` to say,
/// with `journal.ack`.
enum StoreJournal {
  static let fileName = "journal.jsonl"
  static let formatName = "weigh-journal"
  static let formatVersion = 2

  /// One committed transaction.
  struct Transaction {
    var sequence: Int
    var changes: [StoreChange]
    /// The 1-based line it was read from (0 when not read from a file).
    var line = 0
    /// The offset just after its line's newline.
    var end = 0
  }

  /// The first line that is not a valid record.
  struct Problem {
    var offset: Int
    var line: Int
    var column: Int
    var message: String
    /// True for a last line without its newline.
    var unterminated: Bool
  }

  /// What a journal file holds.
  struct Contents {
    /// The header's version (0 when there is no header).
    var version = 0
    /// The sequence the journal starts after (version 2).
    var base: Int?
    var transactions: [Transaction] = []
    /// Bytes up to the end of the last valid line.
    var completeLength = 0
    /// Lines up to `completeLength`.
    var completeLines = 0
    /// The first line that is not a valid record, if any; parsing stopped there.
    var problem: Problem?
    /// The last transaction when its record was read a piece at a time (`parse(_:large:…)`):
    /// its rows are not held, its change for them is a run that stands for them.
    var largeRecord: LargeRecord?
    /// False for an empty journal (or one whose header line was cut short).
    var hasHeader: Bool { version > 0 }
    /// The last transaction's sequence, or the base.
    var lastSequence: Int { transactions.last?.sequence ?? base ?? 0 }
  }

  /// The header line of a journal that starts after sequence `base`.
  static func header(base: Int) -> [UInt8] {
    var writer = JSONWriter()
    writer.raw("{\"format\":\"weigh-journal\",\"version\":2,\"base\":")
    writer.write(base)
    return checksummed(writer)
  }

  /// The writer's bytes with `,"crc":"…"}` and a newline after them.
  private static func checksummed(_ writer: JSONWriter) -> [UInt8] {
    var writer = writer
    let crc = StoreChecksum.of(writer.bytes[...])
    writer.raw(byte: 0x2C)
    StoreChecksum.writeMember(crc, into: &writer)
    writer.raw("}\n")
    return writer.bytes
  }

  /// What a last line without its newline is said to be.
  static let incompleteLastLine =
    "the last line is incomplete (no newline): a commit interrupted by a crash, or the file "
    + "was cut short"

  /// Parses `lines`, a journal's first bytes through its last newline, of the journal's
  /// `size` (`StoreFileSystem.readLines`): when they hold no problem, the bytes after them
  /// are one, a last line without its newline, as `parse(_:path:table:)` finds it in the
  /// journal's bytes read whole.
  ///
  /// - Throws: only `newerFormat`.
  /// - Complexity: O(n) in the size of `lines`.
  static func parse(
    _ lines: [UInt8], size: Int, path: String, table: (String) -> (any AnyTableStorage)?
  ) throws(StoreError) -> Contents {
    var contents = try parse(lines, path: path, table: table)
    if contents.problem == nil, size > lines.count {
      contents.problem = Problem(
        offset: lines.count, line: contents.completeLines + 1, column: 1,
        message: incompleteLastLine, unterminated: true)
    }
    return contents
  }

  /// Parses the lines up to the first that is not a valid next record; `table` finds the
  /// storage (and codec) for a table name.
  ///
  /// - Throws: only `newerFormat`; every other problem is in `Contents.problem`.
  /// - Complexity: O(n) in the journal's size.
  static func parse(
    _ bytes: [UInt8], path: String, table: (String) -> (any AnyTableStorage)?
  ) throws(StoreError) -> Contents {
    var newer: JSONSyntaxError?
    let contents = bytes.withUnsafeBufferPointer { buffer in
      var contents = Contents()
      var offset = 0
      var line = 1
      var previous = 0
      func fail(_ message: String, at position: Int, unterminated: Bool = false) {
        let reader = JSONReader(bytes: buffer)
        let error = reader.error(message, at: position)
        contents.problem = Problem(
          offset: position, line: line, column: error.column, message: message,
          unterminated: unterminated)
      }
      while offset < buffer.count {
        var end = offset
        while end < buffer.count && buffer[end] != 0x0A { end += 1 }
        let lineBytes = UnsafeBufferPointer(rebasing: buffer[offset..<end])
        let isBlank = lineBytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        if end == buffer.count && !isBlank {
          // No newline: an append cut short (torn by a crash, or the file cut).
          fail(incompleteLastLine, at: offset, unterminated: true)
          break
        }
        if !isBlank {
          if contents.version >= 2,
            let problem = StoreChecksum.verifyLine(buffer, offset..<end)
          {
            fail(problem, at: offset)
            break
          }
          var reader = JSONReader(
            bytes: UnsafeBufferPointer(rebasing: buffer[0..<end]), offset: offset)
          do throws(JSONSyntaxError) {
            if contents.version == 0 {
              let header = try readHeader(&reader)
              if header.version >= 2 {
                guard StoreChecksum.verifyLine(buffer, offset..<end) == nil else {
                  throw reader.error(
                    "the journal's first line does not match its checksum (changed outside "
                      + "weigh, or damaged)", at: offset)
                }
                guard let base = header.base else {
                  throw reader.error("the journal header lacks \"base\"", at: offset)
                }
                contents.base = base
                previous = base
              }
              contents.version = header.version
            } else {
              let transaction = try readTransaction(&reader, table: table)
              if contents.base != nil {
                // Numbered without gaps from the header's base.
                guard transaction.sequence == previous + 1 else {
                  throw reader.error(
                    transaction.sequence <= previous
                      ? "sequence \(transaction.sequence) is not greater than the \(previous) "
                        + "before it: records were copied or reordered"
                      : "sequence \(transaction.sequence) follows \(previous): "
                        + English.noun(
                          transaction.sequence - previous - 1, "a record is", "records are")
                        + " "
                        + "missing (removed from the journal)", at: offset)
                }
              } else {
                guard transaction.sequence > previous else {
                  throw reader.error(
                    "sequence \(transaction.sequence) is not greater than the \(previous) before it",
                    at: offset)
                }
              }
              previous = transaction.sequence
              var found = transaction
              found.line = line
              found.end = end + 1
              contents.transactions.append(found)
            }
            try reader.expectEnd()
          } catch {
            if error.newerVersion != nil {
              newer = error
              return contents
            }
            contents.problem = Problem(
              offset: offset, line: error.line, column: error.column, message: error.message,
              unterminated: false)
            if !contents.transactions.isEmpty, contents.transactions.last!.end == end + 1 {
              contents.transactions.removeLast()
            }
            break
          }
        }
        offset = min(end + 1, buffer.count)
        contents.completeLength = offset
        line += 1
        contents.completeLines = line - 1
      }
      return contents
    }
    if let newer { throw StoreError(file: path, syntax: newer, supported: formatVersion) }
    return contents
  }

  /// What a header line says.
  private struct Header {
    var version = 0
    var base: Int?
  }

  /// Reads the header line.
  private static func readHeader(_ reader: inout JSONReader) throws(JSONSyntaxError) -> Header {
    try reader.beginObject()
    var sawFormat = false
    var header = Header()
    while let key = try reader.nextKey() {
      if key.equals("format") {
        let name = try reader.readRawString()
        guard name.equals("weigh-journal") else {
          throw reader.error("expected format \"\(formatName)\"", at: name.offset)
        }
        sawFormat = true
      } else if key.equals("version") {
        header.version = try reader.readFormatVersion(supported: formatVersion)
      } else if key.equals("base") {
        let position = reader.offset
        header.base = try reader.readInt()
        guard header.base! >= 0 else {
          throw reader.error("base must not be negative", at: position)
        }
      } else {
        try reader.skipValue()
      }
    }
    guard sawFormat, header.version > 0 else {
      throw reader.error("the journal header lacks \"format\" or \"version\"")
    }
    return header
  }

  static func readTransaction(
    _ reader: inout JSONReader, table: (String) -> (any AnyTableStorage)?
  ) throws(JSONSyntaxError) -> Transaction {
    try reader.beginObject()
    guard let first = try reader.nextKey(), first.equals("seq") else {
      throw reader.error("a transaction must start with \"seq\"")
    }
    let position = reader.offset
    let sequence = try reader.readInt()
    guard sequence > 0 else { throw reader.error("sequence must be positive", at: position) }
    var changes: [StoreChange] = []
    var removals = RemovalStretch()
    while let key = try reader.nextKey() {
      guard key.equals("changes") else {
        try reader.skipValue()
        continue
      }
      try reader.beginArray()
      while try reader.nextElement() {
        let change = try readChange(&reader, table: table)
        if case .remove(let name, let id) = change {
          removals.take(name, id, into: &changes)
          continue
        }
        removals.end(into: &changes)
        changes.append(change)
      }
    }
    removals.end(into: &changes)
    return Transaction(sequence: sequence, changes: changes)
  }

  /// Removals from one table that follow each other in a record, read: a long stretch of
  /// them (the undo of a large import: a million, 33 MB of record) is kept as one
  /// `removeRun`, which every reader of a record applies as the removals it stands for,
  /// instead of a change per id (48 bytes each). A short one stays removals of their own.
  struct RemovalStretch {
    /// The length from which a stretch is kept as a run.
    static let runFrom = 1024
    var table = ""
    var ids: [Int] = []
    var runs = IDRuns()

    /// Takes the removal of `id` from `name`: on the stretch, or as the start of one when
    /// it is from another table (the stretch before is handed on then).
    mutating func take(_ name: String, _ id: Int, into changes: inout [StoreChange]) {
      if name != table { end(into: &changes) }
      table = name
      guard runs.runs.isEmpty else { return runs.append(id) }
      ids.append(id)
      guard ids.count == Self.runFrom else { return }
      for id in ids { runs.append(id) }
      ids = []
    }

    /// Hands the stretch on to `changes`, and starts anew.
    mutating func end(into changes: inout [StoreChange]) {
      if !runs.runs.isEmpty {
        changes.append(.removeRun(table: table, ids: runs))
      } else {
        for id in ids { changes.append(.remove(table: table, id: id)) }
      }
      ids = []
      runs = IDRuns()
    }
  }

  private static func readChange(
    _ reader: inout JSONReader, table: (String) -> (any AnyTableStorage)?
  ) throws(JSONSyntaxError) -> StoreChange {
    try reader.beginObject()
    guard let operation = try reader.nextKey() else {
      throw reader.error("a change must start with \"put\", \"remove\", \"set\" or \"unset\"")
    }
    let nameOffset = reader.offset
    let name = try reader.readString()
    func operand(_ expected: StaticString) throws(JSONSyntaxError) {
      guard let key = try reader.nextKey(), key.equals(expected) else {
        throw reader.error("expected \"\(expected)\" after \"\(name)\"")
      }
    }
    func storage() throws(JSONSyntaxError) -> any AnyTableStorage {
      guard let storage = table(name) else {
        throw reader.error("unknown table \"\(name)\"; this weigh cannot read it", at: nameOffset)
      }
      return storage
    }
    let change: StoreChange
    if operation.equals("put") {
      let storage = try storage()
      try operand("row")
      change = .put(try storage.decodeRow(from: &reader))
    } else if operation.equals("remove") {
      _ = try storage()
      try operand("id")
      change = .remove(table: name, id: try reader.readInt())
    } else if operation.equals("set") {
      try operand("value")
      change = .setDocument(name: name, value: try StoreDocuments.read(named: name, from: &reader))
    } else if operation.equals("unset") {
      change = .removeDocument(name: name)
    } else {
      throw reader.error(
        "unknown change; expected \"put\", \"remove\", \"set\" or \"unset\"", at: operation.offset)
    }
    guard try reader.nextKey() == nil else { throw reader.error("expected '}' after the change") }
    return change
  }

  /// The journal line of a transaction, whole, in `writer` (the migration's record, which
  /// health.sqlite holds before the journal does).
  static func encode(
    sequence: Int, changes: [StoreChange], rows: EncodedRows, into writer: inout JSONWriter
  ) throws(StoreError) {
    try encode(
      sequence: sequence, changes: changes, rows: rows, into: &writer, pieceBytes: .max
    ) { _ throws(StoreError) in }
  }

  /// Writes the journal line of a transaction to `write`, built in `writer` (emptied first,
  /// its capacity kept). Each put copies the next row of `rows`, in order: the bytes that
  /// were read back when the change was committed (`StoreChange.problem(in:rows:)`), so a
  /// row is encoded once. Whenever `writer` holds `pieceBytes` or more, they go to `write`
  /// and the line goes on in the emptied buffer: a large record is never held whole. The
  /// checksum is computed over the pieces as they pass, so the bytes are those of one piece;
  /// a record under `pieceBytes` is one call of `write`.
  ///
  /// With `resuming`, the record's first `resuming.changes` changes are already encoded
  /// (`RecordStream`): `writer` holds what of them was not written yet, and the line goes
  /// on from there, its rows in `rows` being those of the changes after them.
  ///
  /// - Throws: `invalidChange` for a document holding a number that is not finite (some
  ///   pieces may have been written then: the caller cuts them off), or what `write` throws.
  static func encode(
    sequence: Int, changes: [StoreChange], rows: EncodedRows, into writer: inout JSONWriter,
    pieceBytes: Int, resuming: RecordStream? = nil, write: ([UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    var stream: RecordStream
    if let resuming {
      stream = resuming
    } else {
      stream = RecordStream()
      stream.begin(sequence: sequence, into: &writer)
    }
    var row = 0
    for change in changes[stream.changes...] {
      stream.changes += 1
      switch change {
      case .remove(let table, let id):
        try stream.writeRemoves(table, CollectionOfOne(id), into: &writer, pieceBytes, write)
        continue
      case .removeRun(let table, let ids):
        // One remove per id, as separate removes are written, a piece at a time.
        try stream.writeRemoves(table, ids, into: &writer, pieceBytes, write)
        continue
      default: break
      }
      if case .putRun(let run) = change {
        // One put per row, as separate puts are written.
        for _ in 0..<run.count {
          try stream.flush(&writer, ifOver: pieceBytes, write: write)
          stream.separate(&writer)
          writer.raw("{\"put\":")
          writer.write(run.table)
          writer.raw(",\"row\":")
          rows.append(row, to: &writer)
          row += 1
          writer.raw(byte: 0x7D)
        }
        continue
      }
      try stream.flush(&writer, ifOver: pieceBytes, write: write)
      stream.separate(&writer)
      switch change {
      case .putRun, .remove, .removeRun:
        preconditionFailure("written above")
      case .put(let put):
        writer.raw("{\"put\":")
        writer.write(put.table)
        writer.raw(",\"row\":")
        rows.append(row, to: &writer)
        row += 1
      case .setDocument(let name, let value):
        writer.raw("{\"set\":")
        writer.write(name)
        writer.raw(",\"value\":")
        writer.write(value)
      case .removeDocument(let name):
        writer.raw("{\"unset\":")
        writer.write(name)
      }
      writer.raw(byte: 0x7D)
    }
    writer.raw(byte: 0x5D)
    try stream.checksum(writer)
    writer.raw(byte: 0x2C)
    StoreChecksum.writeMember(stream.crc.value, into: &writer)
    writer.raw("}\n")
    try write(writer.bytes)
  }
}

/// A journal record being encoded: how many of its changes are in, and the checksum of the
/// bytes already handed on. A large transaction's record is streamed to the journal while
/// its commit encodes and checks its rows (`encodeRows`), so its rows are never held as
/// bytes in memory; `StoreJournal.encode(…resuming:…)` finishes it.
struct RecordStream {
  /// The changes already encoded (a run of puts counts once).
  var changes = 0
  /// The elements of the record's `changes` array already encoded (a run's rows each).
  var elements = 0
  /// The checksum of the bytes handed on so far and of the writer's first `checked`.
  var crc = ZipCRC32()
  /// The bytes handed on so far.
  var written = 0
  /// How many of the bytes the writer holds are in `crc` already (rows whose checksum was
  /// taken from the row's own, `absorbRow`).
  var checked = 0

  /// Starts the line of transaction `sequence` in the emptied `writer`.
  mutating func begin(sequence: Int, into writer: inout JSONWriter) {
    writer.truncate(to: 0)
    checked = 0
    writer.raw("{\"seq\":")
    writer.write(sequence)
    writer.raw(",\"changes\":[")
  }

  /// The comma before every element of the record's changes but the first.
  mutating func separate(_ writer: inout JSONWriter) {
    if elements > 0 { writer.raw(byte: 0x2C) }
    elements += 1
  }

  /// `{"remove":"<table>","id":N}` for each of `ids`, as elements of the record's changes,
  /// handing `writer`'s bytes on whenever they pass `pieceBytes`.
  mutating func writeRemoves(
    _ table: String, _ ids: some Sequence<Int>, into writer: inout JSONWriter,
    _ pieceBytes: Int, _ write: ([UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    for id in ids {
      try flush(&writer, ifOver: pieceBytes, write: write)
      separate(&writer)
      writer.raw("{\"remove\":")
      writer.write(table)
      writer.raw(",\"id\":")
      writer.write(id)
      writer.raw(byte: 0x7D)
    }
  }

  /// Adds the bytes in `writer` to the checksum, once they are known to be valid.
  mutating func checksum(_ writer: JSONWriter) throws(StoreError) {
    if writer.wroteNonFiniteNumber {
      throw StoreError(
        .invalidChange, message: "cannot store a number that is not finite (NaN or infinity)")
    }
    writer.bytes.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[checked...])) }
    checked = writer.bytes.count
  }

  /// Adds to the checksum the bytes the writer holds up to `end`, the last `end - start` of
  /// them being a row whose own checksum is `rowCRC`: the bytes before the row are run
  /// through the CRC, the row's checksum is combined in (`CRC32Combination`) instead of
  /// running over its bytes again. The same value as the direct checksum; at 100,000
  /// Fitbit rows it saved (wjson9, callgrind) what the record's second pass cost.
  mutating func absorbRow(_ rowCRC: UInt32, start: Int, end: Int, in writer: JSONWriter) {
    writer.bytes.withUnsafeBytes {
      crc.update(UnsafeRawBufferPointer(rebasing: $0[checked..<start]))
    }
    crc = ZipCRC32(
      continuing: CRC32Combination.combine(crc.value, rowCRC, secondLength: end - start))
    checked = end
  }

  /// Hands what `writer` holds to `write` and empties it, when it holds `pieceBytes` or more;
  /// returns whether it did.
  @discardableResult
  mutating func flush(
    _ writer: inout JSONWriter, ifOver pieceBytes: Int,
    write: ([UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) -> Bool {
    guard writer.bytes.count >= pieceBytes else { return false }
    try checksum(writer)
    try write(writer.bytes)
    written += writer.bytes.count
    writer.truncate(to: 0)
    checked = 0
    return true
  }

  /// Encodes `changes` (puts and removals only) after those already in, each put's row
  /// encoded into the record and checked from those bytes (`StoreRow.loadProblem`: read
  /// back through its codec once per row shape in the transaction, `shapes`), as
  /// `StoreChange.problem(in:rows:shapes:)` does: a row that loading would refuse throws,
  /// with the same message. `row` is told where each put's row lies, counted from the
  /// record's first byte, and given its bytes.
  mutating func encodeRows(
    _ changes: ArraySlice<StoreChange>, into writer: inout JSONWriter, pieceBytes: Int,
    shapes: inout ReadBackShapes,
    row: (_ start: Int, _ end: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32?,
    write: ([UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    for change in changes {
      self.changes += 1
      switch change {
      case .put(let put):
        try encodePut(
          put, into: &writer, pieceBytes: pieceBytes, shapes: &shapes, row: row, write: write)
      case .putRun(let run):
        try encodeRun(
          run, into: &writer, pieceBytes: pieceBytes, shapes: &shapes, row: row, write: write)
      case .remove(let table, let id):
        try writeRemoves(table, CollectionOfOne(id), into: &writer, pieceBytes, write)
      case .removeRun(let table, let ids):
        try writeRemoves(table, ids, into: &writer, pieceBytes, write)
      case .setDocument, .removeDocument:
        preconditionFailure("a streamed record starts with row changes only")
      }
    }
  }

  /// Encodes the puts of `run`'s rows (`encodeRows`), the bytes `encodePut` writes for each,
  /// without making a `StoreRow` per row: the text before each row (`{"put":"entries",
  /// "row":`) is made once, and a row whose shape was read back in the transaction is
  /// checked by its shape alone (`StoreRow.loadProblem`, which the others go through).
  private mutating func encodeRun(
    _ run: StoreRowRun, into writer: inout JSONWriter, pieceBytes: Int,
    shapes: inout ReadBackShapes,
    row: (_ start: Int, _ end: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32?,
    write: ([UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    var head = JSONWriter()
    head.raw("{\"put\":")
    head.write(run.table)
    head.raw(",\"row\":")
    let content = run.content
    // Between two rows whose checksums are taken in, the record holds the same bytes (the
    // first row's `}`, the comma, the head), so the rows after the first go through the
    // absorber's tables (`CRC32RowAbsorber`); the first, and a row after a piece was written
    // (the bytes the CRC has not seen are then fewer), through `absorbRow`.
    var absorber: CRC32RowAbsorber?
    var gapIsKnown = false
    for index in 0..<run.count {
      if try flush(&writer, ifOver: pieceBytes, write: write) { gapIsKnown = false }
      separate(&writer)
      head.bytes.withUnsafeBufferPointer { writer.bytes.appendMemory(of: $0) }
      let start = writer.bytes.count
      let shape = content.encodeRow(at: index, into: &writer)
      let end = writer.bytes.count
      if let shape, shapes.contains(shape) {
        // Written by the steps of a row read back already, its own values checked.
      } else {
        let put = run.row(at: index)
        if let problem = writer.bytes.withUnsafeBufferPointer({
          put.loadProblem(UnsafeBufferPointer(rebasing: $0[start..<end]), shapes: &shapes)
        }) {
          throw problem
        }
      }
      if writer.wroteNonFiniteNumber { throw run.row(at: index).nonFiniteProblem }
      let rowCRC = writer.bytes.withUnsafeBufferPointer {
        row(written + start, written + end, UnsafeBufferPointer(rebasing: $0[start..<end]))
      }
      if let rowCRC {
        if gapIsKnown {
          if absorber == nil { absorber = CRC32RowAbsorber(gap: [0x7D, 0x2C] + head.bytes) }
          crc = ZipCRC32(
            continuing: absorber!.absorb(crc.value, row: rowCRC, rowLength: end - start))
          checked = end
        } else {
          absorbRow(rowCRC, start: start, end: end, in: writer)
        }
      }
      gapIsKnown = rowCRC != nil
      writer.raw(byte: 0x7D)
    }
  }

  /// Encodes the put of `put` (`encodeRows`).
  private mutating func encodePut(
    _ put: StoreRow, into writer: inout JSONWriter, pieceBytes: Int,
    shapes: inout ReadBackShapes,
    row: (_ start: Int, _ end: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32?,
    write: ([UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    try flush(&writer, ifOver: pieceBytes, write: write)
    separate(&writer)
    writer.raw("{\"put\":")
    writer.write(put.table)
    writer.raw(",\"row\":")
    let start = writer.bytes.count
    put.encode(into: &writer)
    let end = writer.bytes.count
    if let problem = writer.bytes.withUnsafeBufferPointer({
      put.loadProblem(UnsafeBufferPointer(rebasing: $0[start..<end]), shapes: &shapes)
    }) {
      throw problem
    }
    if writer.wroteNonFiniteNumber { throw put.nonFiniteProblem }
    let rowCRC = writer.bytes.withUnsafeBufferPointer {
      row(written + start, written + end, UnsafeBufferPointer(rebasing: $0[start..<end]))
    }
    if let rowCRC { absorbRow(rowCRC, start: start, end: end, in: writer) }
    writer.raw(byte: 0x7D)
  }
}

/// The journal text of the rows a transaction puts, each encoded once when it is committed:
/// read back there (`StoreChange.problem(in:rows:)`) and copied as it is into the record.
/// One buffer, emptied with its capacity kept, serves every transaction of a store.
struct EncodedRows {
  private var writer = JSONWriter()
  /// Where each row ends in the buffer, in the order of the puts (row `i` starts where row
  /// `i - 1` ends, row 0 at 0).
  private(set) var ends: [Int] = []

  /// The number of rows.
  var count: Int { ends.count }

  /// The bytes of the rows.
  var byteCount: Int { ends.last ?? 0 }

  /// True when a row holds a number that is not finite (written as `null`).
  var wroteNonFiniteNumber: Bool { writer.wroteNonFiniteNumber }

  /// Encodes `row` after the others; returns where its bytes are.
  mutating func append(_ row: StoreRow) -> Range<Int> {
    let start = writer.bytes.count
    row.encode(into: &writer)
    ends.append(writer.bytes.count)
    return start..<writer.bytes.count
  }

  /// Runs `body` over the bytes in `range`.
  func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    writer.bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
  }

  /// Copies row number `index` to the end of `target`.
  func append(_ index: Int, to target: inout JSONWriter) {
    let start = index == 0 ? 0 : ends[index - 1]
    writer.bytes.withUnsafeBufferPointer { bytes in
      target.bytes.appendMemory(of: UnsafeBufferPointer(rebasing: bytes[start..<ends[index]]))
    }
  }

  /// Runs `body` over the bytes of every row.
  func withBuffer<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E)
    -> R
  {
    let result: Result<R, E> = writer.bytes.withUnsafeBufferPointer { buffer in
      do throws(E) { return .success(try body(buffer)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  /// Keeps the first `count` rows only (all rows but those of a refused change). Emptied
  /// after a large transaction (an import), the buffer is given back rather than kept.
  mutating func truncate(to count: Int) {
    if count == 0, writer.bytes.capacity > 4 << 20 {
      self = EncodedRows()
      return
    }
    writer.truncate(to: count == 0 ? 0 : ends[count - 1])
    ends.removeSubrange(count...)
  }
}
