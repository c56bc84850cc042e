import Foundation
import Testing

@testable import WeighKit

private let utc = ZonedClock.utc

@Suite struct VendorImporterTests {
  @Test func withingsReadsTheUnitFromTheHeader() throws {
    let result = try WithingsCSVImporter.importWeights(
      Fixtures.bytes("vendors/withings-weight.csv"), zone: utc)
    #expect(result.format == .withingsCSV)
    #expect(result.weights.map(\.kilograms) == [80.9, 81.15, 80.7])
    #expect(result.weights.map(\.line) == [2, 3, 8])
    #expect(result.weights[0].instant == 1_777_104_711)
    #expect(result.weights[0].note == nil)
    #expect(result.weights[1].note == "after holiday, \"heavy\"")
    #expect(result.weights.allSatisfy { $0.source == "Withings" })
    #expect(result.rejections.map(\.line) == [4, 5, 6, 7])
    #expect(result.rejections[0].reason == "no weight in this row")
    #expect(
      result.rejections[2].reason == "weight \"eighty\" is not a decimal number such as 71.25")
    #expect(result.unitNote == nil)
  }

  @Test func aHeaderQuotedWholeIsReadAsTheRowInsideIt() throws {
    let header =
      #""Date,""Weight (kg)"",""Fat mass (kg)"",""Bone mass (kg)"",""Muscle mass (kg)"",""Hydration (kg)"",Comments""#
    let bytes = Array((header + "\n2025-06-27 08:15:41,68.59,19.4,2.5,46.6,31.5,\n").utf8)
    #expect(ImportFormat.detect(fileName: "weight.csv", firstBytes: bytes) == .withingsCSV)
    let result = try WithingsCSVImporter.importWeights(bytes, zone: utc)
    #expect(result.headerUnwrapped)
    #expect(result.weights.map(\.kilograms) == [68.59])
    #expect(result.weights.map(\.line) == [2])
    #expect(result.rejections.isEmpty)
    // The usual header is not said to be unwrapped.
    let usual = try WithingsCSVImporter.importWeights(
      Fixtures.bytes("vendors/withings-weight.csv"), zone: utc)
    #expect(!usual.headerUnwrapped)
    // Only one quoted field holding the separator is unwrapped, keeping its line.
    let rows = try CSVReader.rows(Array("\"Date,\"\"Weight (kg)\"\"\"\n\"Date\"\nDate,x\n".utf8))
    let inner = try #require(rows[0].unwrapped())
    #expect(inner.fields.map(\.text) == ["Date", "Weight (kg)"])
    #expect(inner.line == 1)
    #expect(rows[1].unwrapped() == nil)
    #expect(rows[2].unwrapped() == nil)
    // A quoted whole line that is no vendor's header is still not a format.
    #expect(
      ImportFormat.detect(fileName: "x.csv", firstBytes: Array("\"a,b,c\"\n1,2,3\n".utf8)) == nil)
  }

  @Test func withingsLocalTimesFollowTheTimeZone() throws {
    let amsterdam = try #require(ZonedClock(identifier: "Europe/Amsterdam"))
    let result = try WithingsCSVImporter.importWeights(
      Fixtures.bytes("vendors/withings-weight.csv"), zone: amsterdam)
    #expect(result.weights[0].instant == 1_777_104_711 - 7200)
  }

  @Test func vendorLocalTimesAroundClockChangesFollowTheLanguage() throws {
    let berlin = try #require(ZonedClock(identifier: "Europe/Berlin"))
    // Before the spring gap, in it, and in the autumn overlap: 00:30Z, 01:30Z, 00:30Z.
    let expected: [Int64] = [1_774_744_200, 1_774_747_800, 1_792_888_200]
    let withings = try WithingsCSVImporter.importWeights(
      Array(
        """
        Date,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)","Hydration (kg)",Comments
        "2026-03-29 01:30:00",70,,,,,
        "2026-03-29 02:30:00",70,,,,,
        "2026-10-25 02:30:00",70,,,,,

        """.utf8), zone: berlin)
    #expect(withings.weights.map(\.instant) == expected)
    let openScale = try OpenScaleCSVImporter.importWeights(
      Array(
        """
        DATE,TIME,WEIGHT
        2026-03-29,01:30,70
        2026-03-29,02:30,70
        2026-10-25,02:30,70

        """.utf8), zone: berlin)
    #expect(openScale.weights.map(\.instant) == expected)
    let fitbit = try FitbitJSONImporter.importWeights(
      Array(
        """
        [{"logId":1,"weight":70,"date":"03/29/26","time":"01:30:00"},
        {"logId":2,"weight":70,"date":"03/29/26","time":"02:30:00"},
        {"logId":3,"weight":70,"date":"10/25/26","time":"02:30:00"}]
        """.utf8), zone: berlin, unit: .kg)
    #expect(fitbit.weights.map(\.instant) == expected)
  }

  @Test func withingsPoundsAndMissingUnit() throws {
    let pounds = try WithingsCSVImporter.importWeights(
      Fixtures.bytes("vendors/withings-weight-lb.csv"), zone: utc)
    #expect(pounds.weights.map(\.kilograms) == [170.5 * 0.45359237])
    #expect(throws: ImportError.self) {
      try WithingsCSVImporter.importWeights(
        Fixtures.bytes("vendors/withings-weight-nounit.csv"), zone: utc)
    }
  }

  @Test func openScale3() throws {
    let result = try OpenScaleCSVImporter.importWeights(
      Fixtures.bytes("vendors/openscale-3x.csv"), zone: utc)
    #expect(result.weights.map(\.kilograms) == [68.5, 68.3, 68.1])
    #expect(result.weights.map(\.note) == ["morning", nil, "late, again"])
    // 2026-01-04 without a time is read at 12:00, as openScale does.
    #expect(result.weights[1].instant == 1_767_225_600 + 3 * 86_400 + 12 * 3600)
    #expect(result.rejections.map(\.line) == [4, 5])
    #expect(result.rejections[0].reason.contains("weight is 0"))
    #expect(result.unitNote?.contains("kg") == true)
    let pounds = try OpenScaleCSVImporter.importWeights(
      Fixtures.bytes("vendors/openscale-3x.csv"), zone: utc, unit: .lb)
    #expect(pounds.weights.first?.kilograms == 68.5 * 0.45359237)
    #expect(pounds.unitNote == nil)
  }

  @Test func openScale2AndHeaderless() throws {
    let result = try OpenScaleCSVImporter.importWeights(
      Fixtures.bytes("vendors/openscale-2x.csv"), zone: utc)
    #expect(result.weights.map(\.kilograms) == [77.35, 77.10])
    #expect(result.weights.map(\.note) == [nil, "new scale"])
    #expect(result.weights[1].instant == 1_618_832_400)
    #expect(result.rejections.map(\.line) == [4])
    #expect(result.unitNote == nil)
    let legacy = try OpenScaleCSVImporter.importWeights(
      Fixtures.bytes("vendors/openscale-1x-headerless.csv"), zone: utc)
    #expect(legacy.weights.map(\.kilograms) == [80.1, 79.9])
    #expect(legacy.weights.map(\.line) == [1, 2])
    #expect(legacy.weights.map(\.note) == ["first", nil])
  }

  @Test func fitbitIsPoundsWithAmericanDates() throws {
    let result = try FitbitJSONImporter.importWeights(
      Fixtures.bytes("vendors/fitbit-weight-2017-07-05.json"), zone: utc)
    #expect(
      result.weights.map(\.kilograms) == [
        193.9 * 0.45359237, 193.2 * 0.45359237, 192.5 * 0.45359237,
      ])
    #expect(result.weights.map(\.source) == ["Fitbit Aria", "Fitbit API", "Fitbit"])
    #expect(result.weights[0].instant == 1_499_258_640)
    #expect(result.weights.map(\.line) == [1, 2, 5])
    #expect(result.rejections.map(\.line) == [3, 4])
    #expect(result.rejections[1].reason.contains("13/07/17"))
    #expect(result.unitNote?.contains("lb") == true)
  }

  @Test func brokenJSONIsAnErrorWithItsLine() throws {
    #expect(throws: ImportError.self) {
      try FitbitJSONImporter.importWeights(
        Fixtures.bytes("vendors/fitbit-weight-broken.json"), zone: utc)
    }
    do {
      _ = try FitbitJSONImporter.importWeights(
        Fixtures.bytes("vendors/fitbit-weight-broken.json"), zone: utc)
    } catch let error as ImportError {
      #expect(error.line == 2)
      #expect(error.column == 12)
    }
  }

  @Test func detectsEveryFormat() throws {
    let cases: [(String, ImportFormat?)] = [
      ("vendors/withings-weight.csv", .withingsCSV),
      ("vendors/withings-weight-lb.csv", .withingsCSV),
      ("vendors/openscale-3x.csv", .openScaleCSV),
      ("vendors/openscale-2x.csv", .openScaleCSV),
      ("vendors/openscale-1x-headerless.csv", .openScaleCSV),
      ("vendors/fitbit-weight-2017-07-05.json", .fitbitJSON),
      ("apple/export-with-dtd.xml", .appleHealthXML),
      ("apple/export-no-dtd.xml", .appleHealthXML),
      ("vendors/withings-weight-nounit.csv", .genericCSV),
    ]
    for (path, expected) in cases {
      #expect(try ImportFormat.detect(url: Fixtures.url(path)) == expected, "\(path)")
    }
    #expect(
      ImportFormat.detect(fileName: "x.zip", firstBytes: [0x50, 0x4B, 0x03, 0x04, 0])
        == .appleHealthZip)
    #expect(
      ImportFormat.detect(fileName: "weight-2017-01-01.json", firstBytes: Array("[]".utf8))
        == .fitbitJSON)
    #expect(
      ImportFormat.detect(fileName: "notes.txt", firstBytes: Array("hello world".utf8)) == nil)
    #expect(ImportFormat.detect(fileName: "a.xml", firstBytes: Array("<svg/>".utf8)) == nil)
    let weighCSV = Array(WeighCSVExporter.csv([]).utf8)
    #expect(ImportFormat.detect(fileName: "e.csv", firstBytes: weighCSV) == .weighCSV)
    let weighJSON = Array(WeighJSONExporter.json([]).utf8)
    #expect(ImportFormat.detect(fileName: "e.json", firstBytes: weighJSON) == .weighJSON)
  }

  @Test func importsThroughDetection() throws {
    let result = try WeightImporter.importWeights(
      from: Fixtures.url("vendors/openscale-2x.csv"), zone: utc)
    #expect(result.format == .openScaleCSV)
    #expect(throws: ImportError.self) {
      try WeightImporter.importWeights(
        from: Fixtures.url("vendors/withings-weight-nounit.csv"), zone: utc)
    }
  }

  @Test func csvReaderKeepsQuotedNewlinesAndLines() throws {
    let rows = try CSVReader.rows(Array("a,\"b\r\nc\",\"\"\r\n\r\nx,,\"y\"\"z\"\n".utf8))
    #expect(rows.count == 2)
    #expect(rows[0].fields.map(\.text) == ["a", "b\r\nc", ""])
    #expect(rows[0].fields.map(\.quoted) == [false, true, true])
    #expect(rows[1].line == 4)
    #expect(rows[1].fields.map(\.text) == ["x", "", "y\"z"])
    #expect(throws: ImportError(line: 2, "a quoted field is never closed; add the closing '\"'")) {
      try CSVReader.rows(Array("a\nb,\"oops\n".utf8))
    }
  }
}
