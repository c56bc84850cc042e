import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// Every reader against random valid files written here in its format: the import brings
/// exactly the rows written (moment, weight, source), and importing the same file again in
/// another zone adds nothing.
@Suite struct ImportPropertyTests {
  /// One row to write: a wall-clock minute, a weight in tenths and a zone offset.
  struct Row: Sendable {
    var date: CivilDate
    var secondOfDay: Int
    /// Tenths of the file's unit (kg, or lb for Fitbit).
    var tenths: Int
    /// For formats that write offsets: minutes east of UTC.
    var offsetMinutes: Int

    /// Spread over 2015–2025, so every row is before the golden clock in every zone.
    init(code: Int) {
      let first = CivilDate(year: 2015, month: 1, day: 1).daysSinceEpoch
      date = CivilDate(daysSinceEpoch: first + Int64(code % 4000))  // checked: below 4000
      secondOfDay = (code / 4000 % 1440) * 60
      tenths = 300 + code / 5_760_000 % 1200
      offsetMinutes = [-480, -300, 0, 60, 330, 600, 765][code / 7_000_000_000 % 7]
    }

    /// The wall clock as seconds read as if UTC.
    var wallSeconds: Int64 { date.seconds(at: secondOfDay) }

    var isoDate: String { "\(date)" }
    var clock: String {
      "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):00"
    }
    var value: String { "\(tenths / 10).\(tenths % 10)" }
  }

  static let zones = [
    "UTC", "Europe/Rome", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe",
    "Asia/Kathmandu", "Pacific/Apia",
  ]

  static let codes = Gen.int(in: 0...48_999_999_999).array(of: 1...25)
  static let zonePair = Gen.int(in: 0...(zones.count * zones.count - 1))

  /// How a format writes rows, and what the import must make of each.
  struct Format: Sendable {
    var name: String
    var fileName: String
    var write: @Sendable ([Row]) -> String
    /// Whether times are wall clock without a zone (read in the session's zone).
    var zoneless: Bool
    /// Kilograms per unit written.
    var factor: Double
    var source: @Sendable (Row) -> String
  }

  /// The file's identity of a row: its wall clock (zone-less formats) or its instant, with
  /// its weight and source.
  struct Key: Hashable {
    var moment: Int64
    var tenths: Int
    var source: String
  }

  static func header(_ lines: [String]) -> String { lines.joined(separator: "\n") + "\n" }

  static let formats: [Format] = [
    Format(
      name: "Withings", fileName: "weight.csv",
      write: { rows in
        header(
          [
            #"Date,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)","Hydration (kg)",Comments"#
          ]
            + rows.map { #""\#($0.isoDate) \#($0.clock)",\#($0.value),,,,,"# })
      }, zoneless: true, factor: 1, source: { _ in "Withings" }),
    Format(
      name: "openScale 2.x", fileName: "openScale.csv",
      write: { rows in
        header(
          [#""biceps","bone","comment","dateTime","fat","muscle","water","weight""#]
            + rows.map {
              #"0.0,3.05,"","\#($0.isoDate) \#($0.clock.prefix(5))",19.8,41.2,55.1,\#($0.value)"#
            })
      }, zoneless: true, factor: 1, source: { _ in "openScale" }),
    Format(
      name: "openScale 3.x", fileName: "openScale3.csv",
      write: { rows in
        header(
          ["DATE,TIME,BMI,BODY_FAT,COMMENT,WATER,WEIGHT"]
            + rows.map { "\($0.isoDate),\($0.clock),23.1,21.0,,54.9,\($0.value)" })
      }, zoneless: true, factor: 1, source: { _ in "openScale" }),
    Format(
      name: "Fitbit", fileName: "weight-2020-01-01.json",
      write: { rows in
        "["
          + rows.enumerated().map { index, row in
            let date =
              "\(pad(row.date.month, 2))/\(pad(row.date.day, 2))/\(pad(row.date.year % 100, 2))"
            return
              #"{"logId":\#(index),"weight":\#(row.value),"bmi":23.4,"date":"\#(date)","time":"\#(row.clock)","source":"Aria"}"#
          }.joined(separator: ",\n") + "]\n"
      }, zoneless: true, factor: 0.453_592_37, source: { _ in "Fitbit Aria" }),
    Format(
      name: "Apple", fileName: "export.xml",
      write: { rows in
        header(
          [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<HealthData locale="en_US">"#]
            + rows.map { row in
              let date = "\(row.isoDate) \(row.clock) \(offsetText(row.offsetMinutes))"
              return
                #" <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale \#(row.tenths % 3)" unit="kg" startDate="\#(date)" endDate="\#(date)" value="\#(row.value)"/>"#
            } + ["</HealthData>"])
      }, zoneless: false, factor: 1, source: { "Scale \($0.tenths % 3)" }),
    Format(
      name: "Apple iOS 8", fileName: "export8.xml",
      write: { rows in
        header(
          [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<HealthData locale="en_US">"#]
            + rows.map { row in
              let date =
                row.isoDate.filter(\.isNumber) + row.clock.filter(\.isNumber)
                + offsetText(row.offsetMinutes).filter { $0 != " " }
              return
                #" <Record type="HKQuantityTypeIdentifierBodyMass" source="Health Mate" unit="kg" startDate="\#(date)" endDate="\#(date)" value="\#(row.value)" Health Mate App Version="2.6.2" HKWasUserEntered="0"/>"#
            } + ["</HealthData>"])
      }, zoneless: false, factor: 1, source: { _ in "Health Mate" }),
    Format(
      name: "weigh CSV", fileName: "weigh.csv",
      write: { rows in
        header(
          [
            "id,instant,kilograms,origin,source,note,revision,health_uuid,pushed_uuid,pushed_revision"
          ]
            + rows.enumerated().map { index, row in
              "\(index + 1),\(utcText(row)),\(row.value),import,\"Scale\",,1,,,"
            })
      }, zoneless: false, factor: 1, source: { _ in "Scale" }),
    Format(
      name: "weigh JSON", fileName: "weigh.json",
      write: { rows in
        #"{"format": "weigh", "version": 1, "entries": ["#
          + rows.enumerated().map { index, row in
            #"{"id": \#(index + 1), "instant": "\#(utcText(row))", "kilograms": \#(row.value), "origin": "import", "source": "Scale", "note": null, "revision": 1, "healthUUID": null, "pushedUUID": null, "pushedRevision": null}"#
          }.joined(separator: ",\n") + "]}\n"
      }, zoneless: false, factor: 1, source: { _ in "Scale" }),
  ]

  /// `+0545`, as Apple writes offsets.
  static func offsetText(_ minutes: Int) -> String {
    "\(minutes < 0 ? "-" : "+")\(pad(abs(minutes) / 60, 2))\(pad(abs(minutes) % 60, 2))"
  }

  /// The row's wall clock at its offset, as a UTC instant in weigh's own text.
  static func utcText(_ row: Row) -> String {
    // checked: minutes within ±13 h
    UTCInstantText.text(row.wallSeconds - Int64(row.offsetMinutes * 60))
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  /// The instant a row must get when read in `zone`.
  static func expectedInstant(_ row: Row, format: Format, zone: ZonedClock) -> Int64 {
    format.zoneless
      ? zone.instant(of: row.date, secondOfDay: row.secondOfDay)
      : row.wallSeconds - Int64(row.offsetMinutes * 60)  // checked: minutes within ±13 h
  }

  @Test(arguments: formats.indices)
  func importBringsEveryRowOnceAndAnotherZoneAddsNothing(_ index: Int) async {
    let format = Self.formats[index]
    await propertyCheck(count: 25, input: Self.codes, Self.zonePair) { codes, pair in
      failingOnThrow {
        var rows = codes.map(Row.init(code:))
        let utc = try #require(ZonedClock(identifier: "UTC"))
        if format.name.hasPrefix("weigh") {
          // weigh's files number their entries; keep moments distinct so numbers do not
          // decide which of two equal rows an entry is.
          var seen = Set<Int64>()
          rows = rows.filter {
            seen.insert(Self.expectedInstant($0, format: format, zone: utc)).inserted
          }
        }
        let first = Self.zones[pair % Self.zones.count]
        let second = Self.zones[pair / Self.zones.count]
        let folder = FileManager.default.temporaryDirectory.appending(
          path: "weigh-import-property-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(format.write(rows).utf8).write(to: folder.appending(path: format.fileName))

        let session = try Session(options: .golden, output: CapturedOutput())
        let zone = try #require(ZonedClock(identifier: first))
        _ = session.run(
          script: "set tz \(first)\nimport \(format.fileName)", display: "property",
          directory: folder.path)
        var expected: [Key: Int64] = [:]
        for row in rows {
          let moment =
            format.zoneless
            ? row.wallSeconds : Self.expectedInstant(row, format: format, zone: zone)
          expected[Key(moment: moment, tenths: row.tenths, source: format.source(row))] =
            Self.expectedInstant(row, format: format, zone: zone)
        }
        let entries = try session.entries()
        #expect(entries.count == expected.count, "\(format.name) in \(first)")
        var found: [Key: Int64] = [:]
        for entry in entries {
          let tenths = Int((entry.kilograms / format.factor * 10).rounded())  // checked: 300…1500
          let moment = format.zoneless ? try #require(entry.fileTime) : entry.instant
          found[Key(moment: moment, tenths: tenths, source: entry.source)] = entry.instant
          #expect(abs(entry.kilograms - Double(tenths) / 10 * format.factor) < 1e-9)
        }
        #expect(found == expected, "\(format.name) in \(first)")

        _ = session.run(
          script: "set tz \(second)\nimport \(format.fileName)", display: "property",
          directory: folder.path)
        #expect(try session.entries().count == expected.count, "\(format.name) again in \(second)")
      }
    }
  }
}
