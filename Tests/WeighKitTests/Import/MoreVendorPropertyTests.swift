import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// One random record: a minute of 2025 (wall clock, or UTC for formats that write UTC) and a
/// weight in hundredths of the format's unit.
private struct Record: Hashable {
  var minute: Int
  var hundredths: Int

  init(_ seed: Int) {
    minute = seed % 525_600
    hundredths = 3000 + (seed / 525_600) % 20_000
  }

  var date: CivilDate { CivilDate(daysSinceEpoch: 20_089 + Int64(minute / 1440)) }
  var local: LocalDateTime {
    LocalDateTime(date: date, secondOfDay: minute % 1440 * 60)
  }
  var dayText: String {
    String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
  }
  var clockText: String { String(format: "%02d:%02d", minute % 1440 / 60, minute % 60) }
  var value: String { String(format: "%d.%02d", hundredths / 100, hundredths % 100) }
  var amount: Double { Double(hundredths) / 100 }
}

/// Records with distinct minutes (or days, for formats with one weight a day), in time order.
private func records(_ seeds: [Int], oneADay: Bool = false) -> [Record] {
  var seen = Set<Int>()
  return seeds.map(Record.init).filter {
    seen.insert(oneADay ? $0.minute / 1440 : $0.minute).inserted
  }.sorted { $0.minute < $1.minute }
}

/// What a record is keyed on whatever the zone: the file's wall-clock time, or the instant
/// when the file wrote UTC or an offset.
private enum FileIdentity: Hashable {
  case wallClock(Int64, String)
  case instant(Int64, String)
}

private func identities(_ result: WeightImportResult) -> Set<FileIdentity> {
  Set(
    result.weights.map { weight in
      weight.fileTime.map { FileIdentity.wallClock($0, weight.source) }
        ?? .instant(weight.instant, weight.source)
    })
}

private let rome = ZonedClock(identifier: "Europe/Rome")!
private let newYork = ZonedClock(identifier: "America/New_York")!
private let seeds = Gen.int(in: 0...4_000_000_000_000).array(of: 0...25)

/// Reads `bytes` in Rome and in New York, checks the weights against `expected` (kilograms
/// and wall-clock time, or UTC instant), and that both readings key the same records.
private func check(
  _ expected: [Record], unit: MassUnit = .kg, utc: Bool = false, noon: Bool = false,
  _ read: (ZonedClock) throws -> WeightImportResult
) {
  failingOnThrow {
    let first = try read(rome)
    let second = try read(newYork)
    #expect(first.rejections.isEmpty, "\(first.rejections)")
    #expect(first.weights.count == expected.count)
    for (weight, record) in zip(first.weights, expected) {
      #expect(abs(weight.kilograms - unit.toKilograms(record.amount)) < 1e-9)
      var local = record.local
      if noon { local.secondOfDay = CSVWeightColumns.noon }
      if utc {
        #expect(weight.fileTime == nil)
        #expect(weight.instant == local.instant(in: .utc))
      } else {
        #expect(weight.fileTime == local.instant(in: .utc))
        #expect(weight.instant == local.instant(in: rome))
      }
    }
    // Imported again in another zone, every record is one already there.
    #expect(identities(first) == identities(second))
  }
}

@Suite struct MoreVendorPropertyTests {
  @Test func withingsInEnglishAndGerman() async {
    await propertyCheck(count: 100, input: seeds) { seeds in
      let list = records(seeds)
      let german = seeds.count % 2 == 0
      var text =
        german
        ? "Date,\"Gewicht (lb)\",\"Fettmasse (lb)\",Kommentare\n"
        : "Date,\"Weight (lb)\",\"Fat mass (lb)\",Comments\n"
      for record in list {
        text += "\"\(record.dayText) \(record.clockText):00\",\(record.value),,\n"
      }
      check(list, unit: .lb) { try WithingsCSVImporter.importWeights(Array(text.utf8), zone: $0) }
    }
  }

  @Test func renpho() async {
    await propertyCheck(count: 100, input: seeds) { seeds in
      let list = records(seeds)
      var text = "Time of Measurement,Weight(kg),BMI,Remarks\n"
      for record in list {
        text += "\(record.dayText) \(record.clockText):00,\(record.value),22.1,\n"
      }
      check(list) { try RenphoCSVImporter.importWeights(Array(text.utf8), zone: $0) }
    }
  }

  @Test func googleFitDays() async {
    await propertyCheck(count: 100, input: seeds) { seeds in
      let list = records(seeds, oneADay: true)
      var text = "Date,Step count,Average weight (kg),Max weight (kg)\n"
      for record in list { text += "\(record.dayText),1000,\(record.value),\(record.value)\n" }
      check(list, noon: true) { try GoogleFitCSVImporter.importWeights(Array(text.utf8), zone: $0) }
    }
  }

  @Test func samsungHealthIsUTC() async {
    await propertyCheck(count: 100, input: seeds) { seeds in
      let list = records(seeds)
      var text =
        "com.samsung.health.weight,6313004,3\ncom.samsung.health.weight.start_time,com.samsung.health.weight.weight,com.samsung.health.weight.time_offset,\n"
      for record in list {
        text += "\(record.dayText) \(record.clockText):00.000,\(record.value),UTC+0100,\n"
      }
      check(list, utc: true) { _ in
        try SamsungHealthCSVImporter.importWeights(Array(text.utf8))
      }
    }
  }

  @Test func garminDaysAndTimes() async {
    await propertyCheck(count: 100, input: seeds) { seeds in
      let list = records(seeds)
      let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
      ]
      var text = "Time,Weight,Change,BMI,Body Fat\n"
      var day: CivilDate?
      for record in list {
        if record.date != day {
          day = record.date
          text +=
            "\" \(months[record.date.month - 1]) \(record.date.day), \(record.date.year)\",,,,\n"
        }
        let hour = record.minute % 1440 / 60
        let clock =
          record.minute % 2 == 0
          ? record.clockText
          : String(
            format: "%d:%02d %@", (hour + 11) % 12 + 1, record.minute % 60, hour < 12 ? "AM" : "PM")
        text += "\(clock),\(record.value) lbs,--,25.1,20%\n"
      }
      check(list, unit: .lb) {
        try GarminWeightCSVImporter.importWeights(Array(text.utf8), zone: $0)
      }
    }
  }

  @Test func libraVersion6IsUTCAndVersion5Local() async {
    await propertyCheck(count: 100, input: seeds) { seeds in
      let list = records(seeds)
      var six = "#Version: 6\n#Units: kg\n\n#date;weight;weight trend;log\n"
      var five = "#Version:5\n#Units:kg\n\n#date;weight;weight trend;comment\n"
      for record in list {
        six += "\(record.dayText)T\(record.clockText):00.000Z;\(record.value);\(record.value);\n"
        five += "\(record.dayText) \(record.clockText):00;\(record.value);\(record.value);\n"
      }
      check(list, utc: true) { try LibraCSVImporter.importWeights(Array(six.utf8), zone: $0) }
      check(list) { try LibraCSVImporter.importWeights(Array(five.utf8), zone: $0) }
    }
  }

  @Test func myFitnessPalDays() async {
    await propertyCheck(count: 100, input: seeds) { seeds in
      let list = records(seeds, oneADay: true)
      var text = "Date,Body Fat %,Weight\n"
      for record in list { text += "\(record.dayText),21.5,\(record.value)\n" }
      check(list, unit: .lb, noon: true) {
        try MyFitnessPalCSVImporter.importWeights(Array(text.utf8), zone: $0, unit: .lb)
      }
    }
  }

  @Test func fitbitAccountBodyDays() async {
    await propertyCheck(count: 100, input: seeds) { seeds in
      let list = records(seeds, oneADay: true)
      // The Body section between others, its rows quoted; the weights in the account's unit.
      var text = "Body\nDate,Weight,BMI,Fat\n"
      for record in list { text += "\"\(record.dayText)\",\"\(record.value)\",\"24.1\",\"0\"\n" }
      text += "\nActivities\nDate,Calories Burned,Steps\n\"2025-01-01\",\"2,512\",\"77\"\n"
      #expect(
        ImportFormat.detect(
          fileName: "fitbit_export.csv", firstBytes: Array(text.utf8.prefix(4096)))
          == .fitbitCSV)
      check(list, unit: .lb, noon: true) {
        try FitbitCSVImporter.importWeights(Array(text.utf8), zone: $0, unit: .lb)
      }
    }
  }

  @Test func genericWithAFormatAndDelimiter() async {
    await propertyCheck(count: 100, input: seeds) { seeds in
      let list = records(seeds)
      var text = "Tag;Uhr;Kilo\n"
      for record in list {
        let day = String(
          format: "%02d/%02d/%04d", record.date.day, record.date.month, record.date.year)
        text += "\(day);\(record.clockText);\(record.value)\n"
      }
      let options = GenericCSVOptions(
        date: "Tag", time: "uhr", weight: "3", unit: .kg,
        format: CSVDatePattern.known("dd/MM/yyyy HH:mm"), delimiter: UInt8(ascii: ";"))
      check(list) {
        try GenericCSVImporter.importWeights(Array(text.utf8), zone: $0, options: options)
      }
    }
  }

  @Test func genericDetectsPlainNames() async {
    await propertyCheck(count: 100, input: seeds) { seeds in
      let list = records(seeds)
      var text = "datetime,weight (lbs)\n"
      for record in list { text += "\(record.dayText)T\(record.clockText),\(record.value)\n" }
      #expect(
        ImportFormat.detect(fileName: "w.csv", firstBytes: Array(text.utf8.prefix(4096)))
          == .genericCSV)
      check(list, unit: .lb) {
        try GenericCSVImporter.importWeights(Array(text.utf8), zone: $0, options: .init())
      }
    }
  }
}

@Suite struct CSVDatePatternTests {
  @Test func readsLayoutsAndRejectsWhatDoesNotFit() throws {
    let pattern = try CSVDatePattern.make("dd/MM/yyyy hh:mm a").get()
    let reading = try #require(pattern.read("03/11/2025 07:05 PM"))
    #expect(reading.local == LocalDateTime(year: 2025, month: 11, day: 3, hour: 19, minute: 5))
    #expect(pattern.read("03/11/2025 13:05 PM") == nil)
    #expect(pattern.read("31/02/2025 07:05 AM") == nil)
    #expect(pattern.read("03/11/2025 07:05 PMx") == nil)
    let zoned = try CSVDatePattern.make("yyyy-MM-dd'T'HH:mm:ssXXX").get()
    let offset = try #require(zoned.read("2025-11-03T07:05:00+01:00"))
    #expect(offset.offset == 3600)
    #expect(
      offset.instant(in: rome)
        == LocalDateTime(year: 2025, month: 11, day: 3, hour: 6, minute: 5)!.instant(in: .utc))
    #expect(throws: CSVDatePattern.PatternError.self) {
      try CSVDatePattern.make("dd/QQ/yyyy").get()
    }
    #expect(throws: CSVDatePattern.PatternError.self) { try CSVDatePattern.make("HH:mm").get() }
    #expect(throws: CSVDatePattern.PatternError.self) {
      try CSVDatePattern.make("yyyy-MM-dd hh:mm").get()
    }
  }

  @Test func garminMonthNames() throws {
    func day(_ text: Substring) -> CivilDate? {
      CSVDatePattern.first(GarminWeightCSVImporter.dayShapes, text)?.local.date
    }
    #expect(day(" December 31, 2017") == CivilDate(year: 2017, month: 12, day: 31))
    #expect(day(" 21 Sep 2023") == CivilDate(year: 2023, month: 9, day: 21))
    #expect(day("Dez 31, 2017") == nil)
    #expect(day("31 Dez 2017") == nil)
    #expect(day("31/12/2017") == nil)
    #expect(GarminWeightCSVImporter.time("7:23 PM") == 19 * 3600 + 23 * 60)
    #expect(GarminWeightCSVImporter.time("12:05 AM") == 5 * 60)
    #expect(GarminWeightCSVImporter.time("25:00") == nil)
  }

  @Test func genericSaysWhichOptionIsMissing() {
    func message(_ text: String, _ options: GenericCSVOptions = .init()) -> String? {
      do {
        _ = try GenericCSVImporter.importWeights(Array(text.utf8), zone: .utc, options: options)
        return nil
      } catch let error as ImportError {
        return error.message
      } catch {
        return "\(error)"
      }
    }
    #expect(message("when,kg\n2025-01-01,80\n") == nil)
    #expect(message("timestamp,weight_lbs\n2025-01-01T07:00Z,180\n") == nil)
    #expect(message("Date,Body Weight (st)\n2025-01-01,12.5\n") == nil)
    #expect(GenericCSVImporter.weightName("weight-kg") == (true, .kg))
    #expect(GenericCSVImporter.weightName("height_cm").isWeight == false)
    #expect(message("moment,kg\n2025-01-01,80\n")?.contains("add date with its name") == true)
    #expect(message("date,scale\n2025-01-01,80\n")?.contains("add weight with its name") == true)
    #expect(
      message("date,weight\n2025-01-01,80\n")?.contains("add unit kg, unit lb or unit st") == true)
    #expect(
      message("date,weight (kg)\n2025-01-01,80\n", .init(unit: .lb))?.contains("leave out unit lb")
        == true)
    #expect(
      message("date,weight\n2025-01-01,80\n", .init(weight: "mass", unit: .kg))?.contains(
        "there is no column 'mass'") == true)
  }
}
