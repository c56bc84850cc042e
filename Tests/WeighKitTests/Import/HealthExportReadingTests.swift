import Foundation
import HealthSim
import PropertyBased
import Testing

@testable import WeighKit

/// The reading thread's shortcuts (docs/performance.md, "The all-types import: the reading
/// thread"): values decoded in place, repeated values and devices remembered. Each must give
/// what the plain way gives.
@Suite struct HealthExportReadingTests {
  /// The records of `xml`, fed in chunks of `chunkSize` bytes.
  func records(_ xml: [UInt8], chunkSize: Int = 1 << 20) throws -> [HealthExportRecord] {
    try parseExportInChunks(xml, chunkSize: chunkSize).items.compactMap {
      if case .record(let record) = $0.item { record } else { nil }
    }
  }

  func export(_ records: [String]) -> [UInt8] {
    Array("<HealthData locale=\"en\">\n\(records.joined(separator: "\n"))\n</HealthData>\n".utf8)
  }

  func record(source: String, version: String? = nil, unit: String? = nil, device: String? = nil)
    -> String
  {
    "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(source)\""
      + (version.map { " sourceVersion=\"\($0)\"" } ?? "")
      + (device.map { " device=\"\($0)\"" } ?? "")
      + (unit.map { " unit=\"\($0)\"" } ?? "")
      + " startDate=\"2026-01-03 07:30:00 +0100\" endDate=\"2026-01-03 07:35:00 +0100\" value=\"12\"/>"
  }

  @Test func decodesReferencesAndLineBreaksInPlace() throws {
    let device =
      "&lt;&lt;HKDevice: 0x1&gt;, name:A&amp;B, model:&#x1F600;&#233;&#65;&#x7FF;&#x800;&quot;&apos;, "
      + "hardware:a\tb\r\nc\rd\ne&gt;"
    let read = try records(export([record(source: "S", device: device)]))
    #expect(
      read.first?.device
        == "<<HKDevice: 0x1>, name:A&B, model:😀éA\u{7FF}\u{800}\"', hardware:a b c d e>")
  }

  @Test func repairsBadUTF8InADecodedValueAsInAPlainOne() throws {
    // 0xFF is not UTF-8: a value with a reference in it is repaired as one without.
    var xml = export([record(source: "S\u{1}&amp;X"), record(source: "S\u{1}X")])
    for index in xml.indices where xml[index] == 0x01 { xml[index] = 0xFF }
    let read = try records(xml)
    #expect(read.map(\.sourceName) == ["S\u{FFFD}&X", "S\u{FFFD}X"])
  }

  @Test func repeatedValuesReadAsWritten() throws {
    // Sources, versions and units changing, coming back, of one length, empty, absent,
    // decoded; read across chunk boundaries of every size from 7 bytes.
    let written: [(String, String?, String?)] = [
      ("Scale A", "1.0", "count"), ("Scale A", "1.0", "count"), ("Scale B", "1.1", "count"),
      ("Scale A", nil, nil), ("", "", ""), ("", "", ""), ("Scale &amp; Co", "1.0", "count"),
      ("Scale &amp; Co", "1.0", "count"), ("Anna’s iPhone", "17.2", "count"),
      ("Anna’s iPhone", "17.2", "count"), ("Scale A", "1.0", "count"),
    ]
    let xml = export(written.map { record(source: $0.0, version: $0.1, unit: $0.2) })
    for chunkSize in [7, 13, 64, 1 << 20] {
      let read = try records(xml, chunkSize: chunkSize)
      #expect(
        read.map(\.sourceName) == written.map { $0.0.replacingOccurrences(of: "&amp;", with: "&") })
      #expect(read.map(\.sourceVersion) == written.map(\.1))
      #expect(read.map(\.unit) == written.map(\.2))
    }
  }

  /// The devices of an import's cache are those read from each text alone.
  @Test func theDeviceCacheGivesEachTextsOwnDevice() {
    let texts = [
      "<<HKDevice: 0x1>, name:iPhone, model:iPhone>",
      "<<HKDevice: 0x2>, name:iPhone, model:iPhone>",
      "<<HKDevice: 0x33>, name:Watch, model:Watch>",
      "<<HKDevice: 0x4>, name:iPhone, model:iPhone>",
      // Not Apple's form, though the text after their `>` is the same: each its own device.
      "Scale>x", "Phone>x", "Scale>x", "Body+",
      // A `>` that is not a character of its own, text before it not ASCII, no fields.
      "<<HKDevice: 0x5>\u{301}, name:iPhone>", "<<HKDevice: é>, name:iPhone, model:iPhone>",
      "<<HKDevice: 0x6>", "<<HKDevice: 0x7>>", "<<HKDevice: 0x8", "<<HKDevice:>, name:X>",
      "<<HKDevice: 0x9>, name:Ünïcode, model:é>", "<<HKDevice: 0xA>, name:Ünïcode, model:é>",
    ]
    let cache = HealthExportMapping.Cache()
    for text in texts + texts.reversed() + texts {
      #expect(cache.device(text) == HealthExportMapping.device(text), "\(text)")
    }
  }

  @Test func theDeviceFieldsStartAtTheFirstLoneGreaterThanSign() {
    func start(_ text: String) -> Int? {
      var copy = text
      return copy.withUTF8 { HealthExportMapping.Cache.fieldsStart($0) }
    }
    #expect(start("<<HKDevice: 0x1>, name:A>") == 15)
    #expect(start("<<HKDevice:>, name:A>") == 11)
    #expect(start("<<HKDevice: 0x1>") == nil)
    #expect(start("<<HKDevice: 0x1>\u{301}, name:A>") == nil)
    #expect(start("<<HKDevice: é>, name:A>") == nil)
    #expect(start("<<HKDevice: 0x1") == nil)
    #expect(start("<HKDevice: 0x1>, name:A>") == nil)
    #expect(start("") == nil)
  }

  @Test func theSourceCacheGivesEachNameItsOwnSource() {
    let cache = HealthExportMapping.Cache()
    let names = ["Withings", "Withings", "Anna’s iPhone", "Withings", "Anna’s iPhone", "Café"]
    for name in names + names.reversed() {
      let revision = cache.revision(name, "1.0")
      #expect(revision == HealthExportMapping.revision(name, "1.0"), "\(name)")
      #expect(revision.source.name == name)
    }
  }

  /// What `parseJSONNumber` gives for `text`, the way it read every number before its fast
  /// path for plain decimals.
  static func jsonNumberBefore(_ text: String) -> Double? {
    let allowed = Set("0123456789.-+eE".utf8)
    guard !text.isEmpty, text.utf8.count <= DecimalText.maximumLength,
      text.utf8.allSatisfy(allowed.contains), let value = Double(text),
      value.isFinite, value == 0 || value.isNormal
    else { return nil }
    return value
  }

  @Test func plainDecimalsReadAsDoubleReadsThem() async {
    let alphabet = Array("0123456789.+-e".utf8)
    await propertyCheck(count: 5000, input: Gen.int(in: 0...13).array(of: 1...20)) { picks in
      let text = String(decoding: picks.map { alphabet[$0] }, as: UTF8.self)
      #expect(
        DecimalText.parseJSONNumber(text)?.bitPattern == Self.jsonNumberBefore(text)?.bitPattern,
        "\(text)")
    }
    // Digits on both sides of the point, 1 to 18 digits, so both paths are taken.
    await propertyCheck(
      count: 5000, input: Gen.int(in: 0...999_999_999), Gen.int(in: 0...999_999_999),
      Gen.int(in: 0...9)
    ) { whole, fraction, shift in
      for text in ["\(whole).\(String(fraction).prefix(shift))", "-\(whole)", "\(fraction)"] {
        #expect(
          DecimalText.parseJSONNumber(text)?.bitPattern
            == Self.jsonNumberBefore(text)?.bitPattern, "\(text)")
      }
    }
    for text in [
      "-0", "0.0", "1.", ".5", "-.5", "007", "123456789012345", "1234567890123456",
      "0.000000000000001", "999999999999999.9", "4.482", "-", "1.2.3", "--5", "5-", "+5",
    ] {
      #expect(
        DecimalText.parseJSONNumber(text)?.bitPattern == Self.jsonNumberBefore(text)?.bitPattern,
        "\(text)")
    }
  }
}
