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
    Gen.int(in: 1...1_000_000), Gen.int64(in: -70_000_000_000...300_000_000_000),
    Gen.double(in: 0.001...999.999), Gen<Origin>.case
  ),
  zip(textGen, textGen.optional, Gen.int(in: 1...50), Gen.bool)
).map { first, second in
  let (id, instant, kilograms, origin) = first
  let (source, note, revision, linked) = second
  return Entry(
    id: id, instant: instant, kilograms: kilograms, origin: origin, source: source, note: note,
    revision: revision, healthUUID: linked ? UUID().uuidString : nil,
    pushedUUID: linked ? nil : "", pushedRevision: linked ? revision : nil)
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
        note: "", revision: 3, healthUUID: "8C1F…", pushedUUID: nil, pushedRevision: nil),
      Entry(
        id: 3, instant: Int64.max, kilograms: 1e-300, origin: .import, source: "",
        note: "line\nline\r\n\"quoted\", 🙂", revision: 1, pushedUUID: "X", pushedRevision: 1),
      Entry(id: 4, instant: Int64.min, kilograms: 999.9999999999999, origin: .manual, source: "s"),
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

  @Test func writesFilesByExtension() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let entries = [
      Entry(id: 7, instant: 0, kilograms: 70, origin: .manual, source: "weigh", note: "n")
    ]
    for name in ["out.csv", "out.json"] {
      let url = folder.appendingPathComponent(name)
      try WeighExporter.export(entries, to: url)
      let result = try WeightImporter.importWeights(
        from: url, timeZone: TimeZone(identifier: "UTC")!)
      #expect(result.format == (name.hasSuffix("json") ? .weighJSON : .weighCSV))
      #expect(result.weights.compactMap(\.entry) == entries)
    }
  }
}
