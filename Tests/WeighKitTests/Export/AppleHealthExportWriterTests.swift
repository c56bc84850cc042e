import Foundation
import Testing
import ZIPFoundation

@testable import WeighKit

#if canImport(FoundationXML)
  import FoundationXML
#endif

private let amsterdam = ZonedClock(identifier: "Europe/Amsterdam")!

private func date(_ text: String) -> HealthExportDate { HealthExportDate.parse(text)! }

private let watch = HealthExportDevice(
  name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,7",
  software: "10.2")

private let sampleRecords = [
  HealthExportRecord(
    type: healthBodyMassType, sourceName: "weigh", sourceVersion: "1.0",
    device: HealthExportDevice(name: "Body+", manufacturer: "Withings").exportDescription(),
    unit: "kg", creationDate: date("2026-01-03 07:31:00 +0100"),
    startDate: date("2026-01-03 07:30:00 +0100"), endDate: date("2026-01-03 07:30:00 +0100"),
    value: "68.5",
    metadata: [
      .init(key: "HKWasUserEntered", value: "1"),
      .init(key: "note", value: "line one\nline \"two\", <tab>\there & ünïcödé 🙂\r\n"),
    ]),
  HealthExportRecord(
    type: "HKQuantityTypeIdentifierHeartRate", sourceName: "Anna’s Apple Watch",
    device: watch.exportDescription(address: 0x3012772a0), unit: "count/min",
    startDate: date("2026-07-03 07:30:00 +0200"), endDate: date("2026-07-03 07:30:00 +0200"),
    value: "64"),
  HealthExportRecord(
    type: "HKCategoryTypeIdentifierSleepAnalysis", sourceName: "Health",
    startDate: date("2026-07-03 00:30:00 +0200"), endDate: date("2026-07-03 06:30:00 +0200"),
    value: "HKCategoryValueSleepAnalysisInBed"),
]

private let sampleWorkout = HealthExportWorkout(
  activityType: "HKWorkoutActivityTypeCycling", duration: "45", durationUnit: "min",
  totalDistance: "20.1", totalDistanceUnit: "km", totalEnergyBurned: "500",
  totalEnergyBurnedUnit: "kcal", sourceName: "Strava", sourceVersion: "300",
  creationDate: date("2026-01-04 11:00:00 +0100"), startDate: date("2026-01-04 10:00:00 +0100"),
  endDate: date("2026-01-04 10:45:00 +0100"), metadata: [.init(key: "HKIndoorWorkout", value: "1")],
  events: [
    .init(type: "HKWorkoutEventTypePause", date: date("2026-01-04 10:10:00 +0100")),
    .init(
      type: "HKWorkoutEventTypeLap", date: date("2026-01-04 10:20:00 +0100"), duration: "5",
      durationUnit: "min", metadata: [.init(key: "lap", value: "2")]),
  ],
  statistics: [
    .init(
      type: "HKQuantityTypeIdentifierHeartRate", startDate: date("2026-01-04 10:00:00 +0100"),
      endDate: date("2026-01-04 10:45:00 +0100"), average: "141", minimum: "90", maximum: "171",
      unit: "count/min")
  ])

private func writeSample(_ writer: AppleHealthExportWriter) throws {
  for record in sampleRecords { try writer.write(record) }
  try writer.write(sampleWorkout)
  try writer.write(
    HealthExportCorrelation(
      type: "HKCorrelationTypeIdentifierBloodPressure", sourceName: "Omron",
      startDate: date("2026-01-05 08:00:00 +0100"), endDate: date("2026-01-05 08:00:00 +0100")),
    records: [sampleRecords[1]])
}

private func readBack(_ bytes: [UInt8]) throws -> [HealthExportItem] {
  var items: [HealthExportItem] = []
  let parser = AppleHealthExportParser { item, _ in items.append(item) }
  try parser.feed(bytes)
  try parser.finish()
  return items
}

@Suite struct AppleHealthExportWriterTests {
  let exportDate = HealthExportDate(instant: 1_767_600_000, zone: amsterdam)

  @Test func writesApplesShape() throws {
    let xml = try AppleHealthExportWriter.xml(exportDate: exportDate, body: writeSample)
    let lines = xml.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[0] == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
    #expect(lines[1] == "<!DOCTYPE HealthData [")
    #expect(lines[2] == "<!-- HealthKit Export Version: 14 -->")
    #expect(
      xml.contains(
        "]>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2026-01-05 09:00:00 +0100\"/>\n <Me HKCharacteristicTypeIdentifierDateOfBirth=\"\""
      ))
    #expect(
      xml.contains(
        " <Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"weigh\" sourceVersion=\"1.0\" device=\"&lt;&lt;HKDevice: 0x282a45810&gt;, name:Body+, manufacturer:Withings&gt;\" unit=\"kg\" creationDate=\"2026-01-03 07:31:00 +0100\" startDate=\"2026-01-03 07:30:00 +0100\" endDate=\"2026-01-03 07:30:00 +0100\" value=\"68.5\">\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n"
      ))
    #expect(xml.contains("hardware:Watch6,7, software:10.2&gt;"))
    #expect(
      xml.contains("&#10;line &quot;two&quot;, &lt;tab&gt;&#9;here &amp; ünïcödé 🙂&#13;&#10;"))
    #expect(xml.hasSuffix("</HealthData>\n"))
  }

  @Test func writtenThenReadGivesTheSameRecords() throws {
    let xml = try AppleHealthExportWriter.xml(exportDate: exportDate, body: writeSample)
    let items = try readBack(Array(xml.utf8))
    let records = items.compactMap { if case .record(let record) = $0 { record } else { nil } }
    #expect(records == sampleRecords)
    #expect(items.contains(.workout(sampleWorkout)))
    #expect(items.contains(.exportDate("2026-01-05 09:00:00 +0100")))
    #expect(
      items.contains { if case .correlation(let c) = $0 { c.skippedRecords == 1 } else { false } })
  }

  @Test func zipRoundTripStreamsTheEntry() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let zip = folder.appendingPathComponent("export.zip")
    try AppleHealthExportWriter.writeZip(to: zip, exportDate: exportDate, body: writeSample)
    #expect(try AppleHealthExportReader.isZip(zip))
    var records: [HealthExportRecord] = []
    try AppleHealthExportReader.read(contentsOf: zip) { item, _ in
      if case .record(let record) = item { records.append(record) }
    }
    #expect(records == sampleRecords)
    let weights = try AppleHealthWeightImporter.importWeights(from: zip)
    #expect(weights.format == .appleHealthZip)
    #expect(weights.weights.map(\.kilograms) == [68.5])
  }

  @Test func zipCarriesACDADocumentOfBodyMassAndGlucose() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let zip = folder.appendingPathComponent("export.zip")
    let glucose = HealthExportRecord(
      type: "HKQuantityTypeIdentifierBloodGlucose", sourceName: "CGM", unit: "mg/dL",
      startDate: date("2026-01-04 06:00:00 -0500"), endDate: date("2026-01-04 06:00:00 -0500"),
      value: "105")
    try AppleHealthExportWriter.writeZip(to: zip, exportDate: exportDate, body: writeSample) {
      cda in
      for record in sampleRecords + [glucose] { try cda.write(record) }
    }
    let archive = try Archive(url: zip, accessMode: .read)
    let entry = try #require(archive[AppleHealthExportWriter.cdaEntryPath])
    var bytes = Data()
    _ = try archive.extract(entry) { bytes.append($0) }
    let document = try CDAObservations(bytes)
    // The heart rate and the sleep record are not body mass or glucose: left out.
    #expect(document.isClinicalDocument)
    #expect(document.values == ["68.5 kg", "105 mg/dL"])
    #expect(document.codes == ["3141-9", "2339-0"])
    #expect(document.lows == ["20260103073000+0100", "20260104060000-0500"])
    #expect(document.types == [healthBodyMassType, "HKQuantityTypeIdentifierBloodGlucose"])
    #expect(document.sourceNames == ["weigh", "CGM"])
  }

  @Test func zipWithoutTheExportEntryIsAnError() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let zip = folder.appendingPathComponent("other.zip")
    let text = folder.appendingPathComponent("readme.txt")
    try Data("hello".utf8).write(to: text)
    let archive = try Archive(url: zip, accessMode: .create)
    try archive.addEntry(with: "readme.txt", fileURL: text)
    #expect(throws: ImportError.self) {
      try AppleHealthExportReader.read(contentsOf: zip) { _, _ in }
    }
  }
}

/// What a CDA document says of its observations, read with Foundation's XML parser.
private final class CDAObservations: NSObject, XMLParserDelegate {
  var isClinicalDocument = false
  var values: [String] = []
  var codes: [String] = []
  var lows: [String] = []
  var types: [String] = []
  var sourceNames: [String] = []
  private var path: [String] = []
  private var characters = ""

  init(_ data: Data) throws {
    super.init()
    let parser = XMLParser(data: data)
    parser.delegate = self
    guard parser.parse() else {
      throw parser.parserError ?? ImportError("the CDA document is not well-formed XML")
    }
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    if path.isEmpty { isClinicalDocument = name == "ClinicalDocument" }
    let parent = path.last
    path.append(name)
    characters = ""
    if parent == "observation", name == "value" {
      values.append("\(attributes["value"] ?? "") \(attributes["unit"] ?? "")")
    }
    if parent == "observation", name == "code" { codes.append(attributes["code"] ?? "") }
    if name == "low", path.dropLast(2).last == "observation" {
      lows.append(attributes["value"] ?? "")
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { characters += string }

  func parser(
    _ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
    qualifiedName: String?
  ) {
    if path.dropLast().last == "text" {
      if name == "type" { types.append(characters) }
      if name == "sourceName" { sourceNames.append(characters) }
    }
    path.removeLast()
  }
}
