import Foundation

/// One field of a CSV row; `quoted` tells `""` (an empty string) from an empty cell.
public struct CSVField: Hashable, Sendable {
  /// The text, with doubled quotes undone.
  public var text: String
  /// Whether the field was written in double quotes.
  public var quoted: Bool
}

/// One row of a CSV file and the line it starts on. The row's bytes are kept in one array and
/// each field is a range of it, so that reading a row allocates nothing once the reader's
/// buffers have grown, and readers parse dates and numbers from the bytes (``field(_:)``).
public struct CSVRow: Hashable, Sendable {
  /// The 1-based line the row starts on (a quoted newline makes a row span lines).
  public var line: Int
  /// The fields' bytes: the line as the file wrote it, separators and quotes included, when
  /// the splitter read it whole (``CSVParser``), else each field's bytes, doubled quotes undone.
  var bytes: [UInt8] = []
  /// Where each field lies in `bytes`, and whether it was written in double quotes; only the
  /// first ``count`` are the row's (the rest are kept from longer rows, so that a row's spans
  /// are written in place, not emptied and appended again).
  var spans: [Span] = []
  /// The number of fields.
  public private(set) var count = 0

  /// One field: its bytes in the row's, and whether it was quoted.
  struct Span: Hashable, Sendable {
    var start: Int
    var end: Int
    var quoted: Bool
  }

  /// A row of `fields`.
  public init(line: Int, fields: [CSVField]) {
    self.line = line
    for field in fields {
      let start = bytes.count
      bytes += field.text.utf8
      append(Span(start: start, end: bytes.count, quoted: field.quoted))
    }
  }

  init(line: Int) { self.line = line }

  /// The fields, in order.
  public var fields: [CSVField] {
    (0..<count).map {
      CSVField(text: String(decoding: field($0), as: UTF8.self), quoted: spans[$0].quoted)
    }
  }

  /// The text of field `index`, or nil past the end of the row.
  public subscript(_ index: Int) -> String? {
    index < count ? String(decoding: field(index), as: UTF8.self) : nil
  }

  /// The bytes of field `index`; empty past the end of the row.
  func field(_ index: Int) -> ArraySlice<UInt8> {
    guard index < count else { return [] }
    let span = spans[index]
    return bytes[span.start..<span.end]
  }

  /// The row inside a header written as one quoted field (`"Date,""Weight (kg)"",…,Comments"`):
  /// seen in a public repository's Withings `weight.csv` of 2026 whose data rows are plain,
  /// as a script or spreadsheet that quoted the header line again leaves it. Nil unless the
  /// row is a single quoted field holding `separator`, or when its text is not one row.
  func unwrapped(separator: UInt8 = 0x2C) -> CSVRow? {
    guard count == 1, spans[0].quoted, field(0).contains(separator),
      let rows = try? CSVReader.rows(Array(field(0)), separator: separator), rows.count == 1
    else { return nil }
    var row = rows[0]
    row.line = line
    return row
  }

  /// Whether field `index` was written in double quotes.
  func isQuoted(_ index: Int) -> Bool { index < count && spans[index].quoted }

  /// Adds a field after the row's ``count``.
  mutating func append(_ span: Span) {
    if count < spans.count {
      spans[count] = span
    } else {
      spans.append(span)
    }
    count += 1
  }

  /// Empties the row for the next one, keeping its buffers.
  mutating func clear() {
    bytes.removeAll(keepingCapacity: true)
    count = 0
  }

  /// Equal when the lines and the fields (text and quoting) are.
  public static func == (a: CSVRow, b: CSVRow) -> Bool {
    a.line == b.line && a.count == b.count
      && (0..<a.count).allSatisfy {
        a.spans[$0].quoted == b.spans[$0].quoted && a.field($0) == b.field($0)
      }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(line)
    hasher.combine(count)
    for index in 0..<count {
      hasher.combine(spans[index].quoted)
      hasher.combine(field(index))
    }
  }
}

/// Splits RFC 4180 CSV: quoted fields may hold commas, doubled quotes and newlines; rows end
/// with `\n` or `\r\n`, or with `\r` alone in a file whose first chunk holds no `\n` (see
/// ``endsLinesWithCR(_:)``); a UTF-8 byte order mark is skipped; blank lines are dropped.
public enum CSVReader {
  /// The rows of `bytes`.
  ///
  /// - Throws: `ImportError` at the line of a quote that is never closed.
  /// - Complexity: O(n).
  public static func rows(_ bytes: [UInt8], separator: UInt8 = 0x2C) throws -> [CSVRow] {
    var rows: [CSVRow] = []
    try forEachRow(bytes, separator: separator) { rows.append($0) }
    return rows
  }

  /// Calls `body` with each row of `bytes` in order, holding one row at a time.
  ///
  /// - Throws: `ImportError` at the line of a quote that is never closed (rows before it
  ///   have been passed to `body`), or what `body` throws.
  /// - Complexity: O(n).
  public static func forEachRow(
    _ bytes: [UInt8], separator: UInt8 = 0x2C, _ body: (CSVRow) throws -> Void
  ) throws {
    var parser = CSVParser(separator: separator)
    if bytes.withUnsafeBufferPointer(endsLinesWithCR) {
      try withCRAsLF(bytes) { try parser.feed($0, body) }
    } else {
      try bytes.withUnsafeBufferPointer { try parser.feed($0, body) }
    }
    try parser.finish(body)
  }

  /// Calls `body` with each row of `input`, read in chunks of ``ImportInput/chunkSize``
  /// bytes when it is a file: memory holds one chunk and one row, whatever the file's size.
  ///
  /// - Throws: `ImportError` when the file cannot be read or a quote is never closed, or
  ///   what `body` throws.
  static func forEachRow(
    _ input: ImportInput, separator: UInt8 = 0x2C, _ body: (CSVRow) throws -> Void
  ) throws {
    var parser = CSVParser(separator: separator)
    // Decided on the first chunk: a file's lines end one way throughout.
    var crAlone: Bool?
    try input.forEachChunk { chunk in
      if crAlone == nil { crAlone = endsLinesWithCR(chunk) }
      if crAlone == true {
        try withCRAsLF(chunk) { try parser.feed($0, body) }
      } else {
        try parser.feed(chunk, body)
      }
    }
    try parser.finish(body)
  }

  /// Whether `chunk`, a file's first, ends its lines with `\r` alone, as spreadsheets of the
  /// classic Mac OS save CSV: it holds a `\r` and no `\n`. Read as one row, such a file's
  /// rows were lost unsaid (a public repository's `Weight.csv` of HealthKit weights, real25:
  /// `imported 0, already present 0, rejected 0`).
  static func endsLinesWithCR(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
    chunk.contains(0x0D) && !chunk.contains(0x0A)
  }

  /// Calls `body` with `bytes` where each `\r` is a `\n`: the same length, so lines count
  /// as in the file.
  private static func withCRAsLF(
    _ bytes: some Sequence<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void
  ) rethrows {
    let converted = bytes.map { $0 == 0x0D ? 0x0A : $0 }
    try converted.withUnsafeBufferPointer(body)
  }
}

/// The CSV splitter as a state machine fed one chunk at a time: a row, a quoted field or a
/// `\r\n` may straddle two chunks.
struct CSVParser {
  private enum State {
    /// At the start of a field.
    case fieldStart
    /// In a field outside quotes (or after its closing quote).
    case unquoted
    /// Inside quotes.
    case quoted
    /// Inside quotes, just after a `"`: a second one is a quote, anything else closes.
    case quoteInQuoted
  }

  let separator: UInt8
  /// Whether ``plainRow(_:from:_:)`` may read rows: not when the separator is a byte it reads
  /// as a quote or the end of a line (`delimiter` refuses `"` and a newline, not `\r`).
  private let readsPlainRows: Bool
  private var row = CSVRow(line: 1)
  private var state = State.fieldStart
  /// Whether the field being read began with a quote.
  private var quoted = false
  /// Where the field being read begins in the row's bytes.
  private var fieldStart = 0
  /// A `\r` outside quotes whose next byte is not known yet (`\r\n` ends the row).
  private var pendingCR = false
  private var line = 1
  private var openLine = 1
  private var started = false

  init(separator: UInt8) {
    self.separator = separator
    readsPlainRows = separator != 0x22 && separator != 0x0A && separator != 0x0D
  }

  /// Reads `chunk`, passing each row it completes to `body`. The first chunk must hold the
  /// file's first three bytes, or all of it (for the byte order mark).
  mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (CSVRow) throws -> Void)
    throws
  {
    var i = 0
    if !started {
      started = true
      if chunk.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }
    let n = chunk.count
    while i < n {
      // At a row's start, a row that ends in this chunk is read whole when it can be: with
      // the row's fields as ranges of one copy of its line, the generic CSV's split and
      // hand-over fell from about 1,390 instructions a row to 730 (callgrind, 100,000 rows).
      if state == .fieldStart, row.count == 0, row.bytes.isEmpty, !pendingCR, readsPlainRows {
        if let next = try plainRow(chunk, from: i, body) {
          i = next
          continue
        }
      }
      let byte = chunk[i]
      switch state {
      case .quoted:
        // The run up to the next quote is the field's, newlines included.
        var end = i
        while end < n, chunk[end] != 0x22 {
          if chunk[end] == 0x0A { line += 1 }
          end += 1
        }
        row.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[i..<end]))
        if end < n { state = .quoteInQuoted }
        i = end + 1
        continue
      case .quoteInQuoted:
        if byte == 0x22 {
          row.bytes.append(0x22)
          state = .quoted
          i += 1
          continue
        }
        state = .unquoted
      case .fieldStart, .unquoted:
        break
      }
      if pendingCR {
        pendingCR = false
        if byte == 0x0A {
          try endRow(body)
          i += 1
          continue
        }
        row.bytes.append(0x0D)
        state = .unquoted
      }
      if byte == 0x22, state == .fieldStart {
        quoted = true
        openLine = line
        state = .quoted
      } else if byte == separator {
        endField()
      } else if byte == 0x0A {
        try endRow(body)
      } else if byte == 0x0D {
        pendingCR = true
      } else {
        // The run of plain bytes up to the next byte that means something.
        var end = i + 1
        while end < n {
          let next = chunk[end]
          if next == separator || next == 0x0A || next == 0x0D { break }
          end += 1
        }
        row.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[i..<end]))
        state = .unquoted
        i = end
        continue
      }
      i += 1
    }
  }

  /// Reads the row that starts at `start` when it ends in `chunk` with `\n` or `\r\n` and
  /// every field is plain, or quoted without a doubled quote, a newline or text after its
  /// closing quote (fields the state machine reads as the bytes written): the fields are
  /// found in one pass and the line's bytes copied at once, where the state machine copied
  /// each field's. Returns where the next row starts, or nil, having read nothing, for any
  /// other row: the state machine reads it from `start`.
  private mutating func plainRow(
    _ chunk: UnsafeBufferPointer<UInt8>, from start: Int, _ body: (CSVRow) throws -> Void
  ) throws -> Int? {
    guard let (end, next) = plainSpans(chunk, from: start) else {
      row.clear()
      return nil
    }
    row.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<end]))
    try passRow(body)
    return next
  }

  /// Adds the fields of the row at `start` to the row as ranges of its line; returns where
  /// the line's text ends (before `\n` or `\r\n`) and where the next row starts, or nil when
  /// the row is not one ``plainRow(_:from:_:)`` reads.
  private mutating func plainSpans(_ chunk: UnsafeBufferPointer<UInt8>, from start: Int) -> (
    end: Int, next: Int
  )? {
    let n = chunk.count
    let separator = separator
    let plainStops = Self.stops(separator, 0x0A, 0x0D)
    let quoteStops = Self.stops(0x22, 0x0A, 0x0A)
    var p = start
    while true {
      var begin = p
      var end: Int
      var q: Int
      let isQuoted = p < n && chunk[p] == 0x22
      if isQuoted {
        begin = p + 1
        q = Self.first(of: quoteStops, in: chunk, from: begin)
        guard q < n, chunk[q] == 0x22 else { return nil }
        end = q
        q += 1
        guard q < n else { return nil }
      } else {
        q = Self.first(of: plainStops, in: chunk, from: p)
        guard q < n else { return nil }
        end = q
      }
      row.append(CSVRow.Span(start: begin - start, end: end - start, quoted: isQuoted))
      switch chunk[q] {
      case separator:
        p = q + 1
      case 0x0A:
        return (q, q + 1)
      case 0x0D:
        guard q + 1 < n, chunk[q + 1] == 0x0A else { return nil }
        return (q, q + 2)
      default:
        // Text after a closing quote.
        return nil
      }
    }
  }

  /// Three bytes to look for, each repeated in a word, for ``first(of:in:from:)``.
  private static func stops(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> (UInt64, UInt64, UInt64) {
    let ones: UInt64 = 0x0101_0101_0101_0101
    // checked: a byte widens, and a byte times 0x0101… repeats it without carrying
    return (ones &* UInt64(a), ones &* UInt64(b), ones &* UInt64(c))
  }

  /// The position of the first byte from `start` that is one of `stops`, or the chunk's end.
  /// Eight bytes at a time (the has-zero-byte test on the word against each byte; its lowest
  /// bit set is exact, as a borrow runs only towards later bytes): a field of a generic
  /// CSV's row is up to 16 bytes, and testing a byte at a time cost about 14 instructions a
  /// byte under callgrind.
  @inline(__always)
  private static func first(
    of stops: (UInt64, UInt64, UInt64), in chunk: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> Int {
    let n = chunk.count
    var q = start
    if let base = chunk.baseAddress {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      while q + 8 <= n {
        // checked: the same 64 bits in the byte order of memory
        let word = UInt64(
          littleEndian: UnsafeRawPointer(base + q).loadUnaligned(as: UInt64.self))
        let a = word ^ stops.0
        let b = word ^ stops.1
        let c = word ^ stops.2
        let hits =
          ((a &- ones) & ~a | (b &- ones) & ~b | (c &- ones) & ~c) & highs
        if hits != 0 { return q + hits.trailingZeroBitCount >> 3 }
        q += 8
      }
    }
    let (a, b, c) = (
      UInt8(truncatingIfNeeded: stops.0), UInt8(truncatingIfNeeded: stops.1),
      UInt8(truncatingIfNeeded: stops.2)
    )
    while q < n {
      let byte = chunk[q]
      if byte == a || byte == b || byte == c { return q }
      q += 1
    }
    return n
  }

  /// Ends the input: passes the last row when the file does not end with a newline.
  ///
  /// - Throws: `ImportError` at the line of a quote that is never closed.
  mutating func finish(_ body: (CSVRow) throws -> Void) throws {
    if state == .quoted {
      throw ImportError(line: openLine, "a quoted field is never closed; add the closing '\"'")
    }
    if pendingCR {
      pendingCR = false
      row.bytes.append(0x0D)
    }
    if !row.bytes.isEmpty || row.count > 0 || quoted {
      endField()
      try body(row)
    }
  }

  private mutating func endField() {
    row.append(CSVRow.Span(start: fieldStart, end: row.bytes.count, quoted: quoted))
    fieldStart = row.bytes.count
    quoted = false
    state = .fieldStart
  }

  /// Ends the row at a newline (a blank line is no row).
  private mutating func endRow(_ body: (CSVRow) throws -> Void) throws {
    endField()
    try passRow(body)
  }

  /// Passes the row read unless it is a blank line, and starts the next.
  private mutating func passRow(_ body: (CSVRow) throws -> Void) throws {
    if !(row.count == 1 && row.bytes.isEmpty && !row.isQuoted(0)) {
      try body(row)
    }
    line += 1
    row.line = line
    row.clear()
    fieldStart = 0
  }
}
