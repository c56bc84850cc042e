import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// Pieces that CSV and JSON must escape, mixed into notes and sources.
private let tricky = [
  ",", "\"", "\n", "\r\n", "\r", "\t", "\\", "é", "🙂", "日本", "a", " ", "\u{1}", "\"\"", "'",
  "e\u{301}", "👩‍👩‍👧",
]

private let textGen = Gen<String?>.element(of: tricky).array(of: 0...8).map {
  $0.compactMap { $0 }.joined()
}

private let entryGen = zip(
  zip(
    Gen.int(in: 1...1_000_000), Gen.int64(in: ValueLimits.instant),
    Gen.double(in: 0.001...999.999), Gen<Origin>.case
  ),
  zip(textGen, textGen.optional, Gen.int(in: 1...50), Gen.bool)
).map { first, second in
  let (id, instant, kilograms, origin) = first
  let (source, note, revision, linked) = second
  return Entry(
    id: id, instant: instant, kilograms: kilograms, origin: origin, source: source, note: note,
    revision: revision, healthUUID: linked ? UUID().uuidString : nil,
    pushedUUID: linked ? nil : UUID().uuidString.lowercased(),
    pushedRevision: linked ? revision : nil)
}

private func roundTrip(_ entries: [Entry], as format: WeighExportFormat) throws -> [Entry] {
  let bytes = Array(WeighExporter.text(entries, as: format).utf8)
  let result =
    switch format {
    case .csv: try WeighCSVImporter.importWeights(bytes)
    case .json: try WeighJSONImporter.importWeights(bytes)
    }
  #expect(result.rejections.isEmpty)
  return result.weights.compactMap(\.entry)
}

@Suite struct WeighFileRoundTripTests {
  @Test func exportThenImportGivesIdenticalEntries() async {
    await propertyCheck(count: 200, input: entryGen.array(of: 0...12)) { entries in
      for format in WeighExportFormat.allCases {
        let back = try? roundTrip(entries, as: format)
        #expect(back == entries, "\(format)")
      }
    }
  }

  @Test func keepsEdgeCasesExactly() throws {
    let entries = [
      Entry(id: 1, instant: 1_767_421_800, kilograms: 68.5, origin: .manual, source: "weigh"),
      Entry(
        id: 2, instant: -1, kilograms: 0.1 + 0.2, origin: .health, source: "Health, \"Mate\"",
        note: "", revision: 3, healthUUID: "8C1F0000-0000-4000-8000-0000000000AB",
        pushedUUID: nil, pushedRevision: nil),
      Entry(
        id: 3, instant: ValueLimits.instant.upperBound, kilograms: 1e-300, origin: .import,
        source: "", note: "line\nline\r\n\"quoted\", 🙂", revision: 2_147_483_647,
        pushedUUID: "8c1f0000-0000-4000-8000-0000000000ab", pushedRevision: 1),
      Entry(
        id: 2_147_483_647, instant: ValueLimits.instant.lowerBound, kilograms: 999.9999999999999,
        origin: .manual, source: "s"),
    ]
    for format in WeighExportFormat.allCases {
      #expect(try roundTrip(entries, as: format) == entries)
    }
    let csv = WeighCSVExporter.csv(entries)
    #expect(
      csv.hasPrefix(
        WeighCSVExporter.header + "\n1,2026-01-03T06:30:00Z,68.5,manual,\"weigh\",,1,,,\n"))
    #expect(
      csv.contains(
        "2,1969-12-31T23:59:59Z,0.30000000000000004,health,\"Health, \"\"Mate\"\"\",\"\",3,"))
    #expect(
      WeighJSONExporter.json(entries).contains("\"note\": \"line\\nline\\r\\n\\\"quoted\\\", 🙂\""))
  }

  @Test func rejectsBadRowsWithLineAndReason() throws {
    let csv =
      WeighCSVExporter.header + "\n"
      + "1,2026-01-03T06:30:00Z,68.5,manual,\"weigh\",,1,,,\n"
      + "2,yesterday,68.5,manual,\"weigh\",,1,,,\n"
      + "3,2026-01-03T06:30:00Z,-1,manual,\"weigh\",,1,,,\n"
      + "4,2026-01-03T06:30:00Z,68.5,robot,\"weigh\",,1,,,\n"
      + "5,2026-01-03T06:30:00Z,68.5,manual\n"
    let result = try WeighCSVImporter.importWeights(Array(csv.utf8))
    #expect(result.weights.map(\.line) == [2])
    #expect(result.rejections.map(\.line) == [3, 4, 5, 6])
    #expect(result.rejections[0].reason.contains("yesterday"))
    #expect(result.rejections[2].reason.contains("robot"))
    #expect(result.rejections[3].reason == "expected 10 fields, found 4")
  }

  @Test func rejectsValuesOutsideTheStoresRangesWithLineAndReason() throws {
    let row = { (id: String, instant: String, revision: String, health: String, pushed: String) in
      "\(id),\(instant),68.5,manual,\"weigh\",,\(revision),\(health),,\(pushed)\n"
    }
    let csv =
      WeighCSVExporter.header + "\n"
      + row("0", "2026-01-03T06:30:00Z", "1", "", "")
      + row("2147483648", "2026-01-03T06:30:00Z", "1", "", "")
      + row("3", "-9223372036854775808", "1", "", "")
      + row("4", "1899-12-31T23:59:59Z", "1", "", "")
      + row("5", "2026-01-03T06:30:00Z", "9223372036854775807", "", "")
      + row("6", "2026-01-03T06:30:00Z", "1", "", "2147483648")
      + row("7", "2026-01-03T06:30:00Z", "1", "not-a-uuid", "")
      + row("8", "2026-01-03T06:30:00Z", "2147483647", "", "")
    let result = try WeighCSVImporter.importWeights(Array(csv.utf8))
    // Ids past the range are renumbered by the import, as any id already in use is.
    #expect(result.weights.map(\.line) == [2, 3, 9])
    #expect(
      result.rejections.map { "line \($0.line): \($0.reason)" } == [
        "line 4: instant '-9223372036854775808' is outside 1900-01-01 to 9999-12-31",
        "line 5: instant '1899-12-31T23:59:59Z' is outside 1900-01-01 to 9999-12-31",
        "line 6: revision '9223372036854775807' is not a whole number from 1 to 2147483647",
        "line 7: pushed revision '2147483648' is not a whole number from 1 to 2147483647",
        "line 8: health UUID 'not-a-uuid' is not a UUID such as B3F2AF6D-0FC7-40C5-853B-559647364CEA",
      ])
  }

  @Test func weighJSONRefusesVersionsItDoesNotRead() throws {
    func refusal(_ text: String) -> ImportError? {
      do {
        _ = try WeighJSONImporter.importWeights(Array(text.utf8))
        return nil
      } catch {
        return error as? ImportError
      }
    }
    #expect(
      refusal("{\"format\": \"weigh\",\n \"version\": 2, \"entries\": []}")
        == ImportError(
          line: 2,
          "weigh JSON version 2 is not one this weigh reads (it reads version 1); "
            + "import the file with the weigh that wrote it"))
    #expect(
      refusal(#"{"format": "weigh", "version": "1", "entries": []}"#)?.message.hasPrefix(
        #"weigh JSON version "1" is not"#) == true)
    #expect(refusal(#"{"format": "weigh", "version": 1.0, "entries": []}"#) != nil)
    #expect(
      refusal(#"{"format": "weigh", "entries": []}"#)?.message
        == #"weigh's JSON lacks "version"; this weigh reads version 1 (as export writes it)"#)
    #expect(refusal(#"{"format": "weigh", "version": 1, "entries": []}"#) == nil)
    let huge =
      #"{"format": "weigh", "version": 1, "entries": [{"id": 1, "instant": "2026-01-03T06:30:00Z", "kilograms": 70, "origin": "manual", "source": "weigh", "revision": 9223372036854775807}]}"#
    let result = try WeighJSONImporter.importWeights(Array(huge.utf8))
    #expect(result.weights.isEmpty)
    #expect(
      result.rejections.map(\.reason) == [
        "revision '9223372036854775807' is not a whole number from 1 to 2147483647"
      ])
  }

  @Test func writesFilesByExtension() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let entries = [
      Entry(id: 7, instant: 0, kilograms: 70, origin: .manual, source: "weigh", note: "n")
    ]
    for name in ["out.csv", "out.json"] {
      let url = folder.appendingPathComponent(name)
      let format = WeighExportFormat(fileName: name)
      try Data(WeighExporter.text(entries, as: format).utf8).write(to: url)
      let result = try WeightImporter.importWeights(
        from: url, zone: ZonedClock(identifier: "UTC")!)
      #expect(result.format == (name.hasSuffix("json") ? .weighJSON : .weighCSV))
      #expect(result.weights.compactMap(\.entry) == entries)
    }
  }
}
