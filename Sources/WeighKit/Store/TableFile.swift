import Dispatch

/// The bytes of a table file, shared read-only by the two threads that decode its halves.
private struct SharedBuffer: @unchecked Sendable {
  let bytes: UnsafeBufferPointer<UInt8>
}

/// The rows one thread decoded; each instance is written by exactly one thread, and read
/// only after `concurrentPerform` has returned.
private final class HalfResult<Row>: @unchecked Sendable {
  var rows: [Row]?
}

/// Reads and writes one table's snapshot file:
///
///     {"format":"weigh-entries","version":1,"sequence":42,"rows":[
///     {"id":1,…},
///     {"id":2,…}
///     ]}
///
/// The header comes first on its own line, so opening a store reads only the first bytes of
/// each table (its `sequence`) and leaves the rows for the first query that needs them.
enum TableFile<Codec: StoreTableCodec> {
  /// What the first line of a table file says.
  struct Header {
    var version: Int
    var sequence: Int
  }

  static var fileName: String { Codec.tableName + ".json" }

  /// Reads the header up to and including the `[` that opens the rows.
  static func readHeader(_ reader: inout JSONReader, path: String) throws(StoreError) -> Header {
    var newer: (found: Int, syntax: JSONSyntaxError)?
    do throws(JSONSyntaxError) {
      try reader.beginObject()
      var version: Int?
      var sequence: Int?
      var sawFormat = false
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
          let position = reader.offset
          let found = try reader.readInt()
          if found > Codec.formatVersion {
            newer = (found, reader.error("", at: position))
            throw newer!.syntax
          }
          guard found >= 1 else {
            throw reader.error("format version must be 1 or more", at: position)
          }
          version = found
        } else if key.equals("sequence") {
          sequence = try reader.readInt()
        } else if key.equals("rows") {
          guard sawFormat, let version, let sequence else {
            throw reader.error(
              "\"format\", \"version\" and \"sequence\" must come before \"rows\"", at: key.offset)
          }
          try reader.beginArray()
          return Header(version: version, sequence: sequence)
        } else {
          try reader.skipValue()
        }
      }
      throw reader.error("the table has no \"rows\"")
    } catch {
      if let newer {
        throw StoreError.newerFormat(
          file: path, line: newer.syntax.line, column: newer.syntax.column, found: newer.found,
          supported: Codec.formatVersion)
      }
      throw StoreError(file: path, syntax: error)
    }
  }

  /// Reads just the header from a file's first bytes; nil when the file does not exist.
  static func readHeader(path: String) throws(StoreError) -> Header? {
    guard let prefix = try StoreFileSystem.read(path, limit: 65_536) else { return nil }
    // Opening reads only the header, so check the end too: a truncated table is found at
    // open, before any change is accepted, at the cost of one 4-byte read.
    let ending: [UInt8] = Array("\n]}\n".utf8)
    guard let tail = try StoreFileSystem.readTail(path, count: ending.count), tail == ending else {
      // Only a damaged table pays for finding where it stops.
      let bytes = try StoreFileSystem.read(path) ?? []
      let line = bytes.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
      let column = bytes.count - (bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
      throw StoreError(
        .corrupt, file: path, line: line, column: column,
        message:
          "the table ends early (truncated?): it must end with ]}; nothing was changed, restore the file from a backup or run weigh check"
      )
    }
    do {
      return try JSONReader.withReader(over: prefix) { (reader) throws(StoreError) in
        try readHeader(&reader, path: path)
      }
    } catch  where prefix.count == 65_536 && error.kind == .corrupt {
      // A header longer than the prefix (unusual members): read the whole file.
      guard let bytes = try StoreFileSystem.read(path) else { return nil }
      return try JSONReader.withReader(over: bytes) { (reader) throws(StoreError) in
        try readHeader(&reader, path: path)
      }
    }
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
    try StoreFileSystem.withMappedFile(path) { (bytes) throws(StoreError) in
      var reader = JSONReader(bytes: bytes)
      let header = try readHeader(&reader, path: path)
      if bytes.count >= 4 << 20, let rows = readInHalves(reader) {
        return (header, rows)
      }
      do throws(JSONSyntaxError) {
        var previousID = 0
        let rows = try readRows(&reader, until: nil, previousID: &previousID)
        try readTrailer(&reader)
        return (header, rows)
      } catch {
        throw StoreError(file: path, syntax: error)
      }
    }
  }

  /// Reads rows up to the closing `]`, or up to the first row that starts at or after `limit`.
  private static func readRows(
    _ reader: inout JSONReader, until limit: Int?, previousID: inout Int,
    reservingFor reserved: Int? = nil
  ) throws(JSONSyntaxError) -> [Codec.Row] {
    var rows: [Codec.Row] = []
    // Rows are about 110 bytes; reserving avoids repeated copies of a large array.
    rows.reserveCapacity((reserved ?? (limit ?? reader.bytes.count) - reader.offset) / 96)
    while try reader.nextElement() {
      reader.skipWhitespace()
      let start = reader.offset
      if let limit, start >= limit { break }
      let row = try Codec.decode(from: &reader)
      let id = Codec.id(of: row)
      guard id > previousID else {
        throw reader.error(
          "row id \(id) is not greater than the id \(previousID) before it", at: start)
      }
      previousID = id
      rows.append(row)
    }
    return rows
  }

  private static func readTrailer(_ reader: inout JSONReader) throws(JSONSyntaxError) {
    guard try reader.nextKey() == nil else {
      throw reader.error("\"rows\" must be the last member of a table file")
    }
    try reader.expectEnd()
  }

  private static func readInHalves(_ reader: JSONReader) -> [Codec.Row]? {
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
      if half == 0 {
        // Room for both halves, so that appending the second one does not reallocate.
        guard
          let rows = try? readRows(
            &reader, until: starts[1], previousID: &previousID,
            reservingFor: shared.bytes.count - starts[0]),
          reader.offset == starts[1]
        else { return }
        halves[0].rows = rows
      } else {
        guard let rows = try? readRows(&reader, until: nil, previousID: &previousID),
          (try? readTrailer(&reader)) != nil
        else { return }
        halves[1].rows = rows
      }
    }
    guard var rows = halves[0].rows, let second = halves[1].rows,
      let last = rows.last, let next = second.first, Codec.id(of: next) > Codec.id(of: last)
    else { return nil }
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
      _ = try readHeader(&reader, path: path)
      let rowsStart = reader.offset
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
      func rowID(at position: Int) -> Int? {
        var probe = JSONReader(bytes: bytes, offset: position)
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
      guard let first = rowStart(atOrAfter: low) else { return [] }
      var rows: [Codec.Row] = []
      do throws(JSONSyntaxError) {
        var tail = JSONReader(bytes: bytes, offset: first)
        tail.resumeArray()
        var previousID = 0
        for row in try readRows(&tail, until: nil, previousID: &previousID)
        where Codec.id(of: row) > id {
          rows.append(row)
        }
        try readTrailer(&tail)
      } catch {
        return nil
      }
      return rows
    }
  }

  /// The file's bytes for `rows` (in increasing id order) as of `sequence`.
  ///
  /// - Complexity: O(n).
  static func encode(_ rows: [Codec.Row], sequence: Int) -> [UInt8] {
    var writer = JSONWriter()
    writer.bytes.reserveCapacity(rows.count * 110 + 128)
    writer.raw("{\"format\":")
    writer.write(Codec.formatName)
    writer.raw(",\"version\":")
    writer.write(Codec.formatVersion)
    writer.raw(",\"sequence\":")
    writer.write(sequence)
    writer.raw(",\"rows\":[")
    for (index, row) in rows.enumerated() {
      writer.raw(index == 0 ? "\n" : ",\n")
      Codec.encode(row, into: &writer)
    }
    writer.raw("\n]}\n")
    return writer.bytes
  }
}
