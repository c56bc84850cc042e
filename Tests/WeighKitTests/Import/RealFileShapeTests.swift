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

  @Test func dateAndWeightAloneNameNoApp() throws {
    // A log kept by hand (real24's bobonamac/combined, `Date, Weight`) is a CSV of your own.
    #expect(format("Date,Weight\n2025-10-04,81.2\n") == .genericCSV)
    #expect(format("Date, Weight\n08/31/2019 1:11:00 PM,  195.1\n") == .genericCSV)
    // MyFitnessPal's export, as documented, has its Body Fat % column.
    #expect(format("Date,Body Fat %,Weight\n2024-01-01,18.5,75.3\n") == .myFitnessPalCSV)
    #expect(throws: ImportError.self) {
      try MyFitnessPalCSVImporter.importWeights(
        Array("Date,Weight\n2024-01-01,75.3\n".utf8), zone: .utc, unit: .kg)
    }
    let text = "Date,Weight\n2025-10-04,81.2\n2025-10-05,80.9\n"
    #expect(throws: ImportError.self) {
      try GenericCSVImporter.importWeights(
        Array(text.utf8), zone: .utc, options: GenericCSVOptions())
    }
    let read = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc, options: GenericCSVOptions(unit: .kg))
    #expect(read.weights.map(\.source) == ["CSV", "CSV"])
    let note = try #require(read.sourceNote)
    #expect(note.contains("source CSV") && note.contains("source <name>"))
    // Named, the source is the one given and nothing is said; other headers say nothing.
    let named = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc, options: GenericCSVOptions(unit: .kg, source: "Scale"))
    #expect(named.weights.map(\.source) == ["Scale", "Scale"])
    #expect(named.sourceNote == nil)
    let lower = try GenericCSVImporter.importWeights(
      Array("date,weight\n2025-10-04,81.2\n".utf8), zone: .utc,
      options: GenericCSVOptions(unit: .kg))
    #expect(lower.sourceNote == nil)
  }

  @Test func aRowTypedWithSpacesInATabSeparatedFileIsSaidSo() throws {
    let text = "date\tweight\n2025-10-04\t81.2\n2025-10-05 80.9\n2025-10-06\t81.0\n2025-10-07\n"
    let result = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc, options: GenericCSVOptions(unit: .kg))
    #expect(result.weights.map(\.kilograms) == [81.2, 81.0])
    #expect(result.rejections.map(\.line) == [3, 5])
    #expect(
      result.rejections.first?.reason
        == "the row has one field where the header has 2; its fields seem separated by spaces, not tabs; separate them with tabs"
    )
    // A date alone is one field too, but no spaces: only the separator is named.
    #expect(
      result.rejections.last?.reason
        == "the row has one field where the header has 2; separate its fields with tabs")
    // A comma file's row of one field names commas; a file without a header, its first row.
    let headerless = try GenericCSVImporter.importWeights(
      Array("2025-10-04,81.2\n2025-10-05 80.9\n".utf8), zone: .utc,
      options: GenericCSVOptions(date: "1", weight: "2", unit: .kg))
    #expect(
      headerless.rejections.first?.reason
        == "the row has one field where the first row has 2; its fields seem separated by spaces, not commas; separate them with commas"
    )
  }

  @Test func aMonthNameInTheDateNamesItsFormat() throws {
    #expect(CSVDatePattern.suggestions(for: "31-Dec-1969 16:00") == ["dd-MMM-yyyy HH:mm"])
    #expect(CSVDatePattern.suggestions(for: "26-Sep-2015") == ["dd-MMM-yyyy"])
    // A word that is no month, or a year in the middle, fits no format.
    #expect(CSVDatePattern.suggestions(for: "31-Foo-1969 16:00").isEmpty)
    #expect(CSVDatePattern.suggestions(for: "31-Dec-69 16:00").isEmpty)
    let reason = GenericCSVImporter.dateReason("31-Dec-1969 16:00")
    #expect(reason.hasSuffix("add format \"dd-MMM-yyyy HH:mm\""))
    #expect(!reason.contains("day/month"))
  }

  @Test func aRowAtTimeZeroIsImportedAndSaid() throws {
    // QS Access-style rows from a public export of Health data: its first row is time 0
    // read in Pacific time.
    let text =
      "Start,Finish,Weight (lb)\n31-Dec-1969 16:00,31-Dec-1969 16:00,180.5\n"
      + "04-Mar-2025 06:12,04-Mar-2025 06:12,178.0\n"
    let options = GenericCSVOptions(
      date: "Start", weight: "Weight (lb)", format: CSVDatePattern.known("dd-MMM-yyyy HH:mm"))
    let zone = try #require(ZonedClock(identifier: "America/Los_Angeles"))
    let read = try GenericCSVImporter.importWeights(Array(text.utf8), zone: zone, options: options)
    #expect(read.weights.count == 2)
    #expect(read.weights.first?.instant == 0)
    #expect(read.nearEpochRows == 1)
    #expect(read.firstNearEpoch?.line == 2)
    #expect(read.firstNearEpoch?.date == "31-Dec-1969 16:00")
    // Read in UTC the row is 8 hours before time 0: still within reach, still said.
    let utc = try GenericCSVImporter.importWeights(Array(text.utf8), zone: .utc, options: options)
    #expect(utc.nearEpochRows == 1)
    // Rows of other years say nothing.
    let later = try GenericCSVImporter.importWeights(
      Array("date,kg\n1971-01-01,80\n2025-01-01,80\n".utf8), zone: .utc,
      options: GenericCSVOptions())
    #expect(later.nearEpochRows == 0 && later.firstNearEpoch == nil)
  }

  @Test func aDecimalCommaIsReadAndSaid() throws {
    // `;` between fields (a Portuguese sheet), and quoted in a comma-separated French one.
    let semicolons = "data;peso\n26/08/2025;81,6\n02/09/2025;NA\n09/09/2025;80.4\n"
    let options = GenericCSVOptions(unit: .kg, format: CSVDatePattern.known("dd/MM/yyyy"))
    let read = try GenericCSVImporter.importWeights(
      Array(semicolons.utf8), zone: .utc, options: options)
    #expect(read.weights.map(\.kilograms) == [81.6, 80.4])
    #expect(read.rejections.map(\.line) == [3])
    #expect(read.decimalCommaRows == 1 && read.firstDecimalComma == "81,6")
    let quoted = try GenericCSVImporter.importWeights(
      Array("date,poids\n2025-05-17,\"99,1\"\n2025-05-18,99\n".utf8), zone: .utc,
      options: GenericCSVOptions(unit: .kg))
    #expect(quoted.weights.map(\.kilograms) == [99.1, 99])
    #expect(quoted.decimalCommaRows == 1)
    // Only digits, one comma, one to three digits; `1,050` lb may be 1050 lb: not guessed.
    #expect(WeightValue.decimalComma(ArraySlice("81,6".utf8), unit: .kg) == 81.6)
    #expect(WeightValue.decimalComma(ArraySlice(" 100,25 ".utf8), unit: .kg) == 100.25)
    #expect(WeightValue.decimalComma(ArraySlice("81,600".utf8), unit: .kg) == 81.6)
    #expect(WeightValue.decimalComma(ArraySlice("1,050".utf8), unit: .lb) == nil)
    #expect(WeightValue.decimalComma(ArraySlice("1,234.5".utf8), unit: .kg) == nil)
    #expect(WeightValue.decimalComma(ArraySlice("8,1,6".utf8), unit: .kg) == nil)
    #expect(WeightValue.decimalComma(ArraySlice(",6".utf8), unit: .kg) == nil)
    #expect(WeightValue.decimalComma(ArraySlice("81,".utf8), unit: .kg) == nil)
    #expect(WeightValue.decimalComma(ArraySlice("NA".utf8), unit: .kg) == nil)
    // Vendors' files write a point: theirs is still refused.
    #expect(throws: ImportRejection.self) {
      try WeightValue.kilograms(utf8: ArraySlice("80,5".utf8), unit: .kg, line: 2)
    }
  }

  @Test func aYearOfTwoDigitsIsNotGuessed() throws {
    let reason = GenericCSVImporter.dateReason("17/05/20 9h30")
    #expect(reason.contains("writes its year with two digits"))
    #expect(!reason.contains("dd/MM/yyyy"))
    // Four digits: the usual advice.
    #expect(GenericCSVImporter.dateReason("17/05/2020").contains("add format \"dd/MM/yyyy\""))
  }

  @Test func appleClinicalDocumentCopyIsTold() {
    let cda = "<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\">\n"
    #expect(ImportFormat.isHealthCDA(firstBytes: Array(cda.utf8)))
    #expect(ImportFormat.detect(fileName: "export_cda.xml", firstBytes: Array(cda.utf8)) == nil)
    let export = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n"
    #expect(!ImportFormat.isHealthCDA(firstBytes: Array(export.utf8)))
    #expect(!ImportFormat.isHealthCDA(firstBytes: Array("Date,Weight\n".utf8)))
  }

  @Test func fieldsSeparatedBySpacesNameTheDelimiter() throws {
    let text = "2018-05-04 93.3\n2018-05-05 95\n"
    var options = GenericCSVOptions(date: "1", weight: "2", unit: .kg)
    do {
      _ = try GenericCSVImporter.importWeights(Array(text.utf8), zone: .utc, options: options)
      Issue.record("a column past the only one was found")
    } catch let error as ImportError {
      #expect(error.message.hasSuffix("add delimiter \" \""), "\(error.message)")
    }
    options.delimiter = 0x20
    let read = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc, options: options)
    #expect(read.weights.map(\.kilograms) == [93.3, 95])
  }

  @Test func linesEndingInACarriageReturnAloneAreRows() throws {
    // HealthKit weights saved by a spreadsheet of the classic Mac OS (real25): read as one
    // line, the file imported nothing and said nothing.
    let text = "date,kg\r2025-03-14 07:05,82.2\r2025-03-15 06:58,81.9\r2025-03-17 07:31,82.1"
    let rows = try CSVReader.rows(Array(text.utf8))
    #expect(rows.map(\.line) == [1, 2, 3, 4])
    let read = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc, options: GenericCSVOptions())
    #expect(read.weights.map(\.kilograms) == [82.2, 81.9, 82.1])
    #expect(read.weights.map(\.line) == [2, 3, 4])
    // Read from a file, chunk by chunk, the same.
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("real25-cr-\(UUID().uuidString).csv")
    try Data(text.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let fromFile = try GenericCSVImporter.importWeights(
      .file(url), zone: .utc, options: GenericCSVOptions())
    #expect(fromFile.weights.map(\.kilograms) == [82.2, 81.9, 82.1])
    // A file with `\n` keeps a `\r` inside quotes as written.
    let quoted = try CSVReader.rows(Array("a,b\n\"x\ry\",2\n".utf8))
    #expect(quoted.count == 2 && quoted[1][0] == "x\ry")
  }

  @Test func startAndFinishReadStartAsTheDate() throws {
    // QS Access's rows (three public repositories' files): a weighing's period, and a day's.
    let text =
      "Start,Finish,Weight (lb)\n04-Mar-2025 06:12,04-Mar-2025 06:12,178.0\n"
      + "05-Mar-2025 00:00,06-Mar-2025 00:00,177.6\n"
    #expect(format(text) == .genericCSV)
    #expect(format("Start,End,kg\n") == .genericCSV)
    // Start alone, or Finish alone, names no date.
    #expect(format("Start,Weight (kg)\n") == nil)
    #expect(format("Finish,Weight (kg)\n") == nil)
    let options = GenericCSVOptions(format: CSVDatePattern.known("dd-MMM-yyyy HH:mm"))
    let read = try GenericCSVImporter.importWeights(Array(text.utf8), zone: .utc, options: options)
    let march4 = try #require(LocalDateTime(year: 2025, month: 3, day: 4, hour: 6, minute: 12))
    let march5 = try #require(LocalDateTime(year: 2025, month: 3, day: 5, hour: 0, minute: 0))
    #expect(read.weights.map(\.instant) == [march4, march5].map { $0.instant(in: .utc) })
    #expect(read.dateColumnNote?.contains("column 'Start', where its period starts") == true)
    // Named, the date column is the one named, and nothing is said.
    var finish = options
    finish.date = "Finish"
    let ends = try GenericCSVImporter.importWeights(Array(text.utf8), zone: .utc, options: finish)
    #expect(ends.weights.last?.instant == march5.instant(in: .utc) + 86_400)
    #expect(ends.dateColumnNote == nil)
    // A header that names a date keeps it.
    let dated = try GenericCSVImporter.importWeights(
      Array("Date,Start,Finish,kg\n2025-03-04,x,y,80\n".utf8), zone: .utc,
      options: GenericCSVOptions())
    #expect(dated.weights.count == 1 && dated.dateColumnNote == nil)
  }

  @Test func aWeightColumnInOuncesIsRefused() throws {
    // A baby's weights in ounces (real25): `unit lb` read 107 oz as 107 lb.
    let text = "Date Time,Weight (oz)\n2025-02-17 09:37,107\n"
    for unit in [nil, MassUnit.lb, .kg] {
      do {
        _ = try GenericCSVImporter.importWeights(
          Array(text.utf8), zone: .utc,
          options: GenericCSVOptions(date: "Date Time", weight: "Weight (oz)", unit: unit))
        Issue.record("ounces were read as \(unit?.rawValue ?? "nothing")")
      } catch let error as ImportError {
        #expect(error.message.contains("'Weight (oz)' is in ounces"), "\(error.message)")
        #expect(error.line == 1)
      }
    }
    #expect(GenericCSVImporter.namesOunces("weight_oz"))
    #expect(GenericCSVImporter.namesOunces("OZ"))
    #expect(GenericCSVImporter.namesOunces("Weight ( ounces )"))
    #expect(!GenericCSVImporter.namesOunces("Weight (lb)"))
    #expect(!GenericCSVImporter.namesOunces("Weight"))
  }

  @Test func chineseAndUnderscoredNamesAreRead() throws {
    #expect(format("日期,体重\n2025-03-02,71.4\n") == .genericCSV)
    #expect(format("date,body_mass\n2021-02-01,165.2\n") == .genericCSV)
    let read = try GenericCSVImporter.importWeights(
      Array("日期,时间,体重\n2025-03-02,07:15,71.4\n".utf8), zone: .utc,
      options: GenericCSVOptions(unit: .kg))
    let morning = try #require(LocalDateTime(year: 2025, month: 3, day: 2, hour: 7, minute: 15))
    #expect(read.weights.map(\.instant) == [morning.instant(in: .utc)])
  }

  @Test func anExportWithoutBodyMassSaysWhatTypesBrings() throws {
    func held(_ records: String) throws -> Set<String> {
      let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("real25-types-\(UUID().uuidString).xml")
      let xml =
        "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData>\n<HealthData>\n\(records)</HealthData>\n"
      try Data(xml.utf8).write(to: url)
      defer { try? FileManager.default.removeItem(at: url) }
      return try AppleHealthWeightImporter.typesHeld(
        in: url,
        among: ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierBloodGlucose"],
        workouts: true)
    }
    func record(_ type: String, _ unit: String, _ value: String) -> String {
      "<Record type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"W\" unit=\"\(unit)\" "
        + "startDate=\"2021-05-04 10:00:00 +0000\" endDate=\"2021-05-04 10:00:00 +0000\" "
        + "value=\"\(value)\"/>\n"
    }
    // Heart rate alone (a study's export, real24): nothing that types reads.
    #expect(try held(record("HeartRate", "count/min", "71")).isEmpty)
    #expect(
      try held(record("HeartRate", "count/min", "71") + record("StepCount", "count", "12"))
        == ["HKQuantityTypeIdentifierStepCount"])
    // A record of a type asked for that is rejected (no sourceName) still shows the type
    // is there: with types, it is counted on the Health line.
    let unsourced = record("BloodGlucose", "mg/dL", "90")
      .replacingOccurrences(of: "sourceName=\"W\" ", with: "")
    #expect(try held(unsourced) == ["HKQuantityTypeIdentifierBloodGlucose"])
  }

  @Test func anOffsetAfterTheTimeNamesItsFormat() throws {
    // HealthKit's dates in a CSV of its records (real25): the refusal named a format that
    // does not read them.
    #expect(
      CSVDatePattern.suggestions(for: "2022-01-19 06:22:42 -0800")
        == ["yyyy-MM-dd HH:mm:ss XXX"])
    #expect(CSVDatePattern.suggestions(for: "19/01/2022 06:22 +01:00") == ["dd/MM/yyyy HH:mm XXX"])
    // A sign and digits that are no offset, or no time before them: nothing named.
    #expect(CSVDatePattern.suggestions(for: "2022-01-19 -0800").isEmpty)
    #expect(CSVDatePattern.suggestions(for: "2022-01-19 06:22:42 -08").isEmpty)
    let text =
      "startDate,value,unit,sourceName\n2020-09-24 06:51:02 -0800,228.622,lb,Health Mate\n"
      + "2020-09-24 06:51:02 -0800,228.622,lb,Health Mate\n"
    let read = try GenericCSVImporter.importWeights(
      Array(text.utf8), zone: .utc,
      options: GenericCSVOptions(
        date: "startDate", weight: "value", unit: .lb,
        format: CSVDatePattern.known("yyyy-MM-dd HH:mm:ss XXX")))
    #expect(read.weights.count == 1)
    let local = try #require(
      LocalDateTime(year: 2020, month: 9, day: 24, hour: 14, minute: 51, second: 2))
    #expect(read.weights.first?.instant == local.instant(in: .utc))
  }

  @Test func aDateWithoutItsYearSaysSo() {
    // A sheet kept by hand whose year stands in its own column only where it changes (real25).
    let reason = GenericCSVImporter.dateReason("February 27")
    #expect(reason.contains("names no year"), "\(reason)")
    #expect(!reason.contains("dd.MM.yyyy"))
    #expect(GenericCSVImporter.dateReason("27 Feb").contains("names no year"))
    // A year, or a word that is no month: not said.
    #expect(!GenericCSVImporter.dateReason("February 2023").contains("names no year"))
    #expect(!GenericCSVImporter.dateReason("Monday 27").contains("names no year"))
  }
}
