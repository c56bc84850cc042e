import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// The streaming readers: a file read in chunks gives what its bytes read at once give, and
/// numbers read from bytes are the numbers read from text.
@Suite struct StreamingReaderTests {
  /// Rows (line, fields, quoted) or the error, as a value to compare.
  private func read(_ chunks: [[UInt8]]) -> String {
    var parser = CSVParser(separator: 0x2C)
    var rows: [String] = []
    let body: (CSVRow) -> Void = { row in
      rows.append("\(row.line):\(row.fields.map { "\($0.quoted ? "q" : "")[\($0.text)]" })")
    }
    do {
      for chunk in chunks {
        try chunk.withUnsafeBufferPointer { try parser.feed($0, body) }
      }
      try parser.finish(body)
    } catch let error as ImportError {
      rows.append("error \(error.line ?? 0): \(error.message)")
    } catch {
      rows.append("other error")
    }
    return rows.joined(separator: "\n")
  }

  @Test func rowsDoNotDependOnWhereChunksEnd() async {
    // Quotes, doubled quotes, CR, CRLF and LF in and out of quotes, blank lines, separators.
    let alphabet = ["a", "7", ",", "\"", "\"\"", "\r", "\n", "\r\n", "é", " "].map {
      Array($0.utf8)
    }
    await propertyCheck(
      count: 1500, input: Gen.int(in: 0...9).array(of: 0...30), Gen.int(in: 0...1000)
    ) { picks, seed in
      let bom: [UInt8] = seed % 4 == 0 ? [0xEF, 0xBB, 0xBF] : []
      let bytes = bom + picks.flatMap { alphabet[$0] }
      let whole = read([bytes])
      // Every cut into two chunks (after the byte order mark's three bytes), and into one-byte
      // chunks.
      for cut in min(3, bytes.count)...bytes.count {
        #expect(read([Array(bytes[..<cut]), Array(bytes[cut...])]) == whole)
      }
      let single = bytes.count > 3 ? [Array(bytes[..<3])] + bytes[3...].map { [$0] } : [bytes]
      #expect(read(single) == whole)
    }
  }

  @Test func rowsKeepTheirLinesAcrossQuotedNewlines() {
    let text = "a,\"b\r\nc\",\"\"\r\n\r\nx,,\"y\"\"z\"\n\"p\"q,\rr\n"
    #expect(
      read([Array(text.utf8)])
        == """
        1:["[a]", "q[b\\r\\nc]", "q[]"]
        4:["[x]", "[]", "q[y\\"z]"]
        5:["q[pq]", "[\\rr]"]
        """)
  }

  @Test func bytesReadAsTheTextWouldBe() async {
    let alphabet = Array("0123456789.+-e x".utf8)
    await propertyCheck(count: 5000, input: Gen.int(in: 0...15).array(of: 1...24)) { picks in
      let bytes = picks.map { alphabet[$0] }
      let text = String(decoding: bytes, as: UTF8.self)
      let fromBytes = DecimalText.parse(utf8: bytes[...])
      let fromText = DecimalText.parse(text)
      #expect(fromBytes?.bitPattern == fromText?.bitPattern, "\(text)")
    }
  }

  @Test func whiteSpaceIsTrimmedAsFoundationTrimsIt() async {
    let alphabet = [" ", "\t", "a", "7", "\u{A0}", "\u{2003}", "é", "\n", "\u{301}"]
    await propertyCheck(count: 3000, input: Gen.int(in: 0...8).array(of: 0...12)) { picks in
      let text = picks.map { alphabet[$0] }.joined()
      #expect(text.trimmedWhitespace == text.trimmingCharacters(in: .whitespaces), "\(text)")
    }
  }

  @Test func weightsReadExactlyAsDoubleReadsThem() async {
    // Digits on both sides of the point, up to 17 digits, so both paths are taken.
    await propertyCheck(
      count: 5000, input: Gen.int(in: 0...999_999_999), Gen.int(in: 0...99_999_999),
      Gen.int(in: 0...8)
    ) { whole, fraction, shift in
      let text = "\(whole).\(String(fraction).prefix(shift))"
      #expect(
        DecimalText.parse(utf8: Array(text.utf8)[...])?.bitPattern
          == Double(text)?.bitPattern, "\(text)")
    }
  }

  @Test func aFileReadInChunksImportsWhatItsBytesImport() throws {
    // More than two chunks, rows and a quoted note straddling the chunk ends, bad rows.
    var text = "Date,\"Weight (kg)\",\"Fat mass (kg)\",Comments\n"
    var row = 0
    while text.utf8.count < 2 * ImportInput.chunkSize + 100_000 {
      let minute = row % 60
      let hour = row / 60 % 24
      let day = row / 1440 % 28 + 1
      let month = row / 40_320 % 12 + 1
      let weight = row % 97 == 0 ? "heavy" : "\(60 + row % 400).\(row % 100)"
      let note = row % 13 == 0 ? "\"line one\nline \"\"two\"\"\"" : ""
      text += String(
        format: "\"2020-%02d-%02d %02d:%02d:00\",%@,15.1,%@\n", month, day, hour, minute, weight,
        note)
      row += 1
    }
    let bytes = Array(text.utf8)
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "streaming-\(UUID().uuidString).csv")
    try Data(bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let fromFile = try WithingsCSVImporter.importWeights(ImportInput.file(url), zone: .utc)
    let fromBytes = try WithingsCSVImporter.importWeights(bytes, zone: .utc)
    #expect(fromFile == fromBytes)
    #expect(fromFile.rejections.count == (row + 96) / 97)
    #expect(fromFile.weights.count + fromFile.duplicatesInFile + fromFile.rejections.count == row)
    #expect(fromFile.weights.contains { $0.note == "line one\nline \"two\"" })
  }
}
