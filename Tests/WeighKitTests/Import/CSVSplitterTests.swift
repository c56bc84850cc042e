import PropertyBased
import Testing

@testable import WeighKit

/// The row splitter against a plain byte-at-a-time reading of the same rules (the splitter
/// before rows without quotes were read as ranges of the chunk): the same rows, fields,
/// quoting, lines and errors, whatever the separator and wherever the chunks end.
@Suite struct CSVSplitterTests {
  /// Rows (line, fields, quoted) or the error, as a value to compare.
  private func split(_ chunks: [[UInt8]], separator: UInt8) -> [String] {
    var parser = CSVParser(separator: separator)
    var rows: [String] = []
    let body: (CSVRow) -> Void = { row in rows.append(Self.describe(row.line, row.fields)) }
    do {
      for chunk in chunks where !chunk.isEmpty {
        try chunk.withUnsafeBufferPointer { try parser.feed($0, body) }
      }
      try parser.finish(body)
    } catch let error as ImportError {
      rows.append("error \(error.line ?? 0): \(error.message)")
    } catch {
      rows.append("other error")
    }
    return rows
  }

  private static func describe(_ line: Int, _ fields: [CSVField]) -> String {
    "\(line):" + fields.map { "\($0.quoted ? "q" : "")[\($0.text)]" }.joined(separator: ",")
  }

  @Test func plainRowsReadAsTheRulesSay() async {
    // Quotes, doubled quotes, text after a closing quote, CR, CRLF and LF in and out of
    // quotes, blank lines, empty fields, every separator weigh reads (and `\r`, which
    // `delimiter` allows), rows cut short at the end.
    let alphabet = [
      "2026-01-03 07:00", "71.5", "a", ",", ";", "\t", "\"", "\"\"", "\"x\"", "\r", "\n", "\r\n",
      "é", " ", ",,",
    ].map { Array($0.utf8) }
    let separators: [UInt8] = [0x2C, 0x3B, 0x09, 0x0D, 0x20]
    await propertyCheck(
      count: 3000, input: Gen.int(in: 0...14).array(of: 0...40), Gen.int(in: 0...100_000)
    ) { picks, seed in
      let bom: [UInt8] = seed % 5 == 0 ? [0xEF, 0xBB, 0xBF] : []
      let bytes = bom + picks.flatMap { alphabet[$0] }
      let separator = separators[seed % separators.count]
      let expected = Reference.split(bytes, separator: separator)
      #expect(split([bytes], separator: separator) == expected, "\(bytes)")
      // Cut into chunks of a size the seed picks (the first holds the byte order mark).
      let size = 3 + seed % 7
      var chunks = [Array(bytes.prefix(size))]
      var start = size
      while start < bytes.count {
        chunks.append(Array(bytes[start..<min(bytes.count, start + size)]))
        start += size
      }
      #expect(split(chunks, separator: separator) == expected, "\(bytes) in \(size)")
    }
  }

  @Test func aRowOfRangesKeepsItsFieldsApart() {
    let text = "date,kg,note\n\"2026-01-03 07:00\",71.5,\r\n,,\r\n\n\"a\"\"b\",\"c\"d,\"\"\n"
    #expect(
      split([Array(text.utf8)], separator: 0x2C) == [
        "1:[date],[kg],[note]", "2:q[2026-01-03 07:00],[71.5],[]", "3:[],[],[]",
        "5:q[a\"b],q[cd],q[]",
      ])
  }

  /// The splitting rules read one byte at a time.
  private enum Reference {
    static func split(_ input: [UInt8], separator: UInt8) -> [String] {
      var bytes = input[...]
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
      var rows: [String] = []
      var fields: [CSVField] = []
      var text: [UInt8] = []
      var quoted = false
      var inQuotes = false
      var afterQuote = false
      var atFieldStart = true
      var pendingCR = false
      var line = 1
      var rowLine = 1
      var openLine = 1
      func endField() {
        fields.append(CSVField(text: String(decoding: text, as: UTF8.self), quoted: quoted))
        text = []
        quoted = false
        atFieldStart = true
      }
      func endRow() {
        endField()
        if !(fields.count == 1 && fields[0].text.isEmpty && !fields[0].quoted) {
          rows.append(CSVSplitterTests.describe(rowLine, fields))
        }
        fields = []
        line += 1
        rowLine = line
      }
      for byte in bytes {
        if inQuotes {
          if afterQuote {
            afterQuote = false
            if byte == 0x22 {
              text.append(0x22)
              continue
            }
            inQuotes = false
          } else {
            if byte == 0x22 {
              afterQuote = true
            } else {
              if byte == 0x0A { line += 1 }
              text.append(byte)
            }
            continue
          }
        }
        if pendingCR {
          pendingCR = false
          if byte == 0x0A {
            endRow()
            continue
          }
          text.append(0x0D)
          atFieldStart = false
        }
        if byte == 0x22, atFieldStart {
          quoted = true
          inQuotes = true
          openLine = line
          atFieldStart = false
        } else if byte == separator {
          endField()
        } else if byte == 0x0A {
          endRow()
        } else if byte == 0x0D {
          pendingCR = true
        } else {
          text.append(byte)
          atFieldStart = false
        }
      }
      if inQuotes, !afterQuote {
        rows.append("error \(openLine): a quoted field is never closed; add the closing '\"'")
        return rows
      }
      if pendingCR { text.append(0x0D) }
      if !text.isEmpty || !fields.isEmpty || quoted {
        endField()
        rows.append(CSVSplitterTests.describe(rowLine, fields))
      }
      return rows
    }
  }
}
