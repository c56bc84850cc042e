import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of a table file, shared read-only by the two threads that decode its halves.
private struct SharedBuffer: @unchecked Sendable {
  let bytes: UnsafeBufferPointer<UInt8>
}

/// The rows one thread decoded; each instance is written by exactly one thread, and read
/// only after `concurrentPerform` has returned.
private final class HalfResult<Row>: @unchecked Sendable {
  var rows: [Row]?
  var tally = TableFileTally()
  /// Where the second half's last line starts.
  var trailer: Int?
}

private let checksummedRowPrefix: [UInt8] = Array("{\"crc\":\"00000000\",\"row\":".utf8)

/// What a repair could keep of a table file.
struct TableSalvage {
  var file: String
  var keptRows = 0
  var lostLines: [Int] = []
  /// The first line's problem, or why the whole file is lost.
  var problem: String?

  mutating func lost(line: Int, _ message: String) {
    if problem == nil { problem = "line \(line): \(message)" }
    lostLines.append(line)
  }
}

/// What the rows of a checksummed table file add up to: their number and the sum of their
/// checksums (which halves read on two threads can simply add).
struct TableFileTally {
  var count = 0
  var sum: UInt64 = 0

  mutating func add(_ crc: UInt32) {
    count += 1
    sum &+= UInt64(crc)  // checked: UInt32 widens
  }

  /// Writes the line of the row whose object is `bytes` (`{"crc":"…","row":{…}}`, after the
  /// comma that ends the line before, if any) in one step, and adds its checksum.
  ///
  /// - Returns: the row's checksum (the CRC-32 of `bytes`).
  @discardableResult
  mutating func writeRowLine(
    _ bytes: UnsafeBufferPointer<UInt8>, into writer: inout JSONWriter
  ) -> UInt32 {
    let crc = StoreChecksum.of(bytes)
    writeRowLine(bytes, crc: crc, into: &writer)
    return crc
  }

  /// Writes the line of the row whose object is `bytes` and whose checksum is `crc` (already
  /// verified against them: a row copied from a table file), as
  /// ``writeRowLine(_:into:)`` writes it, and adds the checksum.
  mutating func writeRowLine(
    _ bytes: UnsafeBufferPointer<UInt8>, crc: UInt32, into writer: inout JSONWriter
  ) {
    writeRowLine(bytes, crc: crc, first: count == 0, into: &writer)
  }

  /// Writes the line of the row whose object is `bytes` and whose checksum is `crc`, as the
  /// file's first line (`first`) or after another, and adds the checksum: for a file whose
  /// tally counts rows not written yet (`StreamedTableFile`, whose table rows are merged
  /// with the run's).
  mutating func writeRowLine(
    _ bytes: UnsafeBufferPointer<UInt8>, crc: UInt32, first: Bool, into writer: inout JSONWriter
  ) {
    writer.append(atMost: bytes.count + 40) { cursor in
      cursor.literal(first ? "\n{\"crc\":\"" : ",\n{\"crc\":\"")
      cursor.hex(crc)
      cursor.literal("\",\"row\":")
      cursor.bytes(bytes)
      cursor.byte(0x7D)
    }
    add(crc)
  }

  /// The last line of a table file: the rows' count and the sum of their checksums.
  func writeTrailer(into writer: inout JSONWriter) {
    writer.raw("\n],\"count\":")
    writer.write(count)
    writer.raw(",\"sum\":\"")
    writer.bytes.append(contentsOf: StoreChecksum.hex(UInt32(truncatingIfNeeded: sum >> 32)))
    writer.bytes.append(contentsOf: StoreChecksum.hex(UInt32(truncatingIfNeeded: sum)))
    writer.raw("\"}\n")
  }
}

/// Reads and writes one table's snapshot file:
///
///     {"format":"weigh-entries","version":1,"sequence":42,"crc":"5d1c9b70","rows":[
///     {"crc":"8a3f0c12","row":{"id":1,…}},
///     {"crc":"0b77e4a9","row":{"id":2,…}}
///     ],"count":2,"sum":"000000008ab6f0bb"}
///
/// The header comes first on its own line, so opening a store reads only the first bytes of
/// each table (its `sequence`) and leaves the rows for the first query that needs them.
/// Every line carries a CRC-32: the header's covers the bytes before its `"crc"`, a row's the
/// bytes of the row object, so a lazily read tail of the file is verified line by line; the
/// last line's `count` and `sum` (of the rows' checksums) find a row removed or replaced
/// when the whole file is read. Files of stores made before checksums (no `"crc"` in the
/// header, rows written bare, last line `]}`) are read as they are.
enum TableFile<Codec: StoreTableCodec> {
  /// What the first line of a table file says.
  struct Header {
    var version: Int
    var sequence: Int
    /// True for a file with checksums (rows wrapped with their CRC).
    var checksummed = false
  }

  typealias Tally = TableFileTally

  static var fileName: String { Codec.tableName + ".json" }

  /// Reads the header up to and including the `[` that opens the rows.
  static func readHeader(_ reader: inout JSONReader, path: String) throws(StoreError) -> Header {
    do throws(JSONSyntaxError) {
      try reader.beginObject()
      var version: Int?
      var sequence: Int?
      var sawFormat = false
      var checksummed = false
      while let key = try reader.nextKey() {
        if key.equals("format") {
          let name = try reader.readRawString()
          guard !name.hasEscapes, try reader.decode(name) == Codec.formatName else {
            throw reader.error(
              "expected format \"\(Codec.formatName)\", found \"\(try reader.decode(name))\"",
              at: name.offset)
          }
          sawFormat = true
        } else if key.equals("version") {
          version = try reader.readFormatVersion(supported: Codec.formatVersion)
        } else if key.equals("sequence") {
          sequence = try reader.readInt()
        } else if key.equals("crc") {
          let checksum = try reader.readChecksumMember(after: key)
          guard checksum.matches else {
            throw reader.error(
              "the table's first line does not match its checksum (changed outside weigh, or "
                + "damaged); restore the file from a backup or run weigh check --repair",
              at: 0)
          }
          checksummed = true
        } else if key.equals("rows") {
          guard sawFormat, let version, let sequence else {
            throw reader.error(
              "\"format\", \"version\" and \"sequence\" must come before \"rows\"", at: key.offset)
          }
          try reader.beginArray()
          return Header(version: version, sequence: sequence, checksummed: checksummed)
        } else {
          try reader.skipValue()
        }
      }
      throw reader.error("the table has no \"rows\"")
    } catch {
      throw StoreError(file: path, syntax: error, supported: Codec.formatVersion)
    }
  }

  /// Reads just the header from a file's first bytes; nil when the file does not exist.
  static func readHeader(path: String) throws(StoreError) -> Header? {
    guard let prefix = try StoreFileSystem.read(path, limit: 65_536) else { return nil }
    // Opening reads only the header, so check the end too: a truncated table is found at
    // open, before any change is accepted, at the cost of one small read.
    guard let tail = try StoreFileSystem.readTail(path, count: 96), hasEnding(tail) else {
      // Only a damaged table pays for finding where it stops, reading it a piece at a time
      // (read whole, a cut 634 MB table was held whole by `weigh check`, rep23).
      var line = 1
      var column = 1
      try StoreFileSystem.readPieces(path, 0..<(StoreFileSystem.size(path) ?? 0)) { piece in
        if let last = piece.lastIndex(of: UInt8(ascii: "\n")) {
          line += piece.count { $0 == UInt8(ascii: "\n") }
          column = piece.count - last
        } else {
          column += piece.count
        }
      }
      throw StoreError(
        .corrupt, file: path, line: line, column: column,
        message:
          "the table ends early (truncated?): its last line must be ]} or ],\"count\":…}; restore the file from a backup or run weigh check"
      )
    }
    do {
      return try JSONReader.withReader(over: prefix) { (reader) throws(StoreError) in
        try readHeader(&reader, path: path)
      }
    } catch  where prefix.count == 65_536 && error.kind == .corrupt {
      // A header longer than the prefix (unusual members): read on the whole file, mapped,
      // so that only the pages the header spans are read (a damaged header of a 634 MB
      // table read it whole, rep23).
      let header = try StoreFileSystem.withMappedFile(path, populate: false) {
        (bytes) throws(StoreError) in
        var reader = JSONReader(bytes: bytes)
        return try readHeader(&reader, path: path)
      }
      return header
    }
  }

  /// True when `tail` (the file's last bytes) is a table's last line: `]}` or
  /// `],"count":N,"sum":"…"}`.
  private static func hasEnding(_ tail: [UInt8]) -> Bool {
    guard tail.count >= 4, tail.suffix(2) == [0x7D, 0x0A] else { return false }
    guard let start = tail.dropLast().lastIndex(of: 0x0A), tail[start + 1] == 0x5D else {
      return false
    }
    let line = tail[(start + 2)..<(tail.count - 2)]
    return line.isEmpty || line.starts(with: Array(",\"count\":".utf8))
  }

  /// Reads a whole table file, checking that ids increase strictly.
  ///
  /// A file of 4 MB or more is decoded in two halves on two threads (0.62 s against 0.67 s
  /// for a million entries on the busy shared machine, more when the second core is free);
  /// any doubt about the halves (a split that did not fall between two rows, an error)
  /// falls back to one sequential pass, which reports the error's exact position.
  ///
  /// - Complexity: O(n) in the file's size.
  static func read(path: String) throws(StoreError) -> (Header, [Codec.Row])? {
    // A file read in halves is not read into memory whole first: each half's thread gives
    // back the pages it has passed (`TableFilePassedPages`).
    try StoreFileSystem.withMappedFile(path, populatingUpTo: halvesThreshold - 1) {
      (bytes) throws(StoreError) in
      var reader = JSONReader(bytes: bytes)
      let header = try readHeader(&reader, path: path)
      if bytes.count >= halvesThreshold,
        let rows = readInHalves(reader, checksummed: header.checksummed)
      {
        return (header, rows)
      }
      do throws(JSONSyntaxError) {
        var previousID = 0
        var tally = Tally()
        let rows = try readRows(
          &reader, until: nil, previousID: &previousID, checksummed: header.checksummed,
          tally: &tally)
        try readTrailer(&reader, checksummed: header.checksummed, tally: tally)
        return (header, rows)
      } catch {
        throw StoreError(file: path, syntax: error)
      }
    }
  }

  /// Reads a whole table file as ``read(path:)`` does, with the same checks and errors, but
  /// gives each row to `body` as it is decoded and holds none: for a reader that keeps a
  /// few of each row's fields (a re-import's look-up, `ImportLog`). One pass on the calling
  /// thread, giving back the pages it has passed (`TableFilePassedPages`); false when the
  /// file does not exist. `sizing` is told the file's size in bytes first.
  ///
  /// - Complexity: O(n) in the file's size.
  static func forEachRow(
    path: String, sizing: (Int) -> Void, _ body: (borrowing Codec.Row) -> Void
  ) throws(StoreError) -> Bool {
    let found: Bool? = try StoreFileSystem.withMappedFile(path, populatingUpTo: 0) {
      (bytes) throws(StoreError) in
      sizing(bytes.count)
      var reader = JSONReader(bytes: bytes)
      let header = try readHeader(&reader, path: path)
      // The reader is moved onto the bytes from a row that starts a line, every MiB or so:
      // an error counts lines from the start of its reader's bytes, and counting them from
      // the file's start touched every page passed again (a row damaged in the middle of a
      // 4,000,000-entry table: half of its 634 MB back in memory, rep23). The lines before
      // are counted at the error only, read a piece at a time.
      var base = 0
      do throws(JSONSyntaxError) {
        var previousID = 0
        var tally = Tally()
        var pages = TableFilePassedPages(bytes, from: reader.offset)
        while try reader.nextElement() {
          reader.skipWhitespace()
          if reader.offset >= 1 << 20, reader.bytes[reader.offset - 1] == 0x0A {
            base += reader.offset
            reader = JSONReader(bytes: UnsafeBufferPointer(rebasing: bytes[base...]))
          }
          let row = try readRow(
            &reader, checksummed: header.checksummed, tally: &tally, previousID: &previousID)
          body(row)
          pages.passed(base + reader.offset)
        }
        try readTrailer(&reader, checksummed: header.checksummed, tally: tally)
        return true
      } catch {
        var error = error
        if base > 0 { error.line += try StoreFileSystem.newlines(in: path, before: base) }
        throw StoreError(file: path, syntax: error)
      }
    }
    return found ?? false
  }

  /// A table file's rows read one at a time, as asked for, with ``forEachRow(path:sizing:_:)``'s
  /// checks and errors (the last line's count and sum checked once the rows end): for a
  /// reader that walks the table beside another file (a re-import's `LogWalk`). The file
  /// stays mapped while the cursor lives; the pages it has passed are given back
  /// (`TableFilePassedPages`).
  final class Cursor {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let path: String
    private var reader: JSONReader
    private let checksummed: Bool
    private var tally = Tally()
    private var previousID = 0
    private var pages: TableFilePassedPages
    private var ended = false

    /// A cursor before the first row of the table file at `path`; nil when the file does
    /// not exist.
    ///
    /// - Throws: `corrupt` when its first line cannot be read, as ``read(path:)`` would.
    init?(path: String) throws(StoreError) {
      guard let bytes = try StoreFileSystem.mapFile(path) else { return nil }
      var reader = JSONReader(bytes: bytes)
      let header: Header
      do {
        header = try readHeader(&reader, path: path)
      } catch {
        StoreFileSystem.unmap(bytes)
        throw error
      }
      self.bytes = bytes
      self.path = path
      self.reader = reader
      checksummed = header.checksummed
      pages = TableFilePassedPages(bytes, from: reader.offset)
    }

    deinit { StoreFileSystem.unmap(bytes) }

    /// The next row, nil after the last.
    ///
    /// - Throws: `corrupt` where the file cannot be read, as ``read(path:)`` would; nil
    ///   after that.
    func next() throws(StoreError) -> Codec.Row? {
      guard !ended else { return nil }
      // In locals for the row's read, put back after it: a class's stored properties passed
      // inout are checked for exclusivity at each access (about 330 instructions a row in
      // swift_beginAccess and its access set, callgrind, 100,000 rows, rown20).
      var (reader, tally, previousID, pages) = (reader, tally, previousID, pages)
      defer {
        (self.reader, self.tally, self.previousID, self.pages) = (reader, tally, previousID, pages)
      }
      do throws(JSONSyntaxError) {
        guard try reader.nextElement() else {
          ended = true
          try readTrailer(&reader, checksummed: checksummed, tally: tally)
          return nil
        }
        reader.skipWhitespace()
        let row = try readRow(
          &reader, checksummed: checksummed, tally: &tally, previousID: &previousID)
        pages.passed(reader.offset)
        return row
      } catch {
        ended = true
        throw StoreError(file: path, syntax: error)
      }
    }
  }

  /// The size from which a table file is read in two halves by two threads.
  private static var halvesThreshold: Int { 4 << 20 }

  /// Reads rows up to the closing `]`, or up to the first row that starts at or after `limit`.
  private static func readRows(
    _ reader: inout JSONReader, until limit: Int?, previousID: inout Int, checksummed: Bool,
    tally: inout Tally, reservingFor reserved: Int? = nil, releasingPassedPages: Bool = false
  ) throws(JSONSyntaxError) -> [Codec.Row] {
    var rows: [Codec.Row] = []
    var pages =
      releasingPassedPages ? TableFilePassedPages(reader.bytes, from: reader.offset) : nil
    // Rows are about 110 bytes; reserving avoids repeated copies of a large array.
    rows.reserveCapacity((reserved ?? (limit ?? reader.bytes.count) - reader.offset) / 96)
    while try reader.nextElement() {
      reader.skipWhitespace()
      if let limit, reader.offset >= limit { break }
      rows.append(
        try readRow(&reader, checksummed: checksummed, tally: &tally, previousID: &previousID))
      pages?.passed(reader.offset)
    }
    return rows
  }

  /// Reads the row at the reader's offset (after its whitespace), checked against its
  /// checksum (added to `tally`) when the file has them, and its id against `previousID`
  /// (then set to it).
  @inline(__always)
  private static func readRow(
    _ reader: inout JSONReader, checksummed: Bool, tally: inout Tally, previousID: inout Int
  ) throws(JSONSyntaxError) -> Codec.Row {
    let start = reader.offset
    let row: Codec.Row
    if checksummed {
      let (crc, end) = try verifyRow(reader.bytes, at: start, reader: reader)
      reader.offset = start + rowPrefix.count
      row = try Codec.decode(from: &reader)
      guard reader.offset == end else {
        throw reader.error("expected the end of the row ('}'), as weigh writes it")
      }
      reader.offset = end + 1
      tally.add(crc)
    } else {
      row = try Codec.decode(from: &reader)
    }
    let id = Codec.id(of: row)
    guard id > previousID else {
      throw reader.error(
        "row id \(id) is not greater than the id \(previousID) before it", at: start)
    }
    previousID = id
    return row
  }

  /// `{"crc":"` + eight hex digits + `","row":`, before each row of a checksummed file.
  static var rowPrefix: [UInt8] { checksummedRowPrefix }

  /// Checks the checksum of the row line at `start` (`{"crc":"…","row":{…}},`) before the row
  /// is decoded; returns the checksum and the offset of the row's closing `}`.
  static func verifyRow(
    _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, reader: JSONReader
  ) throws(JSONSyntaxError) -> (crc: UInt32, end: Int) {
    let prefix = rowPrefix
    guard start + prefix.count < bytes.count,
      (0..<8).allSatisfy({ bytes[start + $0] == prefix[$0] }),
      (16..<24).allSatisfy({ bytes[start + $0] == prefix[$0] })
    else {
      throw reader.error(
        "expected a row as weigh writes it, {\"crc\":\"…\",\"row\":{…}}; "
          + "restore the file from a backup or run weigh check --repair", at: start)
    }
    guard let stored = StoreChecksum.parseHex(bytes, at: start + 8) else {
      throw reader.error("the row's checksum must be eight hex digits", at: start + 8)
    }
    // The row is one line: its end is the next newline (memchr is several times faster
    // than a byte loop on a million rows).
    var lineEnd = bytes.count
    if let found = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) {
      lineEnd = start + (UnsafeRawPointer(found) - UnsafeRawPointer(bytes.baseAddress! + start))
    }
    var end = lineEnd - 1
    if end > start, bytes[end] == 0x2C { end -= 1 }
    guard end > start + prefix.count, bytes[end] == 0x7D else {
      throw reader.error("expected the row's line to end with }", at: max(start, end))
    }
    // The row object ends just before the wrapper's closing brace.
    let rowEnd = end - 1
    let actual = StoreChecksum.of(
      UnsafeBufferPointer(rebasing: bytes[(start + prefix.count)..<(rowEnd + 1)]))
    guard actual == stored else {
      throw reader.error(
        "the row does not match its checksum (changed outside weigh, or damaged); nothing was "
          + "changed, restore the file from a backup or run weigh check --repair", at: start)
    }
    return (stored, rowEnd + 1)
  }

  /// The last line's members after the rows' `]`: `count`, its offset, `sum` (nil when it is
  /// not 16 hex digits) and its offset; then the end of the file.
  private static func readTallyMembers(_ reader: inout JSONReader) throws(JSONSyntaxError) -> (
    count: Int, countOffset: Int, sum: UInt64?, sumOffset: Int
  ) {
    let position = reader.offset
    guard let countKey = try reader.nextKey(), countKey.equals("count") else {
      throw reader.error("expected \"count\" after the rows", at: position)
    }
    let countOffset = reader.offset
    let count = try reader.readInt()
    guard let sumKey = try reader.nextKey(), sumKey.equals("sum") else {
      throw reader.error("expected \"sum\" after \"count\"")
    }
    let sumText = try reader.readRawString()
    guard try reader.nextKey() == nil else {
      throw reader.error("\"sum\" must be the last member of a table file")
    }
    try reader.expectEnd()
    var sum: UInt64?
    if sumText.raw.count == 16, let high = StoreChecksum.parseHex(sumText.raw, at: 0),
      let low = StoreChecksum.parseHex(sumText.raw, at: 8)
    {
      sum = UInt64(high) << 32 | UInt64(low)  // checked: UInt32 widens
    }
    return (count, countOffset, sum, sumText.offset)
  }

  private static func readTrailer(
    _ reader: inout JSONReader, checksummed: Bool, tally: Tally?
  ) throws(JSONSyntaxError) {
    guard checksummed else {
      guard try reader.nextKey() == nil else {
        throw reader.error("\"rows\" must be the last member of a table file")
      }
      try reader.expectEnd()
      return
    }
    let (count, countOffset, sum, sumOffset) = try readTallyMembers(&reader)
    guard let tally else { return }
    guard count == tally.count else {
      throw reader.error(
        "the table holds \(English.counted(tally.count, "row")) but its last line says \(count): rows were removed "
          + "or added outside weigh; restore the file from a backup or run "
          + "weigh check --repair", at: countOffset)
    }
    guard sum == tally.sum else {
      throw reader.error(
        "the rows' checksums do not add up to the table's \"sum\": a row was replaced or the "
          + "last line changed outside weigh; restore the file from a "
          + "backup or run weigh check --repair", at: sumOffset)
    }
  }

  private static func readInHalves(_ reader: JSONReader, checksummed: Bool) -> [Codec.Row]? {
    let bytes = reader.bytes
    var split = reader.offset + (bytes.count - reader.offset) / 2
    while split + 1 < bytes.count && !(bytes[split] == 0x0A && bytes[split + 1] == 0x7B) {
      split += 1
    }
    guard split + 1 < bytes.count else { return nil }
    split += 1
    let shared = SharedBuffer(bytes: bytes)
    let halves = [HalfResult<Codec.Row>(), HalfResult<Codec.Row>()]
    let starts = [reader.offset, split]
    DispatchQueue.concurrentPerform(iterations: 2) { half in
      var reader = JSONReader(bytes: shared.bytes, offset: starts[half])
      reader.resumeArray()
      var previousID = 0
      var tally = Tally()
      if half == 0 {
        // Room for both halves, so that appending the second one does not reallocate.
        guard
          let rows = try? readRows(
            &reader, until: starts[1], previousID: &previousID, checksummed: checksummed,
            tally: &tally, reservingFor: shared.bytes.count - starts[0],
            releasingPassedPages: true),
          reader.offset == starts[1]
        else { return }
        halves[0].rows = rows
        halves[0].tally = tally
      } else {
        guard
          let rows = try? readRows(
            &reader, until: nil, previousID: &previousID, checksummed: checksummed,
            tally: &tally, releasingPassedPages: true)
        else { return }
        halves[1].rows = rows
        halves[1].tally = tally
        halves[1].trailer = reader.offset
      }
    }
    // Taken out of the results, so that the first half's array is appended to in place,
    // not copied because its result still holds it.
    guard var rows = halves[0].rows.take(), let second = halves[1].rows.take(),
      let last = rows.last, let next = second.first, Codec.id(of: next) > Codec.id(of: last),
      let trailer = halves[1].trailer
    else { return nil }
    // The last line is checked against both halves' rows together.
    var whole = halves[0].tally
    whole.count += halves[1].tally.count
    whole.sum &+= halves[1].tally.sum
    var end = JSONReader(bytes: bytes, offset: trailer)
    guard (try? readTrailer(&end, checksummed: checksummed, tally: whole)) != nil else {
      return nil
    }
    rows.append(contentsOf: second)
    return rows
  }

  /// The rows whose id is greater than `id`, found by a binary search over the file's lines
  /// (one row per line, as the store writes them) and read from there to the end, so that a
  /// query for recent rows of a large table reads only those; nil when the file does not
  /// exist or does not have that layout (the caller then reads it whole).
  ///
  /// - Complexity: O(log n) row decodes plus O(k) for the k rows returned.
  static func read(path: String, after id: Int) throws(StoreError) -> [Codec.Row]?? {
    try StoreFileSystem.withMappedFile(path, populate: false) {
      (bytes) throws(StoreError) -> [Codec.Row]? in
      var reader = JSONReader(bytes: bytes)
      let header = try readHeader(&reader, path: path)
      guard
        let first = tailStart(
          bytes, rowsStart: reader.offset, after: id, checksummed: header.checksummed)
      else { return nil }
      guard first < bytes.count else { return [] }
      var rows: [Codec.Row] = []
      do throws(JSONSyntaxError) {
        var tail = JSONReader(bytes: bytes, offset: first)
        tail.resumeArray()
        var previousID = 0
        var tally = Tally()
        for row in try readRows(
          &tail, until: nil, previousID: &previousID, checksummed: header.checksummed,
          tally: &tally)
        where Codec.id(of: row) > id {
          rows.append(row)
        }
        // Only the rows read are verified: the count and sum need the whole file.
        try readTrailer(&tail, checksummed: header.checksummed, tally: nil)
      } catch {
        return nil
      }
      return rows
    }
  }

  /// Gives `body` each row whose id is greater than `id` and whose line holds `needle`, in
  /// increasing id order: the rows after `id` found as ``read(path:after:)`` finds them, and
  /// among them the lines that hold `needle` by a search for its byte at `anchor` (`memchr`)
  /// and a comparison around it; a row whose line does not hold it is not decoded. Each row
  /// given is checked against its checksum and the one before it, as ``read(path:)`` checks
  /// it; the file's last line is not (its count and sum need every row). False when the file
  /// does not exist; nil when it does not have the store's layout, or a row given cannot be
  /// read (the caller drops what `body` was given and reads the file whole, which reports
  /// the problem).
  ///
  /// - Complexity: O(log n) row decodes, a byte search over the rows after `id`, and a
  ///   decode of each row given.
  static func forEachRow(
    path: String, after id: Int, whoseLineHolds needle: StaticString, anchor: Int,
    _ body: (borrowing Codec.Row) -> Void
  ) throws(StoreError) -> Bool? {
    let answer: Bool?? = try StoreFileSystem.withMappedFile(path, populatingUpTo: 0) {
      (bytes) throws(StoreError) -> Bool? in
      var reader = JSONReader(bytes: bytes)
      let header = try readHeader(&reader, path: path)
      guard
        let start = tailStart(
          bytes, rowsStart: reader.offset, after: id, checksummed: header.checksummed),
        let base = bytes.baseAddress
      else { return nil }
      let length = needle.utf8CodeUnitCount
      let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: length)
      precondition(anchor >= 0 && anchor < length, "the anchor is a byte of the needle")
      let anchorByte = Int32(pattern[anchor])  // checked: a byte widens to Int32
      var pages = TableFilePassedPages(bytes, from: start)
      var previousID = 0
      var tally = Tally()
      // Always at a line's start.
      var position = start
      var searched = start + anchor
      while searched < bytes.count {
        // A piece at a time, so that the pages searched are given back as it goes: the
        // search of the whole tail at once kept them all (183 MB peak, where the walk that
        // decoded every row peaked at 35 MB, undo of 1,000,000 rows).
        let end = min(bytes.count, searched + 1 << 20)
        guard let found = memchr(base + searched, anchorByte, end - searched) else {
          searched = end
          pages.passed(end)
          continue
        }
        let hit = UnsafeRawPointer(found) - UnsafeRawPointer(base)
        searched = hit + 1
        let from = hit - anchor
        guard from >= position, from + length <= bytes.count,
          (0..<length).allSatisfy({ bytes[from + $0] == pattern[$0] })
        else { continue }
        var lineStart = from
        while lineStart > position, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        // Only a row's line can hold it: not the last line's count and sum.
        guard bytes[lineStart] == 0x7B else { return nil }
        var row = JSONReader(bytes: bytes, offset: lineStart)
        do throws(JSONSyntaxError) {
          let decoded = try readRow(
            &row, checksummed: header.checksummed, tally: &tally, previousID: &previousID)
          if Codec.id(of: decoded) > id { body(decoded) }
        } catch {
          return nil
        }
        // On to the next line.
        guard let end = memchr(base + row.offset, 0x0A, bytes.count - row.offset) else { break }
        position = UnsafeRawPointer(end) - UnsafeRawPointer(base) + 1
        searched = position + anchor
        pages.passed(position)
      }
      return true
    }
    guard let answer else { return false }
    return answer
  }

  /// The offset of the first row line after which no row has an id of `id` or less (a row
  /// there may still have one: the caller checks), found by a binary search over the file's
  /// lines (one row per line, as the store writes them, from `rowsStart`); `bytes.count`
  /// when no row follows; nil when a row probed cannot be read (not that layout).
  private static func tailStart(
    _ bytes: UnsafeBufferPointer<UInt8>, rowsStart: Int, after id: Int, checksummed: Bool
  ) -> Int? {
    // A row starts a line and follows "[" or ",": that is how `encode` lays rows out.
    func rowStart(atOrAfter position: Int) -> Int? {
      var index = max(position, rowsStart)
      while index < bytes.count {
        if bytes[index] == 0x7B && index > 0 && bytes[index - 1] == 0x0A
          && (index < 2 || bytes[index - 2] == 0x2C || bytes[index - 2] == 0x5B)
        {
          return index
        }
        index += 1
      }
      return nil
    }
    let skip = checksummed ? rowPrefix.count : 0
    func rowID(at position: Int) -> Int? {
      var probe = JSONReader(bytes: bytes, offset: position + skip)
      return (try? Codec.decode(from: &probe)).map(Codec.id(of:))
    }
    var low = rowsStart
    var high = bytes.count
    while high - low > 16_384 {
      let middle = low + (high - low) / 2
      guard let start = rowStart(atOrAfter: middle), start < high else {
        high = middle
        continue
      }
      guard let found = rowID(at: start) else { return nil }
      if found <= id { low = start + 1 } else { high = start }
    }
    return rowStart(atOrAfter: low) ?? bytes.count
  }

  /// The intact rows of a damaged file, line by line: a row is kept when its checksum (in a
  /// file that has them) matches and it decodes with an id above the one before it. Holds
  /// the file and its rows whole: the repair's tests keep it as the oracle of
  /// `salvaging(fileAt:…)`, which the repair uses since rep23.
  static func salvage(path: String) -> (
    exists: Bool, sequence: Int?, rows: [Codec.Row], report: TableSalvage
  ) {
    var report = TableSalvage(file: path)
    guard let bytes = try? StoreFileSystem.read(path) else {
      report.problem = "cannot be read; its rows are lost"
      return (StoreFileSystem.exists(path), nil, [], report)
    }
    var rows: [Codec.Row] = []
    var sequence: Int?
    var checksummed = true
    bytes.withUnsafeBufferPointer { buffer in
      var lineStart = 0
      var line = 1
      var previousID = 0
      while lineStart < buffer.count {
        var end = lineStart
        while end < buffer.count && buffer[end] != 0x0A { end += 1 }
        defer {
          lineStart = end + 1
          line += 1
        }
        if line == 1 {
          var reader = JSONReader(bytes: UnsafeBufferPointer(rebasing: buffer[0..<end]))
          if let header = try? readHeader(&reader, path: path) {
            sequence = header.sequence
            checksummed = header.checksummed
          } else {
            report.lost(line: 1, "the first line (format and sequence) is damaged")
          }
          continue
        }
        guard end > lineStart, buffer[lineStart] != 0x5D else { continue }
        var stop = end
        if stop > lineStart, buffer[stop - 1] == 0x2C { stop -= 1 }
        let lineBytes = UnsafeBufferPointer(rebasing: buffer[lineStart..<stop])
        var reader = JSONReader(bytes: lineBytes)
        do throws(JSONSyntaxError) {
          let row: Codec.Row
          if checksummed {
            let (_, rowEnd) = try verifyRow(lineBytes, at: 0, reader: reader)
            reader.offset = rowPrefix.count
            row = try Codec.decode(from: &reader)
            guard reader.offset == rowEnd else { throw reader.error("extra text after the row") }
          } else {
            row = try Codec.decode(from: &reader)
          }
          guard Codec.id(of: row) > previousID else {
            throw reader.error("row id \(Codec.id(of: row)) is not greater than the one before it")
          }
          previousID = Codec.id(of: row)
          rows.append(row)
          report.keptRows += 1
        } catch {
          report.lost(line: line, error.message)
        }
      }
    }
    return (true, sequence, rows, report)
  }

  /// The file's bytes for `rows` (in increasing id order) as of `sequence`.
  ///
  /// - Complexity: O(n).
  static func encode(_ rows: [Codec.Row], sequence: Int) -> [UInt8] {
    var file: [UInt8] = []
    file.reserveCapacity(rows.count * 110 + 128)
    encode(rows, sequence: sequence, reusing: nil, chunkBytes: .max) { chunk in
      file.append(contentsOf: chunk)
    }
    return file
  }

  /// Writes the file for `rows` (in increasing id order) as of `sequence` in pieces of
  /// about `chunkBytes` to `write`, so that a large table is never held twice. A row that
  /// `reused` holds is copied from those bytes (the ones its commit encoded and read back)
  /// instead of being encoded again.
  ///
  /// - Complexity: O(n).
  static func encode<E: Error>(
    _ rows: [Codec.Row], sequence: Int, reusing reused: EncodedRowBytes?, chunkBytes: Int,
    write: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    var writer = JSONWriter()
    writer.bytes.reserveCapacity(min(rows.count, chunkBytes / 100 + 1) * 110 + 128)
    writeHeader(sequence: sequence, into: &writer)
    var tally = Tally()
    var next = 0  // the first of `reused`'s rows not yet passed
    var start = rows.startIndex
    while start < rows.endIndex {
      // About `chunkBytes` of rows at a time (a row is about 130 bytes).
      let end = min(rows.endIndex, start + max(1, chunkBytes / 130))
      appendRows(rows[start..<end], into: &writer, tally: &tally, reusing: reused, next: &next)
      start = end
      if writer.bytes.count >= chunkBytes {
        try write(writer.bytes)
        writer.bytes.removeAll(keepingCapacity: true)
      }
    }
    writeTrailer(tally, into: &writer)
    try write(writer.bytes)
  }

  /// The bytes `encode` writes for the rows of the file at `path` followed by `rows`, as of
  /// `sequence`, made without decoding or encoding the rows already in the file: the
  /// compaction of a table that only grew since its file was written (a weight log), which
  /// would otherwise rewrite every row for a few new ones.
  ///
  /// The file's first line and its last row are verified against their checksums; the rows
  /// between are copied with theirs, and the last line's count and sum carried on, so damage
  /// among them is still found when they are read (a row by its checksum, a row removed by
  /// the count). Nil when the file is missing, is not a checksummed table as weigh writes
  /// it, or its last row's id is not below `firstNewID`: the caller then rewrites the table
  /// from its rows.
  ///
  /// - Complexity: O(size of the file) in copying bytes, O(`rows`) in encoding.
  static func appending(
    _ rows: [Codec.Row], firstNewID: Int, toFileAt path: String, sequence: Int,
    reusing reused: EncodedRowBytes? = nil
  ) throws(StoreError) -> [UInt8]? {
    let appended = try StoreFileSystem.withMappedFile(path) { bytes -> [UInt8]? in
      guard let found = rowLines(in: bytes, path: path), found.lastID < firstNewID else {
        return nil
      }
      var writer = JSONWriter()
      writer.bytes.reserveCapacity(bytes.count + rows.count * 128 + 64)
      writeHeader(sequence: sequence, into: &writer)
      writer.bytes.appendMemory(of: UnsafeBufferPointer(rebasing: bytes[found.lines]))
      var tally = found.tally
      var next = 0
      appendRows(rows, into: &writer, tally: &tally, reusing: reused, next: &next)
      writeTrailer(tally, into: &writer)
      return writer.bytes
    }
    return appended ?? nil
  }

  /// The rows' lines of the file at `path` (the bytes between its first line and its last,
  /// as `encode` wrote them), mapped, to be handed on a piece at a time with the pages
  /// passed given back (`TableRowLines`): the start of a table file written as new rows
  /// stream among the old (an import into a log with entries, `StreamedTableFile.copyRows`),
  /// which `appending` would build whole in memory (with the new rows held aside: 968 MiB at
  /// the peak for 1,000,000 new Withings rows into a store of 1,000,000 entries, 47 MiB
  /// streamed after this copy, imp21). With the rows' tally (count and sum, from the last
  /// line) and the last row's id; nil when the file is missing or not a checksummed table
  /// as weigh writes it. As `appending`, it verifies the first line and the last row against
  /// their checksums; the rows between are handed on as they are (damage among them is
  /// found when they are read: a row by its checksum, a row removed by the count).
  ///
  /// - Complexity: O(1) here; the lines are read as they are handed on.
  static func tableRowLines(ofFileAt path: String) throws(StoreError) -> TableRowLines? {
    guard let bytes = try StoreFileSystem.mapFile(path) else { return nil }
    guard let found = rowLines(in: bytes, path: path) else {
      StoreFileSystem.unmap(bytes)
      return nil
    }
    return TableRowLines(
      mapping: bytes, lines: found.lines, tally: found.tally, lastID: found.lastID)
  }

  /// Where the rows' lines of a checksummed table file lie in its `bytes` (from the end of
  /// its first line to the newline before its last), their tally as the last line gives it,
  /// and the last row's id (0 when there is none), the first line and the last row
  /// verified; nil when the file is not a checksummed table as weigh writes it.
  private static func rowLines(in bytes: UnsafeBufferPointer<UInt8>, path: String) -> (
    lines: Range<Int>, tally: Tally, lastID: Int
  )? {
    var reader = JSONReader(bytes: bytes)
    guard let header = try? readHeader(&reader, path: path), header.checksummed else {
      return nil
    }
    let rowsStart = reader.offset
    // The last line, `],"count":N,"sum":"…"}`, starts after the last newline but one.
    let count = bytes.count
    guard count >= 2, bytes[count - 1] == 0x0A, bytes[count - 2] == 0x7D,
      let trailer = lastNewline(in: bytes, before: count - 1), trailer >= rowsStart,
      bytes[trailer + 1] == 0x5D
    else { return nil }
    var tallyReader = JSONReader(bytes: bytes, offset: trailer + 2)
    guard let members = try? readTallyMembers(&tallyReader), let sum = members.sum,
      (0..<(1 << 40)).contains(members.count)
    else { return nil }
    var lastID = 0
    if members.count > 0 {
      guard let previous = lastNewline(in: bytes, before: trailer), previous >= rowsStart,
        let (_, end) = try? verifyRow(bytes, at: previous + 1, reader: reader)
      else { return nil }
      reader.offset = previous + 1 + rowPrefix.count
      guard let last = try? Codec.decode(from: &reader), reader.offset == end else {
        return nil
      }
      lastID = Codec.id(of: last)
    } else {
      guard trailer == rowsStart else { return nil }
    }
    return (rowsStart..<trailer, Tally(count: members.count, sum: sum), lastID)
  }

  /// Replaces the checksummed file at `path` by the bytes `encode` writes for its rows but
  /// those whose ids lie in `removed` (runs by increasing id, apart), as of `sequence`,
  /// without holding the rows: each kept row's line is copied as it is, the file read a
  /// piece at a time (its passed pages given back, `TableFilePassedPages`) and written 1 MiB
  /// at a time. The compaction of a table whose only changes since its file are removals
  /// (an undo of an import), which would otherwise read every row to write the few kept:
  /// the undo of a 1,000,000-entry import read the log whole for that (undo20).
  ///
  /// Every row read is verified against its checksum, and the last line's count and sum
  /// against all of them. False, with the file as it was, when the file is missing, is not
  /// a checksummed table as weigh writes it, or does not read back: the caller then reads
  /// the table (which reports the damage) and writes it from its rows.
  ///
  /// - Complexity: O(size of the file); in memory O(1).
  static func copying(
    fileAt path: String, removing removed: [IDStepRun], sequence: Int,
    chunkBytes: Int = 1 << 20
  ) throws(StoreError) -> Bool {
    let copied: Bool? = try StoreFileSystem.withMappedFile(path, populatingUpTo: 0) {
      (bytes) throws(StoreError) -> Bool in
      var reader = JSONReader(bytes: bytes)
      guard let header = try? readHeader(&reader, path: path), header.checksummed else {
        return false
      }
      // Set when the file does not read back: the write is abandoned, the file kept.
      var unreadable = false
      do throws(StoreError) {
        try StoreFileSystem.replace(path) { (write) throws(FileWriteError) in
          var writer = JSONWriter()
          writer.bytes.reserveCapacity(chunkBytes + (64 << 10))
          writeHeader(sequence: sequence, into: &writer)
          var kept = Tally()
          var read = Tally()
          var next = 0  // the first run of `removed` that may hold the rows to come
          var previousID = 0
          var pages = TableFilePassedPages(bytes, from: reader.offset)
          // The next row's line (from its `{` to its `}`), checksum and id; nil after the
          // last, once the last line's count and sum are checked against every row read.
          func nextRow() throws(JSONSyntaxError) -> (start: Int, end: Int, crc: UInt32, id: Int)? {
            guard try reader.nextElement() else {
              try readTrailer(&reader, checksummed: true, tally: read)
              return nil
            }
            reader.skipWhitespace()
            let start = reader.offset
            let (crc, end) = try verifyRow(bytes, at: start, reader: reader)
            let id = try rowID(bytes, at: start + rowPrefix.count, end: end)
            guard id > previousID else { throw reader.error("row ids do not increase") }
            previousID = id
            read.add(crc)
            reader.offset = end + 1
            return (start, end, crc, id)
          }
          while true {
            let row: (start: Int, end: Int, crc: UInt32, id: Int)?
            do throws(JSONSyntaxError) { row = try nextRow() } catch {
              unreadable = true
              throw FileWriteError("the table file does not read back")
            }
            guard let row else { break }
            while next < removed.count, removed[next].upperBound < row.id { next += 1 }
            if next == removed.count || !removed[next].contains(row.id) {
              writer.raw(kept.count == 0 ? "\n" : ",\n")
              writer.bytes.appendMemory(
                of: UnsafeBufferPointer(rebasing: bytes[row.start...row.end]))
              kept.add(row.crc)
              if writer.bytes.count >= chunkBytes {
                try write(writer.bytes)
                writer.bytes.removeAll(keepingCapacity: true)
              }
            }
            pages.passed(reader.offset)
          }
          writeTrailer(kept, into: &writer)
          try write(writer.bytes)
        }
      } catch {
        if unreadable { return false }
        throw error
      }
      return true
    }
    return copied ?? false
  }

  /// The id of the row object at `start` (its closing `}` at `end`): read from its first
  /// member when that is `"id"` with a whole number, as the codecs write it, or else from
  /// the row decoded.
  private static func rowID(
    _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int
  ) throws(JSONSyntaxError) -> Int {
    let key: [UInt8] = Array("{\"id\":".utf8)
    if end - start > key.count + 1, (0..<key.count).allSatisfy({ bytes[start + $0] == key[$0] }) {
      var index = start + key.count
      var value = 0
      var digits = 0
      while index < end, bytes[index] >= 0x30, bytes[index] <= 0x39, digits < 18 {
        value = value * 10 + Int(bytes[index] - 0x30)  // checked: one decimal digit
        digits += 1
        index += 1
      }
      if digits > 0, bytes[index] == 0x2C || bytes[index] == 0x7D,
        digits == 1 || bytes[start + key.count] != 0x30
      {
        return value
      }
    }
    var reader = JSONReader(bytes: bytes, offset: start)
    let row = try Codec.decode(from: &reader)
    guard reader.offset == end else {
      throw reader.error("expected the end of the row ('}'), as weigh writes it")
    }
    return Codec.id(of: row)
  }

  /// The first line, up to the `[` that opens the rows.
  static func writeHeader(sequence: Int, into writer: inout JSONWriter) {
    writer.raw("{\"format\":")
    writer.write(Codec.formatName)
    writer.raw(",\"version\":")
    writer.write(Codec.formatVersion)
    writer.raw(",\"sequence\":")
    writer.write(sequence)
    writer.raw(byte: 0x2C)
    StoreChecksum.writeMember(StoreChecksum.of(writer.bytes[...].dropLast()), into: &writer)
    writer.raw(",\"rows\":[")
  }

  /// Writes `rows`, each on its own line with its checksum, after the `tally.count` rows
  /// already written, and adds them to `tally`. A row that `reused` holds is copied from
  /// those bytes; `next` is where the search in `reused` goes on from.
  static func appendRows(
    _ rows: ArraySlice<Codec.Row>, into writer: inout JSONWriter, tally: inout Tally,
    reusing reused: EncodedRowBytes?, next: inout Int
  ) {
    let prefix = rowPrefix
    let run = reused?.consecutiveRun
    // By index: enumerating the rows in this generic function copied each through the
    // runtime's generic iterator (a tenth of a large import's commit under callgrind).
    var index = rows.startIndex
    while index < rows.endIndex {
      if let run, let reused {
        // The rows of an import's run (consecutive ids, every one in the table) lie one
        // after the other among the table's: copied as lines from their bytes, without
        // looking at each row (two ids checked for the whole block).
        let id = Codec.id(of: rows[index])
        if run.ids.contains(id) {
          let length = min(rows.endIndex - index, run.ids.upperBound - id)
          if Codec.id(of: rows[index + length - 1]) == id + length - 1 {
            let first = run.firstRow + (id - run.ids.lowerBound)
            let copied = appendLines(
              rows: first..<(first + length), of: reused, into: &writer, tally: &tally)
            index += copied
            next = id - run.ids.lowerBound + copied
            if copied == length { continue }
          }
        }
      }
      defer { index += 1 }
      writer.raw(tally.count == 0 ? "\n" : ",\n")
      // The checksum goes before the row, so its digits are filled in once the row is written.
      let start = writer.bytes.count
      writer.bytes.append(contentsOf: prefix)
      let copied =
        reused?.copy(id: Codec.id(of: rows[index]), from: &next, into: &writer.bytes) ?? false
      if !copied { Codec.encode(rows[index], into: &writer) }
      let crc = StoreChecksum.of(writer.bytes[(start + prefix.count)...])
      StoreChecksum.writeHex(crc, into: &writer.bytes, at: start + 8)
      writer.raw(byte: 0x7D)
      tally.add(crc)
    }
  }

  /// Writes the rows numbered `numbers` among a transaction's (`reused`'s bytes), each as a
  /// line of the file with its checksum, after the `tally.count` rows already written, and
  /// adds them to `tally`; each line in one step (`JSONWriter.append(atMost:_:)`). Returns
  /// how many were written: fewer when a row's bytes cannot be read back (the journal gone),
  /// which the caller then encodes.
  private static func appendLines(
    rows numbers: Range<Int>, of reused: EncodedRowBytes, into writer: inout JSONWriter,
    tally: inout Tally
  ) -> Int {
    var written = 0
    for number in numbers {
      let found = reused.withBytes(ofRow: number) { bytes in
        tally.writeRowLine(bytes, into: &writer)
      }
      guard found else { break }
      written += 1
    }
    return written
  }

  /// Writes `rows` as ``appendRows(_:into:tally:reusing:next:)`` does.
  private static func appendRows(
    _ rows: [Codec.Row], into writer: inout JSONWriter, tally: inout Tally,
    reusing reused: EncodedRowBytes?, next: inout Int
  ) {
    appendRows(rows[...], into: &writer, tally: &tally, reusing: reused, next: &next)
  }

  /// The last line: the rows' count and the sum of their checksums.
  static func writeTrailer(_ tally: Tally, into writer: inout JSONWriter) {
    tally.writeTrailer(into: &writer)
  }

  /// The offset of the last newline before `end`, or nil.
  private static func lastNewline(in bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
    var index = end - 1
    while index >= 0 {
      if bytes[index] == 0x0A { return index }
      index -= 1
    }
    return nil
  }
}

/// The rows of one table whose last change in a transaction was a put, by increasing id,
/// each with its number among the transaction's rows (`Store.lastPuts(in:)`).
enum ReusedRowIndex {
  /// The rows one by one.
  case list([(id: Int, row: Int)])
  /// The rows of `run`, whose ids increase, the first being the transaction's row `first`:
  /// an import's million rows need no list.
  case run(StoreRowRun, first: Int)

  var count: Int {
    switch self {
    case .list(let rows): rows.count
    case .run(let run, _): run.count
    }
  }

  /// The id of the `position`th row.
  func id(at position: Int) -> Int {
    switch self {
    case .list(let rows): rows[position].id
    case .run(let run, _): run.id(at: position)
    }
  }

  /// The number among the transaction's rows of the `position`th row.
  func row(at position: Int) -> Int {
    switch self {
    case .list(let rows): rows[position].row
    case .run(_, let first): first + position
    }
  }
}

/// The bytes a transaction's puts were encoded to (`EncodedRows`), by id, for the rows of
/// one table whose last change in the transaction was a put: what a compaction right after
/// the commit copies into the table file instead of encoding those rows again.
struct EncodedRowBytes {
  /// The rows by increasing id, each with its number among the transaction's rows.
  let rows: ReusedRowIndex
  /// Where each of the transaction's rows ends in `bytes` (`EncodedRows.ends`), shared with
  /// the buffer it describes: no range is made per row, so a million-row import's
  /// compaction holds 16 bytes a row here, not 40.
  let ends: [Int]
  let bytes: UnsafeBufferPointer<UInt8>
  /// The transaction's first rows, when its record was streamed (`Store.streamRows`): read
  /// back from the journal; `ends` and `bytes` hold the rows after them.
  var journal: JournalRowWindow?

  /// Appends the bytes of row `id` to `target` and returns true, when they are here.
  /// `position` is where the search starts, moved past `id`: the rows are asked for in
  /// increasing id order, so the whole table costs one pass over `rows`.
  func copy(id: Int, from position: inout Int, into target: inout [UInt8]) -> Bool {
    let count = rows.count
    while position < count && rows.id(at: position) < id { position += 1 }
    guard position < count, rows.id(at: position) == id else { return false }
    // A row that cannot be read back (the journal gone) is encoded instead.
    guard withBytes(ofRow: rows.row(at: position), { target.appendMemory(of: $0) }) else {
      return false
    }
    position += 1
    return true
  }

  /// When the rows are one run whose ids are consecutive (an import's, `ReusedRowIndex.run`):
  /// its ids, and the number among the transaction's rows of its first. Every id of the run
  /// is then a row of the table, put by the run alone in the transaction.
  var consecutiveRun: (ids: Range<Int>, firstRow: Int)? {
    guard case .run(let run, let first) = rows, run.idsIncrease, run.count > 0,
      run.largestID - run.smallestID == run.count - 1
    else { return nil }
    return (run.smallestID..<(run.largestID + 1), first)
  }

  /// Runs `body` over the bytes of the transaction's row number `row` and returns true;
  /// false when they cannot be read back (from the journal).
  func withBytes(ofRow row: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
    var row = row
    if let journal {
      if row < journal.count { return journal.withBytes(row, body) }
      row -= journal.count
    }
    let start = row == 0 ? 0 : ends[row - 1]
    body(UnsafeBufferPointer(rebasing: bytes[start..<ends[row]]))
    return true
  }
}

/// Where the rows of a streamed journal record lie (`Store.streamRows`), from the record's
/// first byte, which is at `base` in the journal: one 32-bit end a row. A row's start is
/// the end of the row before and the same gap as between the first two rows (the text of a
/// put between two rows, `},{"put":"entries","row":`), but for the rows listed in
/// `otherStarts` (the first, and a row after a removal or of another table). A record past
/// 4 GiB is not described (`isComplete` false): its compaction encodes the rows again.
struct JournalRowPlaces {
  var base = 0
  private var ends: [UInt32] = []
  /// The gap between the first two rows (end of one to start of the next).
  private var gap = 0
  /// The rows whose start is not the end of the row before plus `gap`, in increasing order.
  private var otherStarts: [(row: Int, start: Int)] = []
  /// False once a row lay past what 32 bits count.
  private(set) var isComplete = true

  var count: Int { ends.count }

  mutating func add(start: Int, end: Int) {
    guard isComplete else { return }
    guard end <= Int(truncatingIfNeeded: UInt32.max) else {
      self = JournalRowPlaces()
      isComplete = false
      return
    }
    let row = ends.count
    if row == 1 { gap = start - Int(truncatingIfNeeded: ends[0]) }
    if row == 0 || start != Int(truncatingIfNeeded: ends[row - 1]) + gap {
      otherStarts.append((row, start))
    }
    ends.append(UInt32(truncatingIfNeeded: end))  // within 32 bits: checked above
  }

  /// Where row `row` starts, from the record's first byte.
  func start(of row: Int) -> Int {
    // The last listed row at or before `row`.
    var low = 0
    var high = otherStarts.count
    while low < high {
      let middle = (low + high) / 2
      if otherStarts[middle].row <= row { low = middle + 1 } else { high = middle }
    }
    if low > 0, otherStarts[low - 1].row == row { return otherStarts[low - 1].start }
    return Int(truncatingIfNeeded: ends[row - 1]) + gap
  }

  /// Where row `row` ends, from the record's first byte.
  func end(of row: Int) -> Int { Int(truncatingIfNeeded: ends[row]) }

  /// Where the last row ends (0 for none).
  var lastEnd: Int { ends.last.map { Int(truncatingIfNeeded: $0) } ?? 0 }
}

/// Reads the rows of a streamed record back from the journal, 4 MiB at a time: the
/// compaction that follows a large import asks for them in order, so the table file is
/// written from the bytes the journal holds without holding them all.
final class JournalRowWindow {
  private let path: String
  private let places: JournalRowPlaces
  private var window: [UInt8] = []
  private var windowStart = 0

  init(path: String, _ places: JournalRowPlaces) {
    self.path = path
    self.places = places
  }

  var count: Int { places.count }

  /// Runs `body` over the bytes of row number `row`; false when they cannot be read.
  func withBytes(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
    let start = places.base + places.start(of: row)
    let end = places.base + places.end(of: row)
    if start < windowStart || end > windowStart + window.count {
      // 4 MiB, or what is left of the record when that is less (a `log`'s one row).
      let left = places.base + places.lastEnd - start
      guard
        StoreFileSystem.read(
          path, at: start, count: max(end - start, min(4 << 20, left)), into: &window),
        window.count >= end - start
      else {
        window = []
        return false
      }
      windowStart = start
    }
    window.withUnsafeBufferPointer { buffer in
      body(UnsafeBufferPointer(rebasing: buffer[(start - windowStart)..<(end - windowStart)]))
    }
    return true
  }
}
