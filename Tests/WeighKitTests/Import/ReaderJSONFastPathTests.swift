import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// The JSON readers' byte paths read what their string paths read: numbers, line numbers,
/// Fitbit logs and weigh's entries, both ways on random input, the same values and the same
/// reasons (docs/performance.md, "The readers' own parsing, last four").
@Suite struct ReaderJSONFastPathTests {
  // MARK: Numbers

  @Test func jsonNumbersReadFromBytesAsFromText() async {
    let pieces = [
      "-", "0", "1", "7", "12", "132", ".", "3", "25", "e", "E", "+", "308", "400", "-320",
      "1234567890", "00", "9",
    ]
    let read = Counter()
    await propertyCheck(count: 4000, input: Gen.int(in: 0...17).array(of: 1...8)) { picks in
      let text = picks.map { pieces[$0] }.joined()
      let bytes = Array(text.utf8)
      // Only what the JSON reader takes whole as one number reaches the importers.
      let scanned: Double?? = bytes.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(bytes: buffer)
        guard let number = try? reader.readNumberBytes(), reader.offset == buffer.count else {
          return nil
        }
        return .some(DecimalText.parseJSONNumber(utf8: number))
      }
      guard let fromBytes = scanned else { return }
      read.add()
      #expect(
        fromBytes?.bitPattern == DecimalText.parseJSONNumber(text)?.bitPattern, "\(text)")
    }
    #expect(read.count > 100)
  }

  // MARK: Dates of numbers

  /// `LocalDateTime.numbers` as it was written before: a closure stores each number.
  static func numbersBefore(
    _ utf8: [UInt8], separator: UInt8,
    widths: (ClosedRange<Int>, ClosedRange<Int>, ClosedRange<Int>?)
  ) -> [Int]? {
    let separators = widths.2 == nil ? 1 : 2
    var parts = [0, 0, 0]
    var count = 0
    var value = 0
    var digits = 0
    func store() -> Bool {
      let width = count == 0 ? widths.0 : count == 1 ? widths.1 : widths.2 ?? widths.1
      guard width.contains(digits) else { return false }
      parts[count] = value
      count += 1
      value = 0
      digits = 0
      return true
    }
    for byte in utf8 {
      if count < separators, byte == separator {
        guard store() else { return nil }
      } else if (0x30...0x39).contains(byte) {
        digits += 1
        if digits <= 9 { value = value * 10 + Int(byte - 0x30) }  // checked: at most 9 digits
      } else {
        return nil
      }
    }
    guard count == separators, store() else { return nil }
    return parts
  }

  @Test func numbersOfDatesAndTimesReadAsBefore() async {
    let pieces = ["07", "5", "/", ":", "2017", "17", "1234567890", "", "x", "-", "0", "00"]
    let widths: [(ClosedRange<Int>, ClosedRange<Int>, ClosedRange<Int>?)] = [
      (1...2, 1...2, 2...4), (1...2, 2...2, 2...2), (1...2, 2...2, nil), (4...4, 1...2, 1...2),
    ]
    await propertyCheck(count: 3000, input: Gen.int(in: 0...11).array(of: 0...7)) { picks in
      let text = Array(picks.map { pieces[$0] }.joined().utf8)
      for separator in [UInt8(ascii: "/"), UInt8(ascii: ":")] {
        for width in widths {
          let now = LocalDateTime.numbers(text, separator: separator, widths: width)
          #expect(
            now.map { [$0.0, $0.1, $0.2] }
              == Self.numbersBefore(text, separator: separator, widths: width),
            "\(String(decoding: text, as: UTF8.self))")
        }
      }
    }
  }

  // MARK: CSV dates

  @Test func fixedIsoDatesReadAsTheShapesReadThem() async {
    let years = ["2024", "2023", "1900", "0000", "20x4", "9999"]
    let months = ["01", "02", "12", "13", "00", "1", "ab"]
    let days = ["01", "28", "29", "30", "31", "32", "00", "9"]
    let clocks = [
      "", " 07:00", "T07:00", " 23:59:59", "T00:00:00", " 24:00", " 07:60", " 07:00:60",
      " 7:00", "T07:00:00Z", " 07:00:00.000", "t07:00", " 07-00", "  ",
    ]
    let lists: [[CSVDatePattern]] = [
      CSVDatePattern.isoShapes, WithingsCSVImporter.shapes, GenericCSVImporter.autoShapes,
      [CSVDatePattern.known("yyyy-MM-dd HH:mm")], [CSVDatePattern.known("dd.MM.yyyy")],
      [CSVDatePattern.known("yyyy-MM-dd'T'HH:mm:ss")],
    ]
    await propertyCheck(
      count: 1000, input: Gen.int(in: 0...999).array(of: 4...4).array(of: 1...10)
    ) { rows in
      // One reader per list across the rows, so that the remembered day is used.
      let readers = lists.map(CSVDateShapes.init)
      for picks in rows {
        let text =
          (picks[0] % 3 == 0 ? " " : "") + years[picks[0] % years.count] + "-"
          + months[picks[1] % months.count] + "-" + days[picks[2] % days.count]
          + clocks[picks[3] % clocks.count]
        let bytes = Array(text.utf8)[...]
        for (shapes, reader) in zip(lists, readers) {
          #expect(
            reader.read(bytes: bytes) == CSVDatePattern.first(shapes, bytes: bytes),
            "\(text) \(shapes.map(\.text))")
        }
      }
    }
  }

  // MARK: CSV weight cells

  @Test func weightCellsReadFromBytesAsFromText() async {
    let pieces = [
      "71", ".", "25", " ", "\t", "-", "+", "1000", "0", "x", "\u{A0}", "é", "1234567890123456",
      "e3", "",
    ]
    await propertyCheck(
      count: 4000, input: Gen.int(in: 0...14).array(of: 0...6), Gen.int(in: 0...3)
    ) { picks, unitPick in
      let cell = picks.map { pieces[$0] }.joined()
      let unit = [MassUnit.kg, .lb, .st, .g][unitPick]
      let fromBytes = Result { () throws(ImportRejection) -> Double in
        try WeightValue.kilograms(utf8: Array(cell.utf8)[...], unit: unit, line: 5)
      }
      let fromText = Result { () throws(ImportRejection) -> Double in
        try WeightValue.kilograms(cell, unit: unit, line: 5)
      }
      #expect(fromBytes == fromText, "\(cell.debugDescription) \(unit)")
    }
  }

  // MARK: Lines

  @Test func newlinesCountedAsByBytes() async {
    let bytes: [UInt8] = [0x0A, 0x0B, 0x8A, 0x00, 0xFF, 0x09, 0x0A, 0x7F, 0x80, 0x20, 0x0A]
    await propertyCheck(count: 3000, input: Gen.int(in: 0...10).array(of: 0...40)) { picks in
      let text = picks.map { bytes[$0] }
      let targets = [0, text.count / 3, text.count / 2, text.count]
      text.withUnsafeBufferPointer { buffer in
        var counter = ImportJSONReader.LineCounter()
        for target in targets {
          let expected = 1 + text[0..<target].filter { $0 == 0x0A }.count
          #expect(counter.line(at: target, in: buffer) == expected, "\(text) \(target)")
        }
      }
    }
  }

  // MARK: Fitbit

  /// A Fitbit file read as the reader read it before: each log a tree, its members strings.
  static func fitbitThroughTheTree(_ bytes: [UInt8], zone: ZonedClock) throws
    -> WeightImportResult
  {
    var result = WeightImportResult(format: .fitbitJSON)
    result.zoneless = true
    result.unitNote =
      "Fitbit weight files do not name their unit; weight was read as lb, as Fitbit exports"
    var seen = WeightKeySet()
    let document = try ImportJSONReader.parse(bytes, streaming: .document) { log in
      do throws(ImportRejection) {
        guard case .object = log.value else {
          throw ImportRejection(
            line: log.line, reason: "expected an object with weight, date and time")
        }
        guard case .number(let written)? = log.value["weight"]?.value else {
          throw ImportRejection(line: log.line, reason: "no numeric \"weight\" in this log")
        }
        guard let weight = DecimalText.parseJSONNumber(written) else {
          throw ImportRejection(
            line: log.line, reason: "weight \(written) is too small or too large to be a weight")
        }
        let dateText = log.value["date"]?.string ?? ""
        guard
          let n = LocalDateTime.numbers(
            dateText.utf8, separator: 0x2F, widths: (1...2, 1...2, 2...4))
        else {
          throw ImportRejection(
            line: log.line, reason: "date '\(dateText)' is not like 07/05/17 (MM/DD/YY)")
        }
        let timeText = log.value["time"]?.string ?? "00:00:00"
        guard let clock = LocalDateTime.time(Substring(timeText)),
          let moment = LocalDateTime(
            year: n.2 < 100 ? 2000 + n.2 : n.2, month: n.0, day: n.1, hour: clock.0,
            minute: clock.1, second: clock.2)
        else {
          throw ImportRejection(
            line: log.line, reason: "date '\(dateText) \(timeText)' does not exist")
        }
        let kilograms = try ImportedWeight.validate(
          kilograms: MassUnit.lb.toKilograms(weight), written: String(weight), unit: .lb,
          line: log.line)
        let source = log.value["source"]?.string.map { "Fitbit \($0)" } ?? "Fitbit"
        result.add(
          ImportedWeight(
            instant: moment.instant(in: zone), kilograms: kilograms, source: source,
            line: log.line, fileTime: moment.wallSeconds), seen: &seen)
      } catch {
        result.rejections.append(error)
      }
    }
    guard case .array = document.value else {
      throw ImportError(line: document.line, "expected a Fitbit weight file: a JSON array of logs")
    }
    return result
  }

  @Test func fitbitLogsReadFromBytesAsThroughTheTree() async {
    let members: [[String]] = [
      ["\"logId\":1420070400000", "\"bmi\":23.4", "\"fat\":[1,{\"a\":2}]", ""],
      [
        "\"weight\":132.3", "\"weight\":1e2", "\"weight\":-5", "\"weight\":\"132\"",
        "\"weight\":1e-320", "\"weight\":2000", "\"w\\u0065ight\":150.25", "", "\"weight\":null",
        "\"weight\":12345678901234567.5",
      ],
      [
        "\"date\":\"01/01/15\"", "\"date\":\"12/31/2016\"", "\"date\":\"02/30/15\"",
        "\"date\":\"1/2/15\"", "\"date\":\"01-01-15\"", "\"date\":\"01/01/1\"", "",
        "\"date\":\"0\\u0031/01/15\"", "\"date\":7",
      ],
      [
        "\"time\":\"00:00:00\"", "\"time\":\"7:05\"", "\"time\":\"23:59:59.5\"",
        "\"time\":\"24:00:00\"", "", "\"time\":\"12:00:00é\"", "\"time\":null",
      ],
      ["\"source\":\"Aria\"", "\"source\":\"API\"", "\"source\":\"é\"", "", "\"source\":\"\""],
    ]
    let zone = ZonedClock(identifier: "Europe/Berlin") ?? .utc
    await propertyCheck(count: 500, input: Gen.int(in: 0...99).array(of: 5...5).array(of: 1...8)) {
      logs in
      let text =
        "[\n"
        + logs.map { picks in
          "{"
            + zip(members, picks).map { $0[$1 % $0.count] }.filter { !$0.isEmpty }
            .joined(separator: ",") + "}"
        }.joined(separator: ",\n") + "\n]"
      let bytes = Array(text.utf8)
      let fromBytes = Result { try FitbitJSONImporter.importWeights(bytes, zone: zone) }
      let throughTree = Result { try Self.fitbitThroughTheTree(bytes, zone: zone) }
      switch (fromBytes, throughTree) {
      case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
      case (.failure(let a as ImportError), .failure(let b as ImportError)):
        #expect(a.message == b.message && a.line == b.line, "\(text)")
      default: Issue.record("one way failed: \(text)")
      }
    }
  }

  // MARK: weigh's JSON

  @Test func weighEntriesReadFromBytesAsThroughTheirText() async {
    let members: [[String]] = [
      [
        "1", "12", "\"12\"", "0", "99999999999999999999", "-1", "1.0", "null",
        "9223372036854775807",
      ],
      [
        "\"2026-01-03T06:30:00Z\"", "\"2026-02-30T06:30:00Z\"", "\"1767421800\"", "1767421800",
        "\"1800-01-01T00:00:00Z\"", "\"2026-01-03T06:30:00\"", "\"2026-01-03T06:30:00\\u005A\"",
      ],
      ["71.25", "0", "1000", "1000.5", "-1", "7e1", "71.2500000000000001", "\"71.25\"", "null"],
      ["\"import\"", "\"manual\"", "\"health\"", "\"Import\"", "1", "\"\\u0069mport\""],
      ["\"Withings\"", "\"\"", "\"é\"", "3", "null", "\"W\\\"s\""],
      ["null", "\"a note\"", "5", "\"n\\u00f6te\"", "[1]"],
      ["1", "2147483647", "2147483648", "0", "\"1\"", "1e0"],
      ["null", "\"B3F2AF6D-0FC7-40C5-853B-559647364CEA\"", "\"not-a-uuid\"", "7"],
      ["null", "\"B3F2AF6D-0FC7-40C5-853B-559647364CEA\"", "\"x\""],
      ["null", "1", "0", "3000000000", "\"2\"", "true"],
    ]
    let fast = Counter()
    await propertyCheck(count: 3000, input: Gen.int(in: 0...99).array(of: 10...10)) { picks in
      // Mostly the first value of each member (as `export` writes it), so that whole entries
      // take the byte path; a pick past 95 leaves the member out.
      let body = zip(WeighJSONImporter.keys, zip(members, picks)).compactMap {
        key, pair -> String? in
        let (values, pick) = pair
        return pick >= 96 ? nil : "\"\(key)\": \(values[pick < 80 ? 0 : pick % values.count])"
      }.joined(separator: ", ")
      let text = "{\"format\": \"weigh\", \"version\": 1, \"entries\": [\n{\(body)}]}"
      _ = try? ImportJSONReader.parse(
        Array(text.utf8), streaming: .member("entries"), keys: WeighJSONImporter.keys,
        rawRecord: { entry in
          let slow = Result { () throws(ImportRejection) -> ImportedWeight in
            try WeighJSONImporter.throughFields(entry)
          }
          let both = Result { () throws(ImportRejection) -> ImportedWeight in
            try WeighJSONImporter.weight(entry)
          }
          #expect(both == slow, "\(text)")
          if let weight = WeighJSONImporter.exported(entry) {
            fast.add()
            #expect(slow == .success(weight), "\(text)")
          }
        })
    }
    #expect(fast.count > 10)
  }

  /// A count kept across the runs of a property.
  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func add() { lock.withLock { value += 1 } }
  }
}
