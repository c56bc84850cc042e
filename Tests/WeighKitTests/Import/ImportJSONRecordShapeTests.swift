import PropertyBased
import Testing

@testable import WeighKit

/// Records read by the last record's shape (`ImportJSONRecordShape`) read what the general
/// reader reads: the same lines, values and errors, on random files of Fitbit-like logs each
/// of which may differ from the one before in one way (keys reordered, missing, added or
/// repeated, escapes, whitespace, a value of another kind, nested values, CRLF, bytes past
/// ASCII, a file cut short).
@Suite struct ImportJSONRecordShapeTests {
  static let keys = ["weight", "date", "time", "source"]

  struct Read: Equatable {
    var line: Int
    var isObject: Bool
    var values: [ImportJSONReader.Scalar?]
  }

  static func read(_ bytes: [UInt8], byShape: Bool) -> Result<[Read], ImportError> {
    var records: [Read] = []
    do {
      _ = try ImportJSONReader.parse(
        bytes, streaming: .document, keys: keys, byShape: byShape
      ) { record in
        records.append(Read(line: record.line, isObject: record.isObject, values: record.values))
      }
      return .success(records)
    } catch let error as ImportError {
      return .failure(error)
    } catch {
      Issue.record("not an ImportError: \(error)")
      return .success([])
    }
  }

  /// A log's members after `change` (codes past the last change leave the log as it is);
  /// `pick` varies the values.
  static func log(_ change: Int, _ pick: Int, between inner: String = ",") -> String {
    let weights = ["132.3", "99", "0.5", "-1", "1234567890123", "133.1"]
    var members = [
      "\"logId\":14200704\(pick % 10)0000", "\"weight\":\(weights[pick % weights.count])",
      "\"bmi\":23.4", "\"date\":\"01/0\(pick % 9 + 1)/15\"", "\"time\":\"00:0\(pick % 10):00\"",
      "\"source\":\"Aria\"",
    ]
    var separator = inner
    var open = "{"
    var close = "}"
    switch change {
    case 0: members.swapAt(1, 3)
    case 1: members.remove(at: 4)
    case 2: members.insert("\"fat\":21.5", at: 3)
    case 3: members.insert("\"weight\":140", at: 2)
    case 4: members[1] = "\"w\\u0065ight\":131"
    case 5: members[5] = "\"source\":\"Ar\\u0069a\""
    case 6: members[1] = "\"weight\" : 132.3"
    case 7: members[3] = "\"date\":20150101"
    case 8: members[5] = "\"source\":{\"a\":[1,{\"b\":null}]}"
    case 9: separator = ",\r\n"
    case 10: members[5] = "\"source\":\"Ari\u{e1}\""
    case 11: members[5] = "\"source\":null"
    case 12: members[2] = "\"bmi\":true"
    case 13: members[1] = "\"weight\":\"132.3\""
    case 14: members[1] = "\"weight\":1.3e2"
    case 15: members[1] = "\"weight\":01"
    case 16: return "7"
    case 17: members = []
    case 18: members[1] = "\"weight\" 1"
    case 19: close = " }"
    case 20: open = "{ "
    case 21: members[2] = "\"bmi\":nul"
    case 22: members[4] = "\"time\":\"00:00\u{1}\""
    case 23: members[1] = "\"weight\":132."
    case 24: members[5] = "\"source\":\"\""
    case 25: members[0] = "\"logId\":null"
    case 26: members[1] = "\"weight\":  99"
    case 27: members.append("\"source\":\"Other\"")
    // After a log whose source is `null` (change 11): whitespace before `null` this time.
    case 28: members[5] = "\"source\":\n null"
    default: break
    }
    return open + members.joined(separator: separator) + close
  }

  @Test func recordsReadByShapeReadAsTheGeneralReaderReads() async {
    await propertyCheck(
      count: 4000, input: Gen.int(in: 0...60).array(of: 1...14), Gen.int(in: 0...59)
    ) { changes, style in
      let between = [",\n ", ",", ",\r\n", " ,\n"][style % 4]
      var text =
        "["
        + changes.enumerated().map { index, change in
          // Members on lines of their own in some files: a shape's segments hold newlines.
          Self.log(change, index + style, between: [",", ",\n    ", ", ", ",\r\n"][style / 4 % 4])
        }
        .joined(separator: between) + "]"
      if style % 7 == 0 { text += "\n" }
      var bytes = Array(text.utf8)
      // Sometimes cut short, so that a record lies at the very end of the text.
      if style % 5 == 0 { bytes.removeLast(min(bytes.count, 1 + style % 37)) }
      text = String(decoding: bytes, as: UTF8.self)
      let byShape = Self.read(bytes, byShape: true)
      let general = Self.read(bytes, byShape: false)
      switch (byShape, general) {
      case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
      case (.failure(let a), .failure(let b)):
        #expect(a.message == b.message && a.line == b.line && a.column == b.column, "\(text)")
      default: Issue.record("one way failed: \(text)")
      }
    }
  }

  /// Long files, of logs of one shape and of logs whose shape changes often (past the misses
  /// after which the shape is no longer tried), read as the general reader reads them, line
  /// numbers included.
  @Test func longFilesReadAsTheGeneralReaderReads() throws {
    let weights = ["132.3", "99", "0.5", "-1", "1234567890123", "133.1"]
    // The changes that leave the file readable.
    let changes = [
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 20, 24, 25, 26, 27,
    ]
    for changing in [false, true] {
      let text =
        "["
        + (0..<500).map { Self.log(changing && $0 % 3 == 0 ? changes[$0 % changes.count] : 99, $0) }
        .joined(separator: ",\n ") + "]"
      let bytes = Array(text.utf8)
      let byShape = Self.read(bytes, byShape: true)
      #expect(try byShape.get() == Self.read(bytes, byShape: false).get())
      let read = try byShape.get()
      #expect(read.count == 500)
      // Logs with CRLF between their members take two lines.
      if !changing { #expect(read[499].line == 500) }
      #expect(read[499].values[0] == .number(weights[499 % 6]))
    }
  }
}
