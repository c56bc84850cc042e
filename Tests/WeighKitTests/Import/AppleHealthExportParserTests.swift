import Foundation
import Testing

@testable import WeighKit

/// Parses `bytes` fed in chunks of `chunkSize`, collecting every item with its line, and
/// the count of elements the parser repaired.
func parseExportInChunks(_ bytes: [UInt8], chunkSize: Int = 1 << 20, types: Set<String>? = nil)
  throws -> (items: [(item: HealthExportItem, line: Int)], repaired: Int)
{
  var items: [(item: HealthExportItem, line: Int)] = []
  let parser = AppleHealthExportParser(recordTypes: types) { items.append(($0, $1)) }
  var start = 0
  while start < bytes.count {
    let end = min(start + chunkSize, bytes.count)
    try parser.feed(Array(bytes[start..<end]))
    start = end
  }
  try parser.finish()
  return (items, parser.repairedElements)
}

/// `parseExportInChunks`'s items.
private func parse(_ bytes: [UInt8], chunkSize: Int = 1 << 20, types: Set<String>? = nil)
  throws -> [(item: HealthExportItem, line: Int)]
{
  try parseExportInChunks(bytes, chunkSize: chunkSize, types: types).items
}

private func parse(_ text: String) throws -> [(item: HealthExportItem, line: Int)] {
  try parse(Array(text.utf8))
}

private func records(_ items: [(item: HealthExportItem, line: Int)]) -> [HealthExportRecord] {
  items.compactMap { if case .record(let record) = $0.item { record } else { nil } }
}

private func parseError(_ text: String) -> ImportError? {
  do {
    _ = try parse(text)
    return nil
  } catch {
    return error as? ImportError
  }
}

@Suite struct AppleHealthExportParserTests {
  @Test func readsEveryKindOfItemWithItsLine() throws {
    let items = try parse(Fixtures.bytes("apple/export-with-dtd.xml"))
    #expect(items.first?.item == .healthData(locale: "en_GB"))
    #expect(items.contains { $0.item == .exportDate("2026-01-10 09:00:00 +0000") })
    let me = items.compactMap { if case .me(let attributes) = $0.item { attributes } else { nil } }
    #expect(
      me.first?[attribute: "HKCharacteristicTypeIdentifierBiologicalSex"] == "HKBiologicalSexFemale"
    )
    let all = records(items)
    #expect(all.count == 9)
    let lines = items.compactMap { if case .record = $0.item { $0.line } else { nil } }
    #expect(Array(lines.prefix(6)) == [22, 23, 27, 28, 31, 32])
    let bodyMass = all[1]
    #expect(bodyMass.type == healthBodyMassType)
    #expect(bodyMass.unit == "kg" && bodyMass.value == "68.5")
    #expect(bodyMass.sourceVersion == "6.3.1")
    #expect(bodyMass.startDate == HealthExportDate(instant: 1_767_421_800, offsetSeconds: 3600))
    #expect(
      bodyMass.metadata == [
        .init(key: "HKWasUserEntered", value: "0"),
        .init(key: "Withings User Identifier", value: "12345"),
      ])
    #expect(all[4].sourceName == "Scale & Co")
    #expect(all[0].sourceName == "Anna’s iPhone")
  }

  @Test func decodesDeviceStrings() throws {
    let step = try records(parse(Fixtures.bytes("apple/export-with-dtd.xml")))[0]
    #expect(step.device?.hasPrefix("<<HKDevice: 0x281b2c0a0>, name:iPhone,") == true)
    let device = try #require(step.device.flatMap { HealthExportDevice(exportDescription: $0) })
    #expect(device.name == "iPhone")
    #expect(device.manufacturer == "Apple Inc.")
    #expect(device.hardware == "iPhone15,2")
    #expect(device.software == "17.2")
    #expect(
      HealthExportDevice(exportDescription: device.exportDescription(address: 0x281b2c0a0))
        == device)
  }

  @Test func skipsCorrelationChildrenButKeepsTopLevelCopies() throws {
    let items = try parse(Fixtures.bytes("apple/export-with-dtd.xml"))
    let correlations = items.compactMap {
      if case .correlation(let correlation) = $0.item { correlation } else { nil }
    }
    #expect(correlations.count == 1)
    #expect(correlations.first?.skippedRecords == 2)
    #expect(correlations.first?.metadata == [.init(key: "HKWasUserEntered", value: "0")])
    let systolic = records(items).filter {
      $0.type == "HKQuantityTypeIdentifierBloodPressureSystolic"
    }
    #expect(systolic.count == 1)
  }

  @Test func readsWorkoutsWithEventsAndStatistics() throws {
    let items = try parse(Fixtures.bytes("apple/export-with-dtd.xml"))
    let found = items.compactMap { item -> (HealthExportWorkout, Int)? in
      if case .workout(let workout) = item.item { (workout, item.line) } else { nil }
    }
    let (workout, line) = try #require(found.first)
    #expect(line == 43)
    #expect(workout.activityType == "HKWorkoutActivityTypeRunning")
    #expect(workout.durationMinutes == 31.5)
    #expect(workout.metadata == [.init(key: "HKIndoorWorkout", value: "0")])
    #expect(workout.events.map(\.type) == ["HKWorkoutEventTypeSegment", "HKWorkoutEventTypePause"])
    #expect(workout.events[1].metadata == [.init(key: "note", value: "traffic light")])
    #expect(workout.statistics.first?.sum == "312.4")
    #expect(workout.statistics.first?.unit == "kcal")
  }

  @Test func readsOldActivitySummaryNamesAndCRLF() throws {
    let items = try parse(Fixtures.bytes("apple/export-no-dtd.xml"))
    let summary = items.compactMap {
      if case .activitySummary(let attributes) = $0.item { attributes } else { nil }
    }.first
    #expect(summary?[attribute: "appleMoveMinutes"] == "0")
    #expect(items.last?.line == 8)
  }

  @Test func sameItemsWhateverTheChunkSize() throws {
    let bytes = try Fixtures.bytes("apple/export-with-dtd.xml")
    let whole = try parse(bytes)
    for size in [1, 2, 3, 5, 7, 64, 1000] {
      let chunked = try parse(bytes, chunkSize: size)
      #expect(chunked.map(\.item) == whole.map(\.item), "chunk size \(size)")
      #expect(chunked.map(\.line) == whole.map(\.line), "chunk size \(size)")
    }
  }

  @Test func filtersRecordTypesByWholeValue() throws {
    let items = try parse(Fixtures.bytes("apple/export-with-dtd.xml"), types: [healthBodyMassType])
    #expect(records(items).count == 4)
    #expect(records(items).allSatisfy { $0.type == healthBodyMassType })
  }

  @Test func toleratesABrokenDTD() throws {
    let all = try records(parse(Fixtures.bytes("apple/export-broken-dtd.xml")))
    #expect(all.map(\.value) == ["80.9"])
  }

  @Test func decodesReferencesAndNormalizesWhitespace() throws {
    let text = """
      <HealthData locale="en_US"><Record type="T" sourceName="a&#10;b&#x1F600;&lt;&apos;&quot;" \
      startDate="2026-01-03 07:30:00 +0100" endDate="2026-01-03 07:30:00 +0100" value='x
      y'/><![CDATA[ <ignored> ]]></HealthData>
      """
    let record = try #require(records(parse(text)).first)
    #expect(record.sourceName == "a\nb😀<'\"")
    #expect(record.value == "x y")
  }

  @Test func reportsMismatchedTagsWithLineAndColumn() throws {
    let bytes = try Fixtures.bytes("apple/export-mismatched.xml")
    #expect(
      throws: ImportError(line: 6, column: 2, "mismatched end tag </Workout>; expected </Record>")
    ) {
      try parse(bytes)
    }
  }

  @Test func reportsTruncatedFiles() throws {
    let bytes = try Fixtures.bytes("apple/export-truncated.xml")
    for size in [7, 1 << 20] {
      #expect(throws: ImportError.self) { try parse(bytes, chunkSize: size) }
      do {
        _ = try parse(bytes, chunkSize: size)
      } catch let error as ImportError {
        #expect(error.line == 33)
        #expect(error.message.contains("truncated"))
      }
    }
    let unclosed = parseError("<HealthData locale=\"x\">\n <ExportDate value=\"v\"/>\n")
    #expect(unclosed?.message.contains("ends inside <HealthData>") == true)
    #expect(unclosed?.line == 3)
  }

  @Test func reportsOtherMalformations() {
    #expect(parseError("<HealthData locale=en_US/>")?.message == "attribute values must be quoted")
    #expect(parseError("<HealthData a=\"&nbsp;\"/>")?.column == 16)
    #expect(parseError("<HealthData a=\"x\"b=\"y\"/>")?.message.contains("space") == true)
    #expect(parseError("hello <HealthData/>")?.message == "text outside the root element")
    #expect(parseError("<HealthData/><HealthData/>")?.message.contains("second root") == true)
    #expect(parseError("<svg/>")?.message.contains("not <HealthData>") == true)
    #expect(parseError("")?.message.contains("empty") == true)
    #expect(parseError("<HealthData><!-- a -- b --></HealthData>") != nil)
    #expect(parseError("<HealthData></Record>") != nil)
  }

  @Test func reportsInvalidRecordsWithoutStopping() throws {
    let items = try parse(Fixtures.bytes("apple/export-bad-values.xml"))
    let invalid = items.compactMap {
      if case .invalid(let rejection) = $0.item { rejection } else { nil }
    }
    #expect(invalid.map(\.line) == [7, 9])
    #expect(invalid[0].reason.contains("2026-02-30"))
    #expect(invalid[1].reason.contains("sourceName"))
    #expect(records(items).count == 5)
  }

  @Test func aTagThatNeverEndsDoesNotGrowMemoryForever() throws {
    let parser = AppleHealthExportParser { _, _ in }
    try parser.feed(Array("<HealthData locale=\"x\"><!-- ".utf8))
    let chunk = [UInt8](repeating: 0x61, count: 33 << 20)
    try parser.feed(chunk)
    #expect(throws: ImportError.self) { try parser.feed(chunk) }
  }
}
