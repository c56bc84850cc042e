import Foundation
import Testing

@testable import WeighKit

/// Parses `text` fed in chunks of `chunkSize`; returns the items and the repaired count.
private func parse(_ text: String, chunkSize: Int = 1 << 20, types: Set<String>? = nil)
  throws -> (items: [HealthExportItem], repaired: Int)
{
  let parsed = try parseExportInChunks(Array(text.utf8), chunkSize: chunkSize, types: types)
  return (parsed.items.map(\.item), parsed.repaired)
}

private func document(_ body: String) -> String {
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_GB\">\n\(body)\n</HealthData>\n"
}

/// iOS 8's export: `source`, compact dates, metadata as attributes (some named with spaces).
@Suite struct AppleExportGenerationTests {
  static let withings = document(
    #" <Record type="HKQuantityTypeIdentifierBodyMass" source="Health Mate" unit="kg" startDate="20150603050217+0100" endDate="20150603050217+0100" value="68.4" Health Mate App Version="2.6.2" Withings  User Identifier = "1234567" HKWasUserEntered="0"/>"#
  )

  @Test func compactDatesReadAsTheSeparatedOnes() throws {
    let compact = try #require(HealthExportDate.parse("20150603050217+0100"))
    #expect(compact == HealthExportDate.parse("2015-06-03 05:02:17 +0100"))
    #expect(compact.offsetSeconds == 3600)
    #expect(HealthExportDate.parse("20150603050217-0730")?.offsetSeconds == -27_000)
    #expect(HealthExportDate.parse("20150631050217+0100") == nil)
    #expect(HealthExportDate.parse("2015060305021+01000") == nil)
    #expect(HealthExportDate.parse("20150603250217+0100") == nil)
  }

  @Test func attributeNamesWithSpacesAreKeptAsMetadataAndCounted() throws {
    // Every chunk size, so that a name cut between chunks reads the same.
    for chunkSize in [1, 7, 64, 1 << 20] {
      let (items, repaired) = try parse(Self.withings, chunkSize: chunkSize)
      guard case .record(let record) = try #require(items.last) else {
        Issue.record("expected a record, got \(items)")
        return
      }
      #expect(repaired == 1)
      #expect(record.sourceName == "Health Mate")
      #expect(record.sourceVersion == nil && record.device == nil)
      #expect(record.value == "68.4")
      #expect(
        record.metadata == [
          HealthExportMetadataEntry(key: "Health Mate App Version", value: "2.6.2"),
          HealthExportMetadataEntry(key: "Withings  User Identifier", value: "1234567"),
          HealthExportMetadataEntry(key: "HKWasUserEntered", value: "0"),
        ])
    }
  }

  @Test func aModernRecordIsNotRepairedAndHasNoExtraMetadata() throws {
    let (items, repaired) = try parse(
      document(
        #" <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" sourceVersion="17.1" unit="kg" creationDate="2025-12-20 07:31:00 +0100" startDate="2025-12-20 07:30:00 +0100" endDate="2025-12-20 07:30:00 +0100" value="74.3"/>"#
      ))
    #expect(repaired == 0)
    guard case .record(let record) = try #require(items.last) else { return }
    #expect(record.metadata.isEmpty)
  }

  @Test func whatIsNotANameIsStillAnError() {
    for broken in [
      #" <Record type="x" source="S" startDate="20150603050217+0100" endDate="20150603050217+0100" Health Mate/>"#,
      #" <Record type="x" Health Mate "2.6.2"/>"#,
      #" <Record type="x" source="S" a b="1" c d />"#,
    ] {
      #expect(throws: ImportError.self, "\(broken)") { try parse(document(broken)) }
    }
  }

  @Test func aRecordWithoutAnySourceIsRejectedWithItsType() throws {
    let (items, _) = try parse(
      document(
        #" <Record type="HKQuantityTypeIdentifierStepCount" unit="count" startDate="20150604080000+0100" endDate="20150604081000+0100" value="812"/>"#
      ))
    guard case .invalid(let rejection) = try #require(items.last) else {
      Issue.record("expected a rejection, got \(items)")
      return
    }
    #expect(rejection.recordType == "HKQuantityTypeIdentifierStepCount")
    #expect(rejection.reason.contains("has no sourceName (or iOS 8's source)"))
  }

  @Test func aTruncatedIOS8FileIsAnError() {
    let cut = String(Self.withings.prefix(Self.withings.utf8.count - 40))
    #expect(throws: ImportError.self) { try parse(cut) }
  }
}

@Suite struct SmallValueDisplayTests {
  @Test func aValueTooSmallForItsDecimalsShowsTwoSignificantDigits() {
    #expect(DisplayUnit.formatNonZero(0.12, decimals: 0) == "0.12")
    #expect(DisplayUnit.formatNonZero(0.4, decimals: 0) == "0.4")
    #expect(DisplayUnit.formatNonZero(0.004_1, decimals: 1) == "0.0041")
    #expect(DisplayUnit.formatNonZero(-0.03, decimals: 0) == "-0.03")
    #expect(DisplayUnit.formatNonZero(1e-300, decimals: 0) == "0")
    #expect(DisplayUnit.formatNonZero(0, decimals: 0) == "0")
    #expect(DisplayUnit.formatNonZero(311.4, decimals: 0) == "311")
    #expect(DisplayUnit.formatNonZero(0.6, decimals: 0) == "1")
  }
}
