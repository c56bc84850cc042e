import Foundation

/// The part of a JSON file an importer holds while it reads the file's records: the bytes
/// from the record being read on, refilled from the file as the reader goes, so that memory
/// no longer grows with the file (a whole 115 MB Fitbit file was held as one array before).
///
/// The reader (``ImportJSONReader``) reads each record inside the window as it would read it
/// in the whole file, and trusts the result only when the bytes past the window could not
/// have changed it: a record that ends before the window's last byte, an error whose value
/// lies whole in the window (``holdsValue(from:)``). Otherwise it reads more and reads the
/// record again from its start (``readMore(_:_:)``). The tests cut files at every place.
final class ImportJSONWindow {
  /// Reads up to the buffer's count of the file's next bytes into it; 0 at the file's end.
  typealias Source = (UnsafeMutableRawBufferPointer) throws -> Int

  private let source: Source
  /// The bytes held before each separator between records: below it, the window is
  /// refilled (a record is rarely cut then, and a cut one is read again).
  let ahead: Int
  private var storage: UnsafeMutableRawBufferPointer
  private(set) var count = 0
  /// Whether the file's last byte is in the window.
  private(set) var isAtEnd = false
  /// The file's line and column (1-based, in Unicode scalars) of the window's first byte.
  private(set) var line = 1
  private(set) var column = 1
  /// Whether the streamed array's `[` was read: the records are read from the window from
  /// then on; before it, a parse that needs bytes past the window starts again on the whole
  /// file (`ImportJSONReader`).
  var streamStarted = false
  /// Why the file could not be read, when it could not (the parse stops with a placeholder
  /// syntax error, which this replaces).
  private(set) var failure: (any Error)?

  /// A window of `capacity` bytes to begin with, filled from `source`.
  init(capacity: Int, ahead: Int, source: @escaping Source) {
    self.source = source
    self.ahead = ahead
    storage = .allocate(byteCount: max(capacity, 1), alignment: 8)
  }

  deinit { storage.deallocate() }

  /// The bytes held.
  var bytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(
      start: storage.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
  }

  /// Fills the empty window.
  ///
  /// - Throws: what the source throws.
  func fillFirst() throws {
    try fill()
  }

  /// Drops the bytes before the reader's offset and reads until the window is full or the
  /// file ends, the window doubled when it held nothing but the bytes kept: `reader` and
  /// `lines` follow. Nothing is read at the end of the file.
  ///
  /// - Throws: a placeholder `JSONSyntaxError` when the file cannot be read (``failure``).
  func readMore(_ reader: inout JSONReader, _ lines: inout ImportJSONReader.LineCounter)
    throws(JSONSyntaxError)
  {
    guard !isAtEnd else { return }
    drop(before: reader.offset, &reader, &lines)
    if count == storage.count {
      let larger = UnsafeMutableRawBufferPointer.allocate(
        byteCount: storage.count * 2, alignment: 8)
      larger.baseAddress!.copyMemory(from: storage.baseAddress!, byteCount: count)
      storage.deallocate()
      storage = larger
    }
    do {
      try fill()
    } catch {
      failure = error
      isAtEnd = true
      throw JSONSyntaxError(line: 1, column: 1, message: "the file could not be read")
    }
    reader.move(to: bytes, dropping: 0)
  }

  /// Reads until the window holds the rest of the file, from the reader's offset on.
  ///
  /// - Throws: as ``readMore(_:_:)``.
  func readRest(_ reader: inout JSONReader, _ lines: inout ImportJSONReader.LineCounter)
    throws(JSONSyntaxError)
  {
    while !isAtEnd { try readMore(&reader, &lines) }
  }

  /// Reads until the JSON value at `reader`'s offset (after whitespace) lies whole in the
  /// window with `margin` bytes after it, or the file ends: the reader then reads it as in
  /// the whole file, whatever it finds wrong in it.
  ///
  /// - Throws: as ``readMore(_:_:)``.
  func readValue(_ reader: inout JSONReader, _ lines: inout ImportJSONReader.LineCounter)
    throws(JSONSyntaxError)
  {
    while !isAtEnd && !holdsValue(from: reader.offset) { try readMore(&reader, &lines) }
  }

  /// The bytes a read looks at past a value's end: `false`, `null` and `true` are compared
  /// whole (five bytes), a number looks at the byte after it.
  static let margin = 8

  /// Whether the value starting at `start` (after whitespace) ends, with ``margin`` bytes
  /// after it, inside the window, by its brackets and strings alone: the reader, which
  /// follows the same strings and stops at the first bracket that does not match, never
  /// looks past that end (a string's `\` takes the next byte with it in both).
  func holdsValue(from start: Int) -> Bool {
    let bytes = self.bytes
    var index = start
    while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    var depth = 0
    var inString = false
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if inString {
        if byte == 0x5C {
          index += 1
        } else if byte == 0x22 {
          inString = false
          if depth == 0 { break }
        }
        continue
      }
      switch byte {
      case 0x22: inString = true
      case 0x7B, 0x5B: depth += 1
      case 0x7D, 0x5D:
        depth -= 1
        if depth <= 0 { return index + Self.margin <= bytes.count }
      case 0x2C, 0x3A, 0x20, 0x09, 0x0A, 0x0D:
        if depth == 0 { return index + Self.margin <= bytes.count }
      default: break
      }
    }
    return !inString && depth == 0 && index + Self.margin <= bytes.count
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// Drops the bytes before `keep`, keeping the line and column of the window's first byte.
  private func drop(
    before keep: Int, _ reader: inout JSONReader, _ lines: inout ImportJSONReader.LineCounter
  ) {
    guard keep > 0 else { return }
    let bytes = self.bytes
    // The counter stands at a record's start or end, never past the reader.
    let keptLine = lines.line(at: keep, in: bytes)
    var lineStart = keep
    while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
    var columns = 0
    for index in lineStart..<keep where bytes[index] & 0xC0 != 0x80 { columns += 1 }
    column = lineStart == 0 && keptLine == line ? column + columns : 1 + columns
    line = keptLine
    let base = storage.baseAddress!
    base.copyMemory(from: base + keep, byteCount: count - keep)
    count -= keep
    reader.move(to: self.bytes, dropping: keep)
    lines.offset -= keep
  }

  /// Reads until the window is full or the file ends.
  private func fill() throws {
    while count < storage.count {
      let read = try source(
        UnsafeMutableRawBufferPointer(rebasing: storage[count..<storage.count]))
      if read == 0 {
        isAtEnd = true
        return
      }
      count += read
    }
  }

  /// The error `error`, found in the window, at its place in the whole file.
  func placed(_ error: JSONSyntaxError) -> JSONSyntaxError {
    var placed = error
    if error.line == 1 { placed.column = column + error.column - 1 }
    placed.line = line + error.line - 1
    return placed
  }
}
