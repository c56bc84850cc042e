import PropertyBased
import Testing

@testable import WeighKit

/// Keys recognized in place (`ImportJSONKeys`) read what reading each key as a string read:
/// the same values for the same keys, the same errors at the same places, on random records
/// whose members come in changing orders, with names asked for, names not asked for, escaped
/// names, duplicates and broken text (docs/performance.md, "The JSON readers' keys in place").
@Suite struct ImportJSONKeysTests {
  static let keys = [
    "weight", "date", "source", "aVeryLongMemberNameOfMoreThan16", "fileTime", "measuredAtTime",
    "fifteenLettersX",
  ]

  /// The records of `text` as the tree reads them: each element's values of `keys`.
  static func throughTheTree(_ bytes: [UInt8]) throws -> [[ImportJSONReader.Scalar?]] {
    var records: [[ImportJSONReader.Scalar?]] = []
    _ = try ImportJSONReader.parse(bytes, streaming: .document) { node in
      records.append(
        keys.map { key -> ImportJSONReader.Scalar? in
          guard let value = node.value[key]?.value else { return nil }
          switch value {
          case .string(let text): return .string(text)
          case .number(let text): return .number(text)
          case .null: return .null
          default: return .other
          }
        })
    }
    return records
  }

  /// The records of `text` read member by member, keys recognized in place.
  static func inPlace(_ bytes: [UInt8]) throws -> [[ImportJSONReader.Scalar?]] {
    var records: [[ImportJSONReader.Scalar?]] = []
    _ = try ImportJSONReader.parse(bytes, streaming: .document, keys: keys) { record in
      records.append(record.isObject ? record.values : keys.map { _ in nil })
    }
    return records
  }

  @Test func keysRecognizedInPlaceReadAsReadAsStrings() async {
    let members = [
      "\"weight\":1", "\"weight\" : 2.5", "\"date\":\"x\"", "\"source\":\"Aria\"",
      "\"logId\":7", "\"bmi\":null", "\"w\\u0065ight\":3", "\"weigh\":4", "\"weightt\":5",
      "\"aVeryLongMemberNameOfMoreThan16\":6", "\"aVeryLongMemberNameOfMoreThan1\":7",
      "\"aVeryLongMemberNameOfMoreThan166\":8", "\"é\":9", "\"\":10", "\"source\":[1]",
      "\"date\" 1", "weight:1", "\"da\u{1}te\":1", "\"date\":{\"weight\":2}",
      // Names of 8 to 16 bytes: one word and the quote, or two words.
      "\"fileTime\":11", "\"fileTimes\":12", "\"fileTim\":13", "\"measuredAtTime\":14",
      "\"measuredAtTimE\":15", "\"measuredAtTimeX\":16", "\"fifteenLettersX\":17",
      "\"fifteenLettersY\":18", "\"sixteenLettersXY\":19", "\"fileTime\" :20",
      // Strings decoded (escapes, past ASCII): each kept in the record's own slot.
      "\"date\":\"\\u00e9t\\u00e9\"", "\"source\":\"M\u{fc}nchen\"", "\"weight\":\"\u{e9}\"",
      "\"source\":\"a\\tb\"", "\"fileTime\":\"\\\"q\"",
    ]
    await propertyCheck(
      count: 3000, input: Gen.int(in: 0...99).array(of: 0...6).array(of: 1...5),
      Gen.int(in: 0...3)
    ) { records, cut in
      var text =
        "["
        + records.map { picks in
          "{" + picks.map { members[$0 % members.count] }.joined(separator: ",") + "}"
        }.joined(separator: ",\n ") + "]"
      // Sometimes cut short, so that a key lies at the very end of the text.
      if cut == 0 { text = String(text.dropLast(1 + records.count % 9)) }
      let bytes = Array(text.utf8)
      let tree = Result { try Self.throughTheTree(bytes) }
      let keys = Result { try Self.inPlace(bytes) }
      switch (tree, keys) {
      case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
      case (.failure(let a as ImportError), .failure(let b as ImportError)):
        #expect(a.message == b.message && a.line == b.line && a.column == b.column, "\(text)")
      default: Issue.record("one way failed: \(text)")
      }
    }
  }

  @Test func aNameIsKeptOnlyWhenItReadsAsItself() {
    #expect(ImportJSONKeys.isPlain(Array("logId".utf8)))
    #expect(!ImportJSONKeys.isPlain(Array("a\\u0065".utf8)))
    #expect(!ImportJSONKeys.isPlain(Array("a\"b".utf8)))
    #expect(!ImportJSONKeys.isPlain(Array("é".utf8)))
    #expect(!ImportJSONKeys.isPlain([0x61, 0x1F]))
  }
}

/// `JSONReader.readRawString` going on at the first special byte of a word reads what a
/// byte-by-byte scan reads: the same bytes, flags and errors, on random strings.
@Suite struct JSONReaderStringScanTests {
  /// The index of the first byte of `bytes` that is `"`, `\`, below 0x20 or above 0x7F.
  static func firstSpecial(_ bytes: [UInt8]) -> Int? {
    bytes.firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 > 0x7F }
  }

  @Test func theLowestBitSetIsTheFirstSpecialByte() async {
    let pool: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x1F, 0x20, 0x21, 0x41, 0x7F, 0x80, 0xFF, 0x5B]
    await propertyCheck(count: 4000, input: Gen.int(in: 0...11).array(of: 8...8)) { picks in
      let bytes = picks.map { pool[$0] }
      let word = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      let special = JSONReader.specialBytes(word)
      let first = Self.firstSpecial(bytes)
      #expect((special == 0) == (first == nil), "\(bytes)")
      if let first { #expect(special.trailingZeroBitCount >> 3 == first, "\(bytes)") }
    }
  }

  @Test func stringsReadAsByteByByte() async {
    let pieces = ["a", "Aria", "01/01/15", "\\\"", "\\n", "é", "\u{1}", "\\", " ", "12345678"]
    await propertyCheck(count: 3000, input: Gen.int(in: 0...9).array(of: 0...6)) { picks in
      let body = picks.map { pieces[$0] }.joined()
      for closed in [true, false] {
        let bytes = Array(("\"" + body + (closed ? "\"" : "")).utf8)
        let read: Result<[UInt8], JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
          var reader = JSONReader(bytes: buffer)
          return Result { () throws(JSONSyntaxError) -> [UInt8] in
            let raw = try reader.readRawString()
            let text = Array(raw.raw)
            #expect(raw.isASCII == !text.contains { $0 > 0x7F }, "\(bytes)")
            #expect(raw.hasEscapes == text.contains(0x5C), "\(bytes)")
            #expect(reader.offset == text.count + 2, "\(bytes)")
            return text
          }
        }
        // Byte by byte: up to the first quote not escaped; a control character or the end
        // first is an error.
        var index = 1
        var expected: [UInt8]?
        while index < bytes.count {
          let byte = bytes[index]
          if byte == 0x22 { expected = Array(bytes[1..<index]); break }
          if byte == 0x5C { index += 2; continue }
          if byte < 0x20 { break }
          index += 1
        }
        switch read {
        case .success(let raw): #expect(raw == expected, "\(bytes)")
        case .failure: #expect(expected == nil, "\(bytes)")
        }
      }
    }
  }
}

/// `JSONReader.readNumberBytes` and `skipNumber`, which check a plain number without
/// computing it, read what `readNumberText` (the full scan) reads: the same text, the same
/// place after it and the same error, on random text.
@Suite struct JSONReaderNumberCheckTests {
  @Test func plainNumbersCheckedAsScanned() async {
    let pieces = ["-", "0", "1", "7", "12", ".", "5", "e", "E", "+", "00", " ", ",", "x", "9"]
    await propertyCheck(count: 4000, input: Gen.int(in: 0...14).array(of: 0...7)) { picks in
      let bytes = Array(picks.map { pieces[$0] }.joined().utf8)
      bytes.withUnsafeBufferPointer { buffer in
        var full = JSONReader(bytes: buffer)
        let text = Result { () throws(JSONSyntaxError) -> String in try full.readNumberText() }
        var checked = JSONReader(bytes: buffer)
        let read = Result { () throws(JSONSyntaxError) -> String in
          String(decoding: try checked.readNumberBytes(), as: UTF8.self)
        }
        var skipped = JSONReader(bytes: buffer)
        let skip = Result { () throws(JSONSyntaxError) in try skipped.skipNumber() }
        #expect(read == text, "\(bytes)")
        #expect(skip.map { "" } == text.map { _ in "" }, "\(bytes)")
        if case .success = text {
          #expect(checked.offset == full.offset && skipped.offset == full.offset, "\(bytes)")
        }
      }
    }
  }
}
