#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The rows' lines of a table as its file holds them (the bytes between its first line and
/// its last, as `TableFile.encode` writes them: `\n{row}`, then `,\n{row}` each), handed on
/// a piece at a time up to a row id: a streamed run's rows are merged among them by id
/// (`StreamedTableFile`), so that new rows numbered below the table's last (an export
/// merged into a log that went on) need not be held (merge24).
///
/// The lines come from the table's file, mapped (its passed pages given back,
/// `TableFilePassedPages`), or from a table held without a file, encoded into a buffer of
/// its own. The lines are handed on as they are: only the first line and the last row were
/// verified (`TableFile.copyRowLines`); a row's id is read from its line's first bytes.
final class TableRowLines {
  /// The whole mapping (or buffer) the lines lie in.
  private let bytes: UnsafeBufferPointer<UInt8>
  private let mapped: Bool
  /// Where the lines start in `bytes`, and where they end (the newline of the last line).
  private let start: Int
  private let end: Int
  /// Where the first line not handed on yet starts (at its `,` or, for the first, its
  /// newline).
  private(set) var position: Int
  /// The rows' count and checksums' sum (the file's last line).
  let tally: TableFileTally
  /// The last row's id (0 without rows).
  let lastID: Int
  private var pages: TableFilePassedPages?

  /// The lines in `bytes` (a mapping, unmapped when this goes) over `lines`.
  init(
    mapping bytes: UnsafeBufferPointer<UInt8>, lines: Range<Int>, tally: TableFileTally, lastID: Int
  ) {
    self.bytes = bytes
    mapped = true
    (start, end, position) = (lines.lowerBound, lines.upperBound, lines.lowerBound)
    self.tally = tally
    self.lastID = lastID
    pages = TableFilePassedPages(bytes, from: lines.lowerBound)
  }

  /// The lines `encoded` (as a table file holds them), copied into a buffer of their own.
  init(encoded: [UInt8], tally: TableFileTally, lastID: Int) {
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, encoded.count))
    _ = buffer.initialize(from: encoded)
    bytes = UnsafeBufferPointer(rebasing: buffer[..<encoded.count])
    mapped = false
    (start, end, position) = (0, encoded.count, 0)
    self.tally = tally
    self.lastID = lastID
  }

  deinit {
    if mapped {
      StoreFileSystem.unmap(bytes)
    } else if let base = bytes.baseAddress {
      UnsafeMutablePointer(mutating: base).deallocate()
    }
  }

  /// Whether every line was handed on.
  var isPassed: Bool { position == end }

  /// Whether no line was handed on yet: the next starts with the newline of the table's
  /// first row (no comma before it).
  var isAtFirstLine: Bool { position == start }

  /// Hands the lines of the rows whose ids are below `id` (all that are left when `id` is
  /// above the last row's) to `body`, in order, a piece of at most `pieceBytes` at a time.
  /// False, at the line where it stopped, when a row has the id `id` (the run's row would
  /// repeat it) or its line does not start `{"crc":"…","row":{"id":N` as weigh writes it.
  ///
  /// - Complexity: O(bytes handed on); each line is looked at (memchr for its end) only
  ///   while `id` is not above the last row's.
  func pass(below id: Int, pieceBytes: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void)
    -> Bool
  {
    let piece = max(1, pieceBytes)
    var from = position
    guard id <= lastID else {
      while from < end {
        let to = min(end, from + piece)
        body(UnsafeBufferPointer(rebasing: bytes[from..<to]))
        pages?.passed(to)
        from = to
      }
      position = end
      return true
    }
    var at = position
    var found = true
    while at < end {
      // `,\n{` before every line but the first, `\n{` before it.
      let object = at + (bytes[at] == 0x2C ? 2 : 1)
      guard let rowID = Self.id(in: bytes, at: object, end: end), rowID != id else {
        found = false
        break
      }
      if rowID > id { break }
      // The line ends at the next newline (the next line's `,` before it, if any).
      guard let newline = memchr(bytes.baseAddress! + object, 0x0A, end - object) else {
        at = end
        break
      }
      at = object + (UnsafeRawPointer(newline) - UnsafeRawPointer(bytes.baseAddress! + object))
      if bytes[at - 1] == 0x2C { at -= 1 }
      if at - from >= piece {
        body(UnsafeBufferPointer(rebasing: bytes[from..<at]))
        pages?.passed(at)
        from = at
      }
    }
    if at > from {
      body(UnsafeBufferPointer(rebasing: bytes[from..<at]))
      pages?.passed(at)
    }
    position = at
    return found
  }

  /// The id of the row whose line starts at `object` (`{"crc":"…","row":{"id":N,`), nil
  /// when it is not written so.
  private static func id(in bytes: UnsafeBufferPointer<UInt8>, at object: Int, end: Int) -> Int? {
    guard object + rowPrefixCount < end, bytes[object] == 0x7B else { return nil }
    return id(ofRow: UnsafeBufferPointer(rebasing: bytes[(object + rowPrefixCount)..<end]))
  }

  /// The bytes before a row's object in its line, `{"crc":"00000000","row":`.
  private static let rowPrefixCount = 24

  /// The id of the row object `row` (`{"id":N,…}`, as the journal record and the table's
  /// line hold it; `{"pos":N,…}` for Health's tables, whose id is the change position,
  /// `HealthRecordCodec`), nil when it does not start so. Each codec writes its id first.
  /// Read as `id` alone, every Health row was unreadable and abandoned the streamed table
  /// file (`weigh-bench health-json-store`: "the table file written with the import was
  /// abandoned", round 25).
  static func id(ofRow row: UnsafeBufferPointer<UInt8>) -> Int? {
    let keyCount: Int
    if Self.starts(row, with: "{\"id\":") {
      keyCount = 6
    } else if Self.starts(row, with: "{\"pos\":") {
      keyCount = 7
    } else {
      return nil
    }
    var (value, digits, index) = (0, 0, keyCount)
    while index < row.count, row[index] >= 0x30, row[index] <= 0x39, digits < 18 {
      value = value * 10 + Int(row[index] - 0x30)  // checked: one decimal digit
      digits += 1
      index += 1
    }
    guard digits > 0, index < row.count, row[index] == 0x2C || row[index] == 0x7D else {
      return nil
    }
    return value
  }

  /// Whether `row` starts with `key` and holds a byte after it.
  private static func starts(_ row: UnsafeBufferPointer<UInt8>, with key: StaticString) -> Bool {
    let count = key.utf8CodeUnitCount
    guard row.count > count + 1 else { return false }
    for offset in 0..<count where row[offset] != key.utf8Start[offset] { return false }
    return true
  }
}
