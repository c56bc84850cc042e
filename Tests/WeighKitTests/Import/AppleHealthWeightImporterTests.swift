import Foundation
import Testing

@testable import WeighKit

@Suite struct AppleHealthWeightImporterTests {
  @Test func convertsEachRecordsOwnUnitExactly() throws {
    let result = try AppleHealthWeightImporter.importWeights(
      from: Fixtures.url("apple/export-with-dtd.xml"))
    #expect(result.format == .appleHealthXML)
    #expect(result.rejections.isEmpty)
    #expect(result.weights.map(\.kilograms) == [68.5, 150 * 0.45359237, 70.25, 11 * 6.35029318])
    #expect(result.weights.map(\.line) == [23, 28, 31, 32])
    #expect(result.weights.map(\.source) == ["Health Mate", "Health", "Scale & Co", "Health"])
    // 2026-07-04 08:00:00 +0200 is 06:00 UTC.
    #expect(result.weights[1].instant == 1_783_144_800)
    #expect(result.weights[2].instant == 1_767_610_800)
  }

  @Test func bodyMassIndexIsNotBodyMass() throws {
    let result = try AppleHealthWeightImporter.importWeights(
      from: Fixtures.url("apple/export-with-dtd.xml"))
    #expect(!result.weights.contains { $0.kilograms == 22.4 })
  }

  @Test func countsDuplicatesWithinTheFileOnce() throws {
    let result = try AppleHealthWeightImporter.importWeights(
      from: Fixtures.url("apple/export-no-dtd.xml"))
    #expect(result.weights.count == 2)
    #expect(result.duplicatesInFile == 1)
    #expect(result.weights.map(\.source) == ["Health", "Health Mate"])
    #expect(result.weights.map(\.line) == [5, 7])
  }

  @Test func rejectsWrongUnitsAndValuesWithLineAndReason() throws {
    let result = try AppleHealthWeightImporter.importWeights(
      from: Fixtures.url("apple/export-bad-values.xml"))
    #expect(result.weights.map(\.kilograms) == [69.1])
    #expect(result.rejections.map(\.line) == [4, 5, 6, 7, 8, 9])
    #expect(
      result.rejections[0].location(in: "export.xml") == SourceLocation(file: "export.xml", line: 4)
    )
    #expect(
      result.rejections[0].reason == "unit 'kcal' is not a mass unit; expected kg, lb, g or st")
    #expect(result.rejections[1].reason == "body mass without a unit; expected kg, lb, g or st")
    #expect(result.rejections[2].reason == "body mass value 'heavy' is not a number")
    #expect(result.rejections[4].reason.contains("outside 0–1000 kg"))
  }

  @Test func malformedFilesImportNothing() {
    #expect(throws: ImportError.self) {
      try AppleHealthWeightImporter.importWeights(from: Fixtures.url("apple/export-truncated.xml"))
    }
    #expect(throws: ImportError.self) {
      try AppleHealthWeightImporter.importWeights(from: Fixtures.url("apple/missing.xml"))
    }
  }
}
