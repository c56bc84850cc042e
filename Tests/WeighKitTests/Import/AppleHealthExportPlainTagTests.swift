import CWeighXMLScan
import HealthSim
import Testing

@testable import WeighKit

/// Plain tags read in C (`weigh_xml_plain_tag`) give what the general reader gives: the same
/// items at the same lines, the same repairs, the same error at the same line and column,
/// for random documents of tags plain and not, read whole and in chunks of any size.
struct AppleHealthExportPlainTagTests {
  /// The first byte from `start` that ends a plain run of a value, one byte at a time.
  private func bytewise(_ bytes: [UInt8], from start: Int, quote: UInt8) -> Int {
    AppleHealthExportValueScanTests.bytewise(bytes, from: start, quote: quote)
  }

  private func valueStop(_ bytes: [UInt8], from start: Int, quote: UInt8) -> Int {
    bytes.withUnsafeBufferPointer { p in
      // An empty array has no base address; any pointer does for no bytes.
      guard let base = p.baseAddress else { return start }
      return weigh_xml_value_stop(base, start, p.count, quote)
    }
  }

  @Test func valueStopFindsWhatAByteScanFinds() {
    var generator = SeededGenerator(seed: 16)
    let interesting: [UInt8] = [
      0x22, 0x27, 0x3C, 0x26, 0x0A, 0x09, 0x0D, 0x00, 0x01, 0x1F, 0x20, 0x21, 0x3B, 0x3D, 0x3E,
      0x7F, 0x80, 0x9F, 0xA0, 0xBC, 0xFF,
    ]
    for round in 0..<5_000 {
      let count = Int.random(in: 0...70, using: &generator)
      let bytes = ScanTestBytes.make(
        count: count, plainOnly: round % 3 == 0,
        plain: [0x30, 0x61, 0x20, 0x2D, 0x3A, 0xE2, 0x80, 0x99], interesting: interesting,
        using: &generator)
      let quote: UInt8 = round % 2 == 0 ? 0x22 : 0x27
      for start in 0...count {
        let expected = bytewise(bytes, from: start, quote: quote)
        let found = valueStop(bytes, from: start, quote: quote)
        #expect(found == expected, "bytes \(bytes) from \(start) quote \(quote)")
        if found != expected { return }
      }
    }
  }

  @Test func valueStopSeesEveryByteValueAtEveryPlaceOfABlock() {
    for quote: UInt8 in [0x22, 0x27] {
      for value in 0...255 {
        for place in 0..<40 {
          var bytes = [UInt8](repeating: 0x61, count: 40)
          bytes[place] = UInt8(value)
          for start in [0, 1, 15, 17] where start <= place {
            #expect(
              valueStop(bytes, from: start, quote: quote)
                == bytewise(bytes, from: start, quote: quote),
              "byte \(value) at \(place) from \(start), quote \(quote)")
          }
        }
      }
    }
  }

  // MARK: - Documents

  private static let types = [
    "HKQuantityTypeIdentifierBodyMass", "HKQuantityTypeIdentifierStepCount",
    "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierBodyMas",
    "HKQuantityTypeIdentifierBodyMassIndex", "HKCategoryTypeIdentifierSleepAnalysis",
    "HKCorrelationTypeIdentifierBloodPressure",
  ]

  /// Names an element's attributes may have: Apple's, near misses, iOS 8's with spaces, and
  /// names holding bytes that end or do not end a name.
  private static let names = [
    "type", "sourceName", "source", "sourceVersion", "device", "unit", "creationDate",
    "startDate", "endDate", "value", "key", "locale", "workoutActivityType", "duration",
    "durationUnit", "date", "path", "typ", "Type", "valuE", "HKWasUserEntered",
    "Health Mate App Version", "a\"b", "a'b", "a&b", "é", "x:y", "a\u{1}b",
    "HKMetadataKeyHeartRateMotionContext", "abcdefghijklmnopqrstuvwxyz/x",
    "abcdefghijklmnopq<", "abcdefghijklmnopqrstu\u{1}v", "abcdefghijklmnopqrs\"t",
    "abcdefghijklmnopqrstuvwxyzabcdefghijklmnop",
  ]

  /// Pieces of values: plain text, dates, numbers, references of every kind, raw line breaks
  /// and control bytes, the other quote, a `>`.
  private static let valuePieces = [
    "Anna’s Watch", "2022-01-01 01:04:17 +0100", "20150603050217+0100", "72.5", "kg", "count",
    "&lt;", "&gt;", "&amp;", "&quot;", "&apos;", "&#10;", "&#x41;", "\n", "\t", "\r\n", "\u{1}",
    ">", "'", "\"", "é", "  ", "&lt;&lt;HKDevice: 0x1&gt;, name:Watch, software:10.2&gt;",
    "HKQuantityTypeIdentifierBodyMass", "abcdefghijklmnopqrstuvwxyz0123456789",
  ]

  /// What makes a tag malformed (rarely chosen).
  private static let badPieces = ["<", "&bogus;", "&", "&#0;", "&l", "&#x110000;"]

  private func value(using generator: inout SeededGenerator, quote: Character) -> String {
    var out = ""
    for _ in 0..<Int.random(in: 0...4, using: &generator) {
      var piece = Self.valuePieces.randomElement(using: &generator)!
      if Int.random(in: 0..<300, using: &generator) == 0 {
        piece = Self.badPieces.randomElement(using: &generator)!
      }
      if piece == String(quote) { piece = quote == "\"" ? "&quot;" : "&apos;" }
      out += piece
    }
    return out
  }

  private func attribute(name: String, using generator: inout SeededGenerator) -> String {
    let spaces = [" ", " ", " ", " ", "  ", "\n  ", "\t", "\r\n "]
    var space = spaces.randomElement(using: &generator)!
    if Int.random(in: 0..<200, using: &generator) == 0 { space = "" }
    let quote: Character = Int.random(in: 0..<6, using: &generator) == 0 ? "'" : "\""
    var equals = "="
    if Int.random(in: 0..<30, using: &generator) == 0 {
      equals = [" =", "= ", " = ", "\n="].randomElement(using: &generator)!
    }
    return "\(space)\(name)\(equals)\(quote)\(value(using: &generator, quote: quote))\(quote)"
  }

  private func attributes(_ required: [String], using generator: inout SeededGenerator)
    -> String
  {
    var names = required.filter { _ in Int.random(in: 0..<15, using: &generator) > 0 }
    for _ in 0..<Int.random(in: 0...3, using: &generator) {
      names.append(Self.names.randomElement(using: &generator)!)
    }
    names.shuffle(using: &generator)
    return names.map { name in
      if name == "type" {
        let type = Self.types.randomElement(using: &generator)!
        return " type=\"\(type)\""
      }
      if name.hasSuffix("Date") || name == "date" {
        let date =
          Bool.random(using: &generator) ? "2022-01-01 01:04:17 +0100" : "20150603050217+0100"
        return Int.random(in: 0..<10, using: &generator) == 0
          ? attribute(name: name, using: &generator) : " \(name)=\"\(date)\""
      }
      return attribute(name: name, using: &generator)
    }.joined()
  }

  private func end(using generator: inout SeededGenerator, selfClosing: Bool) -> String {
    if Int.random(in: 0..<150, using: &generator) == 0 {
      return ["/ >", " / >", "/", "\u{1}>"].randomElement(using: &generator)!
    }
    let space = ["", "", "", " ", "\n ", "\t"].randomElement(using: &generator)!
    return space + (selfClosing ? "/>" : ">")
  }

  private static let recordNames = [
    "type", "sourceName", "sourceVersion", "device", "unit", "creationDate", "startDate",
    "endDate", "value",
  ]

  private func element(using generator: inout SeededGenerator) -> String {
    let selfClosing = Int.random(in: 0..<3, using: &generator) > 0
    let close = { (name: String, children: String) in selfClosing ? "" : "\(children)</\(name)>" }
    func metadata(_ generator: inout SeededGenerator) -> String {
      (0..<Int.random(in: 0...2, using: &generator)).map { _ in
        "\n  <MetadataEntry\(attributes(["key", "value"], using: &generator))"
          + end(using: &generator, selfClosing: true)
      }.joined() + "\n "
    }
    switch Int.random(in: 0..<12, using: &generator) {
    case 0..<6:
      return "<Record\(attributes(Self.recordNames, using: &generator))"
        + end(using: &generator, selfClosing: selfClosing)
        + close("Record", metadata(&generator))
    case 6:
      let children =
        "\n  <WorkoutEvent\(attributes(["type", "date", "duration"], using: &generator))/>"
        + "\n  <WorkoutStatistics\(attributes(["type", "startDate", "endDate", "sum", "unit"], using: &generator))/>"
        + "\n  <WorkoutRoute\(attributes(["sourceName", "startDate", "endDate"], using: &generator))>"
        + "<FileReference path=\"/workout-routes/route_1.gpx\"/></WorkoutRoute>"
        + metadata(&generator)
      return
        "<Workout\(attributes(["workoutActivityType", "duration", "durationUnit", "sourceName", "startDate", "endDate"], using: &generator))"
        + end(using: &generator, selfClosing: selfClosing) + close("Workout", children)
    case 7:
      let child =
        "\n  <Record\(attributes(Self.recordNames, using: &generator))/>" + metadata(&generator)
      return
        "<Correlation\(attributes(["type", "sourceName", "startDate", "endDate"], using: &generator))"
        + end(using: &generator, selfClosing: selfClosing) + close("Correlation", child)
    case 8:
      return [
        "<Me\(attributes(["HKCharacteristicTypeIdentifierDateOfBirth"], using: &generator))/>",
        "<ExportDate\(attributes(["value"], using: &generator))/>",
        "<ActivitySummary\(attributes(["dateComponents", "appleStandHours"], using: &generator))/>",
      ].randomElement(using: &generator)!
    case 9:
      return "<Foo\(attributes(["a"], using: &generator))"
        + end(using: &generator, selfClosing: selfClosing) + close("Foo", "<Bar/>")
    case 10:
      return ["<!-- a comment -->", "<![CDATA[ x < y ]]>", "<?pi x?>", "<!-- -- -->"]
        .randomElement(using: &generator)!
    default:
      return [
        "<Record/>", "<Record >", "<Record\n/>", "<\u{1}x/>", "<Rec\"ord/>", "<=/>", "< />",
        "<AbcdefghijklmnopqrstuvWxyz a=\"b\"/>", "<Abcdefghijklmnopq'rs/>",
        "<AbcdefghijklmnopqrstuvWxyz\ta=\"b\"/>", "<Abcdefghijklmnopq\u{1}rs/>",
      ]
      .randomElement(using: &generator)!
    }
  }

  /// What a reader makes of `bytes`: every item with its line, then the error or the repairs.
  private func read(
    _ bytes: [UInt8], chunks: [Int], plain: Bool, types: Set<String>?, resolving: Bool
  ) -> [String] {
    var items: [String] = []
    let parser = AppleHealthExportParser(
      recordTypes: types, resolvingDevices: resolving, readsPlainTags: plain
    ) { item, line in
      items.append("\(line) \(item)")
    }
    do {
      try parser.feed(bytes, inChunksOf: chunks)
      try parser.finish()
      items.append("repaired \(parser.repairedElements)")
    } catch {
      items.append("error \(error)")
    }
    return items
  }

  @Test func randomDocumentsReadTheSameBothWays() {
    var generator = SeededGenerator(seed: 1616)
    var errors = 0
    for round in 0..<400 {
      var document = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en\">\n"
      for _ in 0..<Int.random(in: 1...25, using: &generator) {
        document += " " + element(using: &generator) + "\n"
      }
      document += "</HealthData>\n"
      let bytes = Array(document.utf8)
      let types: Set<String>? =
        round % 3 == 0
        ? nil : [healthBodyMassType, "HKQuantityTypeIdentifierStepCount", healthWorkoutType]
      let resolving = round % 2 == 0
      let expected = read(
        bytes, chunks: [bytes.count], plain: false, types: types, resolving: resolving)
      if expected.last?.hasPrefix("error") == true { errors += 1 }
      for chunks in [[bytes.count], [1], [7, 13], [333]] {
        let found = read(bytes, chunks: chunks, plain: true, types: types, resolving: resolving)
        #expect(found == expected, "round \(round), chunks \(chunks):\n\(document)")
        if found != expected { return }
      }
    }
    // Both kinds were met: documents read to their end and documents with an error.
    #expect(errors > 20 && errors < 380, "\(errors) documents with an error")
  }
}
