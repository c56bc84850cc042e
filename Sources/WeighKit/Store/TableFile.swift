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
          guard found >= 1 else { throw reader.error("format version must be 1 or more", at: position) }
          version = found
        } else if key.equals("sequence") {
          sequence = try reader.readInt()
        } else if key.equals("rows") {
          guard sawFormat, let version, let sequence else {
            throw reader.error("\"format\", \"version\" and \"sequence\" must come before \"rows\"", at: key.offset)
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
    do {
      return try JSONReader.withReader(over: prefix) { (reader) throws(StoreError) in
        try readHeader(&reader, path: path)
      }
    } catch where prefix.count == 65_536 && error.kind == .corrupt {
      // A header longer than the prefix (unusual members): read the whole file.
      guard let bytes = try StoreFileSystem.read(path) else { return nil }
      return try JSONReader.withReader(over: bytes) { (reader) throws(StoreError) in
        try readHeader(&reader, path: path)
      }
    }
  }

  /// Reads a whole table file, checking that ids increase strictly.
  ///
  /// - Complexity: O(n) in the file's size.
  static func read(_ bytes: [UInt8], path: String) throws(StoreError) -> (Header, [Codec.Row]) {
    try JSONReader.withReader(over: bytes) { (reader) throws(StoreError) in
      let header = try readHeader(&reader, path: path)
      var rows: [Codec.Row] = []
      // Rows are about 100 bytes; reserving avoids repeated copies of a large array.
      rows.reserveCapacity(bytes.count / 96)
      do throws(JSONSyntaxError) {
        var previousID = 0
        while try reader.nextElement() {
          reader.skipWhitespace()
          let start = reader.offset
          let row = try Codec.decode(from: &reader)
          let id = Codec.id(of: row)
          guard id > previousID else {
            throw reader.error("row id \(id) is not greater than the id \(previousID) before it", at: start)
          }
          previousID = id
          rows.append(row)
        }
        guard try reader.nextKey() == nil else {
          throw reader.error("\"rows\" must be the last member of a table file")
        }
        try reader.expectEnd()
      } catch {
        throw StoreError(file: path, syntax: error)
      }
      return (header, rows)
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

extension StoreError {
  /// The error for a file written by a newer weigh.
  static func newerFormat(
    file: String, line: Int?, column: Int?, found: Int, supported: Int
  ) -> StoreError {
    StoreError(
      .newerFormat, file: file, line: line, column: column,
      message:
        "written by a newer weigh: format version \(found), this weigh reads \(supported); "
        + "use a newer weigh with this store")
  }
}
