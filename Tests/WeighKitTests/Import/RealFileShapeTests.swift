import Foundation
import Testing

@testable import WeighKit

/// Shapes met in real export files from public repositories (docs/files.md, "Real files
/// tried"), each in rows written here: what each is read as, and that nothing is dropped
/// or guessed unsaid.
@Suite struct RealFileShapeTests {
  private func format(_ text: String) -> ImportFormat? {
    ImportFormat.detect(fileName: "file.csv", firstBytes: Array(text.utf8))
  }

  @Test func googleFitWithTheWeightsFirstIsGoogleFit() throws {
    let text = """
      Date,Average weight (kg),Max weight (kg),Min weight (kg),Step count
      2025-10-06,81.4,81.6,81.2,
      2025-10-07,,,,8211
      2025-10-08,80.9,80.9,80.9,10322

      """
    #expect(format(text) == .googleFitCSV)
    // Quoted again as one field, it is still Google Fit's.
    #expect(
      format("\"Date,Average weight (kg),Max weight (kg)\"\n2025-10-06,81.4,81.6\n")
        == .googleFitCSV)
    let result = try GoogleFitCSVImporter.importWeights(Array(text.utf8), zone: .utc)
    #expect(result.weights.map(\.kilograms) == [81.4, 80.9])
    #expect(result.rejections.isEmpty)
    // Withings' own header is still Withings'.
    #expect(format("Date,\"Weight (kg)\",\"Fat mass (kg)\",Comments\n") == .withingsCSV)
  }

  @Test func lowerCaseDateAndWeightIsNotOpenScale() {
    #expect(format("date,weight,bmi,fat\n2025-09-01,178.4,26.3,20.1\n") == .genericCSV)
    #expect(
      format("date,weight,bmi,source\n2025-09-01 09:29:00,80.85,24.4,manual\n") == .genericCSV)
    // openScale's headers as its exporters write them.
    #expect(format("DATE,TIME,BMI,WEIGHT\n2025-12-28,06:58,23.1,70.4\n") == .openScaleCSV)
    #expect(
      format("\"comment\",\"dateTime\",\"weight\"\n\"\",\"2022-04-16 20:45\",74.5\n")
        == .openScaleCSV)
  }

  @Test func aFileWithoutAHeaderLosesNoRow() throws {
    let text = "14/09/2025,96.2\r\n15/09/2025,95.8\r\n16/09/2025,96.0"
    let options = GenericCSVOptions(
      date: "1", weight: "2", unit: .kg, format: CSVDatePattern.known("dd/MM/yyyy"))
    let result = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc, options: options)
    #expect(result.weights.map(\.kilograms) == [96.2, 95.8, 96.0])
    #expect(result.weights.first?.line == 1)
    #expect(result.firstLineWasRow)
    // Without a format the dates cannot be read: every row, the first too, is rejected.
    var unformatted = options
    unformatted.format = nil
    let refused = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc, options: unformatted)
    #expect(refused.weights.isEmpty)
    #expect(refused.rejections.map(\.line) == [1, 2, 3])
    // A header is still a header.
    let named = try GenericCSVImporter.importWeights(
      Array("when,kilos\n2025-09-14,96.2\n".utf8), zone: .utc,
      options: GenericCSVOptions(date: "1", weight: "2", unit: .kg))
    #expect(named.weights.count == 1)
    #expect(!named.firstLineWasRow)
  }

  @Test func aFileWithoutAHeaderSaysWhatToAdd() {
    let bytes = Array("14/09/2025,96.2\n15/09/2025,95.8\n".utf8)
    let unnamed = #expect(throws: ImportError.self) {
      try GenericCSVImporter.importWeights(bytes, zone: .utc, options: GenericCSVOptions())
    }
    #expect(
      unnamed?.message.contains(
        "the file has no header; name the columns by number from 1, such as date 1 weight 2")
        == true)
    let unitless = #expect(throws: ImportError.self) {
      try GenericCSVImporter.importWeights(
        bytes, zone: .utc, options: GenericCSVOptions(date: "1", weight: "2"))
    }
    #expect(unitless?.message.contains("no header to name the unit of column 2") == true)
    #expect(unitless?.line == 1)
  }

  @Test func aWeightSplitOverTwoColumnsIsRefused() {
    for (text, part) in [
      ("date,lbs,oz\n2025-07-19,9,10\n", "'oz'"),
      ("date,st,lb\n2025-07-19,11,7\n", "'lb'"),
    ] {
      let error = #expect(throws: ImportError.self) {
        try GenericCSVImporter.importWeights(
          Array(text.utf8), zone: .utc, options: GenericCSVOptions())
      }
      #expect(error?.message.contains("the column \(part) holds part of each weight") == true)
    }
    // Pounds with a fraction in one column are read.
    #expect(
      (try? GenericCSVImporter.importWeights(
        Array("date,lbs\n2025-07-19,9.625\n".utf8), zone: .utc, options: GenericCSVOptions()))?
        .weights.count == 1)
  }

  @Test func twoWeightColumnsSayWhichIsRead() throws {
    let text = "date,pounds,kilograms\n2023-01-19,245,111\n2023-01-20,248,112\n"
    let result = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc, options: GenericCSVOptions())
    #expect(result.weights.map(\.kilograms) == [245 * 0.45359237, 248 * 0.45359237])
    let note = try #require(result.weightColumnNote)
    #expect(note.contains("'pounds'") && note.contains("weight \"kilograms\""))
    // Named, the other column is read and nothing is said.
    let named = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc, options: GenericCSVOptions(weight: "kilograms"))
    #expect(named.weights.map(\.kilograms) == [111, 112])
    #expect(named.weightColumnNote == nil)
    // One weight column: no note.
    let one = try GenericCSVImporter.importWeights(
      Array("date,weight_kg\n2023-01-19,81.5\n".utf8), zone: .utc, options: GenericCSVOptions())
    #expect(one.weightColumnNote == nil)
  }

  @Test func rowsOfEmptyFieldsAreBlankLines() throws {
    let text = "date,weight\n2022/1/10,98\n2022/1/16,\n,\n , \n2022/1/17,97.5\n,"
    let result = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc, options: GenericCSVOptions(unit: .kg))
    #expect(result.weights.map(\.kilograms) == [98, 97.5])
    // The dated row without a weight is still refused, with its line.
    #expect(result.rejections.map(\.line) == [3])
  }

  @Test func datesWithoutSeparatorsAreReadWithTheFormatNamed() throws {
    let text = "date,bw,comment\n20170426,163.4,\n20180303,164.2,after a feast\n"
    var options = GenericCSVOptions(date: "date", weight: "bw", unit: .lb)
    let refused = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc, options: options)
    #expect(refused.weights.isEmpty)
    #expect(refused.rejections.allSatisfy { $0.reason.hasSuffix("add format \"yyyyMMdd\"") })
    options.format = CSVDatePattern.known("yyyyMMdd")
    let read = try GenericCSVImporter.importWeights(Array(text.utf8), zone: .utc, options: options)
    #expect(read.weights.map(\.line) == [2, 3])
    // A day alone is read at 12:00 (here in UTC).
    #expect(read.weights.first?.instant == 1_493_208_000)
    #expect(read.rejections.isEmpty)
  }

  @Test func aColumnOfNotesIsKept() throws {
    let text =
      "date,bw,comment\n2017-04-26,163.4,\n2018-03-03,164.2,\"after a feast, then a walk\"\n"
    let options = GenericCSVOptions(weight: "bw", unit: .lb)
    let read = try GenericCSVImporter.importWeights(Array(text.utf8), zone: .utc, options: options)
    #expect(read.weights.map(\.note) == [nil, "after a feast, then a walk"])
    // Another column named with `note`; the weight's or the date's column is refused.
    let other = try GenericCSVImporter.importWeights(
      Array("when,kg,mood\n2017-04-26 07:00,70.1,good\n".utf8), zone: .utc,
      options: GenericCSVOptions(date: "when", note: "3"))
    #expect(other.weights.map(\.note) == ["good"])
    for taken in ["bw", "date", "1"] {
      var named = options
      named.note = taken
      #expect(throws: ImportError.self) {
        try GenericCSVImporter.importWeights(Array(text.utf8), zone: .utc, options: named)
      }
    }
    // Without a header there is no name to find: no column is taken as notes.
    let headerless = try GenericCSVImporter.importWeights(
      Array("2017-04-26,163.4,memo\n".utf8), zone: .utc,
      options: GenericCSVOptions(date: "1", weight: "2", unit: .lb))
    #expect(headerless.weights.map(\.note) == [nil])
  }
}
