/// One field of a CSV row; `quoted` tells `""` (an empty string) from an empty cell.
public struct CSVField: Hashable, Sendable {
  /// The text, with doubled quotes undone.
  public var text: String
  /// Whether the field was written in double quotes.
  public var quoted: Bool
}

/// One row of a CSV file and the line it starts on.
public struct CSVRow: Hashable, Sendable {
  /// The 1-based line the row starts on (a quoted newline makes a row span lines).
  public var line: Int
  /// The fields, in order.
  public var fields: [CSVField]

  /// The text of field `index`, or nil past the end of the row.
  public subscript(_ index: Int) -> String? {
    index < fields.count ? fields[index].text : nil
  }
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
    var fields: [CSVField] = []
    var field: [UInt8] = []
    var quoted = false
    var line = 1
    var rowLine = 1
    var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    let n = bytes.count
    func endField() {
      fields.append(CSVField(text: String(decoding: field, as: UTF8.self), quoted: quoted))
      field.removeAll(keepingCapacity: true)
      quoted = false
    }
    func endRow() throws {
      endField()
      if !(fields.count == 1 && fields[0].text.isEmpty && !fields[0].quoted) {
        try body(CSVRow(line: rowLine, fields: fields))
      }
      fields.removeAll(keepingCapacity: true)
    }
    while i < n {
      let byte = bytes[i]
      if byte == 0x22, field.isEmpty, !quoted {
        quoted = true
        let openLine = line
        i += 1
        while true {
          guard i < n else {
            throw ImportError(
              line: openLine, "a quoted field is never closed; add the closing '\"'")
          }
          let c = bytes[i]
          if c == 0x22 {
            if i + 1 < n, bytes[i + 1] == 0x22 {
              field.append(0x22)
              i += 2
              continue
            }
            i += 1
            break
          }
          if c == 0x0A { line += 1 }
          field.append(c)
          i += 1
        }
        continue
      }
      if byte == separator {
        endField()
      } else if byte == 0x0A {
        try endRow()
        line += 1
        rowLine = line
      } else if byte == 0x0D, i + 1 < n, bytes[i + 1] == 0x0A {
        // The \n that follows ends the row.
      } else {
        field.append(byte)
      }
      i += 1
    }
    if !field.isEmpty || !fields.isEmpty || quoted { try endRow() }
  }
}
