import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// The readers' byte paths read what their string paths read: random cells and documents
/// in each format, both ways, the same values and the same errors (docs/performance.md, "The
/// readers' own parsing").
@Suite struct ReaderFastPathTests {
  /// Pieces of dates and times, ISO and otherwise, and bytes that are none.
  static let datePieces = [
    "2026", "2015", "-", "01", "1", "12", "31", "29", "02", " ", "T", ":", "00", "07", "23",
    "59", "60", ".", "000", "5", "Z", "+01:00", "-0530", "+", "AM", "pm", " Uhr", "/", "Dec",
    "jan", "sept", ",", "\u{A0}", "é", "\t", "24", "13", "9", "1999",
  ]

  /// A date-like text: mostly well-formed ISO, sometimes pieces at random.
  static func dateText(_ picks: [Int], _ shape: Int) -> String {
    let random = picks.map { datePieces[$0 % datePieces.count] }.joined()
    let n = picks.first ?? 0
    let day = 1 + n % 31
    let iso = String(format: "2026-%02d-%02d", 1 + n % 12, day)
    let clock = String(format: "%02d:%02d", n % 25, n % 61)
    switch shape % 8 {
    case 0: return iso
    case 1: return iso + " " + clock
    case 2: return iso + "T" + clock + ":" + String(format: "%02d", n % 60)
    case 3: return iso + "T" + clock + ":07.000Z"
    case 4: return iso + " " + clock + ":07" + random
    case 5: return "  " + iso + " " + clock + " "
    default: return random
    }
  }

  @Test func noTextFitsTwoShapesOfOneList() async {
    let lists: [(String, [CSVDatePattern])] = [
      ("iso", CSVDatePattern.isoShapes), ("withings", WithingsCSVImporter.shapes),
      ("generic", GenericCSVImporter.autoShapes), ("garmin", GarminWeightCSVImporter.dayShapes),
    ]
    await propertyCheck(
      count: 3000, input: Gen.int(in: 0...200).array(of: 0...8), Gen.int(in: 0...7)
    ) { picks, shape in
      let bytes = Array(Self.dateText(picks, shape).utf8)[...]
      for (name, shapes) in lists {
        let fits = shapes.filter { $0.read(bytes: bytes) != nil }.map(\.text)
        #expect(fits.count <= 1, "\(name): \(String(decoding: bytes, as: UTF8.self)) fits \(fits)")
      }
    }
  }

  @Test func theRememberedShapeReadsWhatTheFirstFittingShapeReads() async {
    await propertyCheck(
      count: 500, input: Gen.int(in: 0...200).array(of: 1...6).array(of: 1...12),
      Gen.int(in: 0...7)
    ) { rows, shape in
      for shapes in [CSVDatePattern.isoShapes, WithingsCSVImporter.shapes] {
        let remembered = CSVDateShapes(shapes)
        for (index, picks) in rows.enumerated() {
          let bytes = Array(Self.dateText(picks, shape + index % 3).utf8)[...]
          #expect(remembered.read(bytes: bytes) == CSVDatePattern.first(shapes, bytes: bytes))
        }
      }
    }
  }

  @Test func monthNamesReadFromBytesAsFromLoweredText() {
    let names = [
      "Jan", "jAN", "DEC", "Sep", "sep", "Kan", "Ja", "J\u{212A}n", "Dé", "\u{212A}", "May",
    ]
    for name in names {
      let bytes = Array(name.utf8)
      guard bytes.count >= 3 else { continue }
      let lowered = String(decoding: bytes[0..<3], as: UTF8.self).lowercased()
      #expect(
        CSVDatePattern.monthIndex(bytes[0..<3])
          == CSVDatePattern.monthNames.firstIndex(of: lowered),
        "\(name)")
    }
  }

  // MARK: Garmin

  /// The clock as the reader read it before: the text after a fixed date, through the date
  /// shapes.
  static func clockThroughDates(_ text: String) -> Int? {
    let shapes = ["HH:mm", "H:mm", "h:mm a", "HH:mm:ss", "h:mm:ss a"].map {
      CSVDatePattern.known("yyyy-MM-dd " + $0)
    }
    return CSVDatePattern.first(shapes, Substring("2000-01-01 " + text.trimmedWhitespace))?
      .local.secondOfDay
  }

  @Test func garminClocksReadFromBytesAsThroughDates() async {
    let pieces = [
      "7", "07", "23", ":", "59", "60", "00", " ", "AM", "pm", "\t", "13", "\u{A0}", "é", "a",
    ]
    await propertyCheck(count: 4000, input: Gen.int(in: 0...14).array(of: 0...9)) { picks in
      let text = picks.map { pieces[$0] }.joined()
      let bytes = Array(text.utf8)[...]
      #expect(GarminWeightCSVImporter.time(bytes: bytes) == Self.clockThroughDates(text), "\(text)")
      #expect(GarminWeightCSVImporter.time(text) == Self.clockThroughDates(text), "\(text)")
    }
  }

  /// A weight cell read as the reader read it before: split into words as a string.
  static func weightThroughText(_ cell: String) -> Result<Double, ImportRejection> {
    Result { () throws(ImportRejection) -> Double in
      let (number, unit) = try GarminWeightCSVImporter.value(cell, line: 3)
      return try WeightValue.kilograms(number, unit: unit, line: 3)
    }
  }

  @Test func garminWeightsReadFromBytesAsFromText() async {
    let pieces = [
      "80.4", "177.2", " ", "kg", "lbs", "LB", "st", "--", "–", "\t", "x", "0", "1e3", "Kilograms",
      "g",
    ]
    await propertyCheck(count: 4000, input: Gen.int(in: 0...14).array(of: 0...5)) { picks in
      let cell = picks.map { pieces[$0] }.joined()
      let fromBytes = Result { () throws(ImportRejection) -> Double in
        try GarminWeightCSVImporter.kilograms(Array(cell.utf8)[...], line: 3)
      }
      #expect(fromBytes == Self.weightThroughText(cell), "\(cell)")
    }
  }

  @Test func unitNamesReadFromBytesAsFromText() {
    for name in [
      "kg", "KG", " kgs\t", "Kilograms", "lb", "LBS", "pounds", "g", "GRAMS", "st", "Stone", "k g",
      "kgé", "", "stones",
    ] {
      #expect(
        WeightValue.unit(named: Array(name.utf8)[...]) == WeightValue.unit(named: name), "\(name)")
    }
  }

  // MARK: openScale

  @Test func openScaleDatesAndTimesReadFromBytesAsFromText() async {
    let pieces = [
      "2025", "-", "08", "1", "11", "23", ":", "48", "05", ".", "123", " ", "\t", "x", "99",
      "\u{A0}",
    ]
    await propertyCheck(count: 4000, input: Gen.int(in: 0...15).array(of: 0...10)) { picks in
      let text = picks.map { pieces[$0] }.joined()
      let ascii = !text.utf8.contains { $0 >= 0x80 }
      if ascii {
        let bytes = Array(text.utf8)[...]
        #expect(
          LocalDateTime.time(ascii: bytes).map { [$0.0, $0.1, $0.2] }
            == LocalDateTime.time(Substring(text)).map { [$0.0, $0.1, $0.2] }, "\(text)")
      }
      #expect(
        LocalDateTime.time(text).map { [$0.0, $0.1, $0.2] }
          == LocalDateTime.time(Substring(text)).map { [$0.0, $0.1, $0.2] }, "\(text)")
      let row = CSVRow(line: 2, fields: [CSVField(text: text, quoted: false)])
      #expect(
        OpenScaleCSVImporter.isoDate(row, 0).map { [$0.0, $0.1, $0.2] }
          == LocalDateTime.isoDate(Substring(text.trimmedWhitespace)).map { [$0.0, $0.1, $0.2] },
        "\(text)")
    }
  }

  // MARK: weigh's CSV

  @Test func weighRowsReadFromBytesAsThroughTheirText() async {
    let cells: [[String]] = [
      ["1", "12", "+3", "0", "99999999999999999999", "x", "", "9223372036854775807"],
      [
        "2026-01-03T06:30:00Z", "2026-02-30T06:30:00Z", "1767421800", "1800-01-01T00:00:00Z",
        "2026-01-03T06:30:00", "x",
      ],
      ["71.25", "0", "1000", "1000.5", "-1", "7e1", "71.2500000000000001", "", " 71"],
      ["import", "manual", "health", "Import", "x"],
      ["Withings", "", "é"],
      ["", "a note"],
      ["1", "2147483647", "2147483648", "0", "+1", ""],
      ["", "B3F2AF6D-0FC7-40C5-853B-559647364CEA", "not-a-uuid"],
      ["", "B3F2AF6D-0FC7-40C5-853B-559647364CEA", "x"],
      ["", "1", "0", "3000000000", "x"],
    ]
    await propertyCheck(count: 3000, input: Gen.int(in: 0...99).array(of: 10...10)) { picks in
      let fields = zip(cells, picks).map { options, pick in
        CSVField(text: options[pick % options.count], quoted: pick % 7 == 0)
      }
      let row = CSVRow(line: 4, fields: fields)
      func optional(_ index: Int) -> String? {
        row.isQuoted(index) || !row.field(index).isEmpty ? row[index] : nil
      }
      let slow = Result { () throws(ImportRejection) -> ImportedWeight in
        try WeighEntryFields(
          id: row[0]!, instant: row[1]!, kilograms: row[2]!, origin: row[3]!, source: row[4]!,
          note: optional(5), revision: row[6]!, healthUUID: optional(7),
          pushedUUID: optional(8), pushedRevision: optional(9)
        ).weight(line: row.line)
      }
      if let fast = WeighCSVImporter.exported(row, optional) {
        #expect(slow == .success(fast), "\(fields)")
      }
    }
  }

  @Test func anExportedRowTakesTheBytePath() {
    let text = "7,2026-01-03T06:30:00Z,71.25,import,\"Withings\",,2,,,"
    let row = CSVRow(
      line: 2,
      fields: text.split(separator: ",", omittingEmptySubsequences: false).map {
        CSVField(text: String($0.replacing("\"", with: "")), quoted: $0.hasPrefix("\""))
      })
    let weight = WeighCSVImporter.exported(row) { row.field($0).isEmpty ? nil : row[$0] }
    #expect(weight?.number == 7)
    #expect(weight?.kilograms == 71.25)
    #expect(weight?.source == "Withings")
    #expect(weight?.entry?.revision == 2)
  }

  // MARK: JSON records

  /// A member's value as the tree holds it, as a record holds it.
  static func scalar(_ node: JSONNode?) -> ImportJSONReader.Scalar? {
    guard let node else { return nil }
    switch node.value {
    case .string(let text): return .string(text)
    case .number(let text): return .number(text)
    case .null: return .null
    default: return .other
    }
  }

  /// Records read both ways, or the error, as text to compare.
  static func bothWays(_ bytes: [UInt8], _ streamed: ImportJSONReader.StreamedArray, keys: [String])
    -> (tree: String, records: String)
  {
    let tree = lines { append in
      try ImportJSONReader.parse(bytes, streaming: streamed) { node in
        var isObject = false
        if case .object = node.value { isObject = true }
        append("\(node.line) \(isObject) \(keys.map { Self.scalar(node.value[$0]) })")
      }
    }
    let records = lines { append in
      try ImportJSONReader.parse(bytes, streaming: streamed, keys: keys) {
        (record: ImportJSONReader.Record) in
        append("\(record.line) \(record.isObject) \(record.values)")
      }
    }
    return (tree, records)
  }

  /// What `read` appends, then its document or its error, one per line.
  static func lines<Document>(_ read: ((String) -> Void) throws -> Document) -> String {
    var lines: [String] = []
    do {
      let document = try read { lines.append($0) }
      lines.append("document \(document)")
    } catch let error as ImportError {
      lines.append("error \(error.line ?? 0):\(error.column ?? 0) \(error.message)")
    } catch {
      lines.append("other error")
    }
    return lines.joined(separator: "\n")
  }

  @Test func recordsHoldWhatTheTreeHolds() async {
    let pieces = [
      "{", "}", "[", "]", ",", ":", "\"weight\"", "\"date\"", "\"w\\u0065ight\"", "\"source\"",
      "132.3", "-1e2", "01", "null", "nul", "true", "\"07/05/17\"", "\"Aria\"", "\"é\"", "\n",
      " ", "\"\\q\"", "{\"weight\":1.5,\"date\":\"01/02/15\"}", "\"entries\"", "\"id\"", "7",
    ]
    await propertyCheck(count: 4000, input: Gen.int(in: 0...25).array(of: 0...40)) { picks in
      let body = picks.map { pieces[$0] }.joined()
      for (text, streamed, keys) in [
        ("[" + body + "]", ImportJSONReader.StreamedArray.document, FitbitJSONImporter.keys),
        ("[{" + body + "}]", .document, FitbitJSONImporter.keys),
        ("{\"entries\": [{" + body + "}]}", .member("entries"), WeighJSONImporter.keys),
        (
          "{\"format\": \"weigh\", \"entries\": [" + body + "]}", .member("entries"),
          ["id", "weight"]
        ),
      ] {
        let (tree, records) = Self.bothWays(Array(text.utf8), streamed, keys: keys)
        #expect(tree == records, "\(text)")
      }
    }
  }
}
