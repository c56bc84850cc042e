/// Reads and writes `journal.jsonl`: a header line, then one line per committed transaction
/// with a strictly increasing sequence number:
///
///     {"format":"weigh-journal","version":1}
///     {"seq":43,"changes":[{"put":"entries","row":{"id":7,…}},{"remove":"entries","id":3}]}
///     {"seq":44,"changes":[{"set":"settings","value":{"unit":"kg"}},{"unset":"goal"}]}
///
/// A last line without its newline is a commit that was interrupted before it was
/// acknowledged: reading skips it, and the next append cuts it off.
enum StoreJournal {
  static let fileName = "journal.jsonl"
  static let formatName = "weigh-journal"
  static let formatVersion = 1

  /// One committed transaction.
  struct Transaction {
    var sequence: Int
    var changes: [StoreChange]
  }

  /// What a journal file holds.
  struct Contents {
    var transactions: [Transaction] = []
    /// Bytes up to the end of the last complete line.
    var completeLength = 0
    /// Bytes of an unterminated last line after that.
    var tornLength = 0
    /// False for an empty journal (or one whose header line was cut short).
    var hasHeader = false
  }

  static var header: [UInt8] {
    Array("{\"format\":\"\(formatName)\",\"version\":\(formatVersion)}\n".utf8)
  }

  /// Parses every line; `table` finds the storage (and codec) for a table name.
  ///
  /// - Complexity: O(n) in the journal's size.
  static func parse(
    _ bytes: [UInt8], path: String, table: (String) -> (any AnyTableStorage)?
  ) throws(StoreError) -> Contents {
    var newer: (found: Int, syntax: JSONSyntaxError)?
    do {
      return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in
        var contents = Contents()
        var offset = 0
        var previous = 0
        var isHeader = true
        while offset < buffer.count {
          var end = offset
          while end < buffer.count && buffer[end] != 0x0A { end += 1 }
          let line = UnsafeBufferPointer(rebasing: buffer[offset..<end])
          let isBlank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
          if end == buffer.count && !isBlank {
            // No newline: an append cut short before it was acknowledged.
            contents.tornLength = buffer.count - offset
            break
          }
          if !isBlank {
            var reader = JSONReader(
              bytes: UnsafeBufferPointer(rebasing: buffer[0..<end]), offset: offset)
            if isHeader {
              if let found = try readHeader(&reader) {
                newer = (found, reader.error("", at: offset))
                throw newer!.syntax
              }
              isHeader = false
            } else {
              let transaction = try readTransaction(&reader, table: table)
              guard transaction.sequence > previous else {
                throw reader.error(
                  "sequence \(transaction.sequence) is not greater than the \(previous) before it",
                  at: offset)
              }
              previous = transaction.sequence
              contents.transactions.append(transaction)
            }
            try reader.expectEnd()
          }
          offset = min(end + 1, buffer.count)
          contents.completeLength = offset
        }
        contents.hasHeader = !isHeader
        return contents
      }
    } catch {
      if let newer {
        throw StoreError.newerFormat(
          file: path, line: newer.syntax.line, column: newer.syntax.column, found: newer.found,
          supported: formatVersion)
      }
      throw StoreError(file: path, syntax: error)
    }
  }

  /// Reads the header line; returns a newer version number if the journal has one.
  private static func readHeader(_ reader: inout JSONReader) throws(JSONSyntaxError) -> Int? {
    try reader.beginObject()
    var sawFormat = false
    var sawVersion = false
    while let key = try reader.nextKey() {
      if key.equals("format") {
        let name = try reader.readRawString()
        guard name.equals("weigh-journal") else {
          throw reader.error("expected format \"\(formatName)\"", at: name.offset)
        }
        sawFormat = true
      } else if key.equals("version") {
        let version = try reader.readInt()
        if version > formatVersion { return version }
        sawVersion = true
      } else {
        try reader.skipValue()
      }
    }
    guard sawFormat, sawVersion else {
      throw reader.error("the journal header lacks \"format\" or \"version\"")
    }
    return nil
  }

  private static func readTransaction(
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
    while let key = try reader.nextKey() {
      guard key.equals("changes") else {
        try reader.skipValue()
        continue
      }
      try reader.beginArray()
      while try reader.nextElement() {
        changes.append(try readChange(&reader, table: table))
      }
    }
    return Transaction(sequence: sequence, changes: changes)
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

  /// One journal line for a transaction.
  static func encode(sequence: Int, changes: [StoreChange]) throws(StoreError) -> [UInt8] {
    var writer = JSONWriter()
    writer.raw("{\"seq\":")
    writer.write(sequence)
    writer.raw(",\"changes\":[")
    for (index, change) in changes.enumerated() {
      if index > 0 { writer.raw(byte: 0x2C) }
      switch change {
      case .put(let row):
        writer.raw("{\"put\":")
        writer.write(row.table)
        writer.raw(",\"row\":")
        row.encode(&writer)
      case .remove(let table, let id):
        writer.raw("{\"remove\":")
        writer.write(table)
        writer.raw(",\"id\":")
        writer.write(id)
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
    writer.raw("]}\n")
    if writer.wroteNonFiniteNumber {
      throw StoreError(
        .invalidChange, message: "cannot store a number that is not finite (NaN or infinity)")
    }
    return writer.bytes
  }
}
