/// Writes a ``DataTable`` as JSON Lines: one object per row, keys in column order.
enum JSONLinesRenderer {
  /// One line of JSON per row.
  static func lines(of table: DataTable) -> [String] {
    table.rows.map { row in
      var writer = JSONWriter()
      writer.raw(byte: 0x7B)
      for (index, (column, value)) in zip(table.columns, row).enumerated() {
        if index > 0 { writer.raw(byte: 0x2C) }
        writer.write(column)
        writer.raw(byte: 0x3A)
        write(value, into: &writer)
      }
      writer.raw(byte: 0x7D)
      return String(decoding: writer.bytes, as: UTF8.self)
    }
  }

  private static func write(_ value: DataValue, into writer: inout JSONWriter) {
    switch value {
    case .text(let text), .date(let text): writer.write(text)
    case .integer(let integer): writer.write(integer)
    case .number(let number): writer.write(number)
    case .instant(let instant): writer.write(WeighFileInstant.format(instant))
    case .bool(let flag): writer.write(flag)
    case .null: writer.raw("null")
    }
  }
}
