import Foundation
import Testing

@testable import WeighKit

/// Fitbit's account CSV: only the Body section's weights, in the unit said, dates ISO or in
/// the layout `format` names.
@Suite struct FitbitCSVImporterTests {
  let utc = ZonedClock(identifier: "UTC")!

  /// An export with the Body section between others, each after a blank line.
  let export = """
    Foods
    Date,Calories In
    "2025-11-02","2,140"

    Body
    Date,Weight,BMI,Fat
    "2025-11-02","81.4","24.86","21.5"
    "2025-11-03","oops","24.77","0"
    "2025-11-04","80.9","24.7","0"

    Activities
    Date,Calories Burned,Steps,Distance,Floors,Minutes Sedentary,Minutes Lightly Active,Minutes Fairly Active,Minutes Very Active,Activity Calories
    "2025-11-02","2,512","81","8.31","12","702","211","28","35","1,083"
    """

  @Test func detectsTheAccountExport() {
    #expect(ImportFormat.detect(fileName: "f.csv", firstBytes: Array(export.utf8)) == .fitbitCSV)
    let bodyFirst = "\u{FEFF}Body\r\nDate,Weight,BMI,Fat\r\n\"2016-01-01\",\"80\",\"24\",\"0\"\r\n"
    #expect(
      ImportFormat.detect(fileName: "f.csv", firstBytes: Array(bodyFirst.utf8)) == .fitbitCSV)
    // A title without one of the export's headers under it is not the export.
    let other = "Body\nday,kg\n2016-01-01,80\n"
    #expect(ImportFormat.detect(fileName: "f.csv", firstBytes: Array(other.utf8)) != .fitbitCSV)
  }

  @Test func readsTheBodySectionOnly() throws {
    let result = try FitbitCSVImporter.importWeights(Array(export.utf8), zone: utc, unit: .kg)
    #expect(result.weights.map(\.kilograms) == [81.4, 80.9])
    #expect(result.weights.allSatisfy { $0.source == "Fitbit" })
    #expect(result.rejections.map(\.line) == [8])
    // Noon, local: 2025-11-02 12:00 UTC.
    #expect(result.weights.first?.instant == 1_762_084_800)
  }

  @Test func poundsAreConverted() throws {
    let text = "Body\nDate,Weight,BMI,Fat\n\"2016-01-01\",\"180.4\",\"25.17\",\"0\"\n"
    let result = try FitbitCSVImporter.importWeights(Array(text.utf8), zone: utc, unit: .lb)
    #expect(result.weights.map(\.kilograms) == [MassUnit.lb.toKilograms(180.4)])
  }

  @Test func dayAndMonthNeedAFormat() throws {
    let text = "Body\nDate,Weight,BMI,Fat\n\"03-11-2025\",\"80\",\"24\",\"0\"\n"
    let refused = try FitbitCSVImporter.importWeights(Array(text.utf8), zone: utc, unit: .kg)
    #expect(refused.weights.isEmpty)
    let reason = try #require(refused.rejections.first?.reason)
    #expect(reason.contains("format \"dd-MM-yyyy\" or format \"MM-dd-yyyy\""))
    let read = try FitbitCSVImporter.importWeights(
      Array(text.utf8), zone: utc, unit: .kg, format: CSVDatePattern.known("dd-MM-yyyy"))
    #expect(read.weights.count == 1)
    #expect(read.weights.first?.instant == 1_762_171_200)  // 2025-11-03 12:00 UTC
  }

  @Test func aFileWithoutBodyIsRefused() {
    let text =
      "Sleep\nStart Time,End Time,Minutes Asleep\n\"2025-11-02 11:41PM\",\"2025-11-03 7:02AM\",\"402\"\n"
    #expect {
      try FitbitCSVImporter.importWeights(Array(text.utf8), zone: utc, unit: .kg)
    } throws: { error in
      (error as? ImportError)?.message.hasPrefix("no Body section") == true
    }
  }

  @Test func titlesPaddedWithCommasAreTitles() throws {
    let text =
      "Body,,,\nDate,Weight,BMI,Fat\n\"2016-01-01\",\"80\",\"24\",\"0\"\nSleep,,,\nStart Time,End Time\n\"1\",\"2\"\n"
    #expect(ImportFormat.detect(fileName: "f.csv", firstBytes: Array(text.utf8)) == .fitbitCSV)
    let result = try FitbitCSVImporter.importWeights(Array(text.utf8), zone: utc, unit: .kg)
    #expect(result.weights.count == 1)
    #expect(result.rejections.isEmpty)
  }

  @Test func anUnknownTitleEndsTheSectionAndIsSaid() throws {
    let text =
      "Body\nDate,Weight,BMI,Fat\n\"2016-01-01\",\"80\",\"24\",\"0\"\nstray\n\"2016-01-02\",\"81\",\"24\",\"0\"\n"
    let result = try FitbitCSVImporter.importWeights(Array(text.utf8), zone: utc, unit: .kg)
    #expect(result.weights.count == 1)
    #expect(result.rejections.map(\.line) == [4])
  }

  @Test func theUnitIsRequired() {
    #expect {
      try WeightImporter.importWeights(
        Array(export.utf8), format: .fitbitCSV, zone: utc, unit: nil, csv: .init())
    } throws: { error in
      (error as? ImportError)?.message.contains("add unit kg, unit lb or unit st") == true
    }
  }
}
