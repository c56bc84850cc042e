import HealthSim
import Testing

@testable import WeighKit

/// Records written in every way the parser meets (attributes in any order, references and
/// line breaks in values, names with spaces, iOS 8's `source` and compact dates, a required
/// attribute missing), read whole and in chunks of any size, give the records they were
/// made from.
struct AppleHealthExportRandomRecordTests {
  /// One attribute: its name, its text as written, and its value once read.
  private typealias Attribute = (name: String, written: String, value: String)

  /// `text` as an attribute value: each character written plainly or as a reference.
  private func escaped(_ text: String, using generator: inout SeededGenerator) -> String {
    var out = ""
    for character in text {
      let plain: String
      switch character {
      case "&": plain = "&amp;"
      case "<": plain = "&lt;"
      case "\"": plain = "&quot;"
      case "\n": plain = "&#10;"
      default: plain = String(character)
      }
      switch Int.random(in: 0..<8, using: &generator) {
      case 0 where character.unicodeScalars.count == 1:
        out += "&#\(character.unicodeScalars.first!.value);"
      case 1 where character.unicodeScalars.count == 1:
        out += "&#x\(String(character.unicodeScalars.first!.value, radix: 16));"
      case 2 where character == ">": out += "&gt;"
      case 3 where character == "'": out += "&apos;"
      default: out += plain
      }
    }
    return out
  }

  private static let pieces = [
    "Anna’s Watch", "a&b", "<x>", "\"q\"", "l\nm", "iPhone", "10.2", "😀", "kg", "Phone", "p'q",
  ]

  private func text(using generator: inout SeededGenerator) -> String {
    (0..<Int.random(in: 1...3, using: &generator)).map { _ in
      Self.pieces.randomElement(using: &generator)!
    }.joined(separator: " ")
  }

  /// A date written Apple's way or iOS 8's compact way, and what it reads as.
  private func date(using generator: inout SeededGenerator) -> (String, HealthExportDate) {
    let day = Int.random(in: 1...28, using: &generator)
    let hour = Int.random(in: 0...23, using: &generator)
    let offset = ["+0100", "+0200", "-0530", "+0000"].randomElement(using: &generator)!
    let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    let whole = "2015-06-\(two(day)) \(two(hour)):07:59 \(offset)"
    let written =
      Bool.random(using: &generator) ? whole : "201506\(two(day))\(two(hour))0759\(offset)"
    return (written, HealthExportDate.parse(whole)!)
  }

  @Test func randomRecordsReadAsTheyWereWritten() throws {
    var generator = SeededGenerator(seed: 1415)
    var document = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en\">\n"
    var expected: [String] = []
    var line = 2
    for _ in 0..<300 {
      line += 1
      let type = ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierBodyMass"]
        .randomElement(using: &generator)!
      let source = text(using: &generator)
      let device =
        "<<HKDevice: 0x\(String(UInt32.random(in: 1...UInt32.max, using: &generator), radix: 16))>, name:\(text(using: &generator)), software:10.2>"
      let (startWritten, start) = date(using: &generator)
      let (endWritten, end) = date(using: &generator)
      let value = String(Int.random(in: 0...9999, using: &generator))
      var attributes: [Attribute] = [
        ("type", type, type),
        (
          Bool.random(using: &generator) ? "sourceName" : "source",
          escaped(source, using: &generator), source
        ),
        ("device", escaped(device, using: &generator), device),
        ("unit", "count", "count"),
        ("endDate", endWritten, ""),
        ("value", value, value),
      ]
      let hasStart = Int.random(in: 0..<10, using: &generator) > 0
      if hasStart { attributes.append(("startDate", startWritten, "")) }
      let extra = Int.random(in: 0..<4, using: &generator) == 0
      if extra { attributes.append(("Health Mate App Version", "2.6.2", "2.6.2")) }
      attributes.shuffle(using: &generator)
      let spaces = ["  ", " ", "\n  "]
      var tag = " <Record"
      for attribute in attributes {
        let space = spaces.randomElement(using: &generator)!
        if space.contains("\n") { line += 1 }
        tag += "\(space)\(attribute.name)=\"\(attribute.written)\""
      }
      document += tag + "/>\n"
      // The record's first line: its tag starts there.
      let tagLine = line - tag.filter { $0 == "\n" }.count
      if !hasStart {
        expected.append("\(tagLine) invalid <Record> has no startDate; it is required \(type)")
        continue
      }
      var record = HealthExportRecord(
        type: type, sourceName: source, device: device, unit: "count", startDate: start,
        endDate: end, value: value)
      if extra {
        record.metadata = [
          HealthExportMetadataEntry(key: "Health Mate App Version", value: "2.6.2")
        ]
        record.repairedAttributes = true
      }
      expected.append("\(tagLine) \(HealthExportItem.record(record))")
    }
    document += "</HealthData>\n"
    let bytes = Array(document.utf8)
    for sizes in [[bytes.count], [1], [7, 13], [64, 4096], [333]] {
      var items: [String] = []
      let parser = AppleHealthExportParser(recordTypes: nil) { item, line in
        switch item {
        case .record: items.append("\(line) \(item)")
        case .invalid(let rejection):
          items.append("\(line) invalid \(rejection.reason) \(rejection.recordType ?? "")")
        default: break
        }
      }
      try parser.feed(bytes, inChunksOf: sizes)
      try parser.finish()
      #expect(items == expected, "sizes \(sizes)")
      #expect(
        parser.repairedElements == expected.filter { $0.contains("repairedAttributes: true") }.count
      )
    }
  }

  @Test func aDocumentCutAnywhereIsReportedTruncated() throws {
    let text = """
      <HealthData locale="en"><Record type="T" source="a&amp;b" \
      startDate="20150603050217+0100" endDate="20150603050217+0100" Health Mate App Version="2"/>
      </HealthData>
      """
    let bytes = Array(text.utf8)
    for cut in 1..<(bytes.count - 1) {
      let parser = AppleHealthExportParser(recordTypes: nil) { _, _ in }
      #expect(throws: ImportError.self, "cut at \(cut)") {
        try parser.feed(Array(bytes[0..<cut]))
        try parser.finish()
      }
    }
  }
}
