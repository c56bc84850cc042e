import Foundation

/// One field of a CSV row; `quoted` tells `""` (an empty string) from an empty cell.
public struct CSVField: Hashable, Sendable {
  /// The text, with doubled quotes undone.
  public var text: String
  /// Whether the field was written in double quotes.
  public var quoted: Bool
}

/// One row of a CSV file and the line it starts on. The fields' bytes are kept one after
/// another in one array, so that reading a row allocates nothing once the reader's buffers
/// have grown, and readers parse dates and numbers from the bytes (``field(_:)``).
public struct CSVRow: Hashable, Sendable {
  /// The 1-based line the row starts on (a quoted newline makes a row span lines).
  public var line: Int
  /// Every field's bytes, doubled quotes undone, one after another.
  var bytes: [UInt8] = []
  /// Where each field ends in `bytes`.
  var ends: [Int] = []
  /// Whether each field was written in double quotes.
  var quotedFields: [Bool] = []

  /// A row of `fields`.
  public init(line: Int, fields: [CSVField]) {
    self.line = line
    for field in fields {
      bytes += field.text.utf8
      ends.append(bytes.count)
      quotedFields.append(field.quoted)
    }
  }

  init(line: Int) { self.line = line }

  /// The number of fields.
  public var count: Int { ends.count }

  /// The fields, in order.
  public var fields: [CSVField] {
    (0..<count).map {
      CSVField(text: String(decoding: field($0), as: UTF8.self), quoted: quotedFields[$0])
    }
  }

  /// The text of field `index`, or nil past the end of the row.
  public subscript(_ index: Int) -> String? {
    index < count ? String(decoding: field(index), as: UTF8.self) : nil
  }

  /// The bytes of field `index`; empty past the end of the row.
  func field(_ index: Int) -> ArraySlice<UInt8> {
    guard index < count else { return [] }
    return bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
  }

  /// Whether field `index` was written in double quotes.
  func isQuoted(_ index: Int) -> Bool { index < count && quotedFields[index] }
}

/// Splits RFC 4180 CSV: quoted fields may hold commas, doubled quotes and newlines; rows end
/// with `\n` or `\r\n`; a UTF-8 byte order mark is skipped; blank lines are dropped.
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
    try bytes.withUnsafeBufferPointer { try parser.feed($0, body) }
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
    try input.forEachChunk { try parser.feed($0, body) }
    try parser.finish(body)
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
  private var row = CSVRow(line: 1)
  private var state = State.fieldStart
  /// Whether the field being read began with a quote.
  private var quoted = false
  /// A `\r` outside quotes whose next byte is not known yet (`\r\n` ends the row).
  private var pendingCR = false
  private var line = 1
  private var openLine = 1
  private var started = false

  init(separator: UInt8) { self.separator = separator }

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
    if !row.bytes.isEmpty || !row.ends.isEmpty || quoted {
      endField()
      try body(row)
    }
  }

  private mutating func endField() {
    row.ends.append(row.bytes.count)
    row.quotedFields.append(quoted)
    quoted = false
    state = .fieldStart
  }

  /// Ends the row at a newline (a blank line is no row).
  private mutating func endRow(_ body: (CSVRow) throws -> Void) throws {
    endField()
    if !(row.ends.count == 1 && row.bytes.isEmpty && !row.quotedFields[0]) {
      try body(row)
    }
    line += 1
    row.line = line
    row.bytes.removeAll(keepingCapacity: true)
    row.ends.removeAll(keepingCapacity: true)
    row.quotedFields.removeAll(keepingCapacity: true)
  }
}
