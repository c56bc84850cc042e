/// Reads the weights of Fitbit's account CSV (the dashboard's "Export data" file): sections,
/// each a title line (`Body`, `Foods`, `Activities`, `Sleep`, `Food Log 20160101`…), its
/// header and rows of quoted values, with blank lines between. Only the `Body` section's
/// `Date,Weight,BMI,Fat` rows are read; the other sections hold no weights. The weights are
/// in the account's unit, which the file does not name, so the import says it with `unit`;
/// the dates are in the account's locale (`"2016-01-01"`, `"01-01-2016"`…), a day read at
/// 12:00 local. docs/files.md gives the sources.
public enum FitbitCSVImporter {
  /// The section titles of the account export whose headers detection knows (`Food` as one
  /// detector writes it, `Foods` as the others).
  static let sectionTitles: Set<String> = ["Body", "Foods", "Food", "Activities", "Sleep"]

  /// The Body section's header.
  static let bodyHeader = ["Date", "Weight", "BMI", "Fat"]

  /// Whether the start of a file is the account export's: a section title alone on the first
  /// line and a header the export writes under one.
  static func matches(head: String) -> Bool {
    let lines = head.split(whereSeparator: \.isNewline).prefix(2).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    // A title re-saved by a spreadsheet is padded with commas (`Activities,,,,,,,,,`).
    guard lines.count == 2,
      sectionTitles.contains(String(lines[0].reversed().drop { $0 == "," }.reversed()))
    else { return false }
    return [
      "Date,Weight,BMI,Fat", "Date,Calories In", "Date,Calories Burned,Steps",
      "Start Time,End Time,Minutes Asleep",
    ].contains { lines[1].hasPrefix($0) }
  }

  /// The weights of an account export in `unit`, days read at 12:00 in `zone`, dates in
  /// `format` when given (else `yyyy-MM-dd`).
  ///
  /// - Throws: `ImportError` when the file has no Body section or its header is not
  ///   `Date,Weight,BMI,Fat`.
  public static func importWeights(
    _ bytes: [UInt8], zone: ZonedClock, unit: MassUnit, format: CSVDatePattern? = nil
  ) throws -> WeightImportResult {
    try importWeights(.bytes(bytes), zone: zone, unit: unit, format: format)
  }

  /// The weights of an account export read from `input` (a file is read in chunks).
  public static func importWeights(
    _ input: ImportInput, zone: ZonedClock, unit: MassUnit, format: CSVDatePattern? = nil
  ) throws -> WeightImportResult {
    var inBody = false
    var sawBody = false
    var sawTitle = false
    do {
      return try CSVWeightColumns.readRows(input, format: .fitbitCSV, zone: zone) { row in
        if isTitle(row) {
          sawTitle = true
          inBody = row[0]?.trimmingCharacters(in: .whitespaces) == "Body"
          sawBody = sawBody || inBody
          return nil
        }
        guard inBody else {
          guard sawTitle else {
            throw ImportError(
              line: row.line, "expected a section title such as Body before the rows")
          }
          return nil
        }
        let names = row.fields.map { $0.text.trimmingCharacters(in: .whitespaces) }
        guard names == bodyHeader else {
          throw ImportError(line: row.line, "expected Fitbit's Body header Date,Weight,BMI,Fat")
        }
        let shapes = format.map { [$0] } ?? CSVDatePattern.isoShapes
        return CSVWeightColumns(
          date: 0, weight: 1, unit: unit, source: "Fitbit",
          readDate: CSVDateShapes(shapes).read,
          dateReason: { text in
            let expected = format.map { "date '\(text)' is not like \($0.text)" }
            return expected ?? "date '\(text)' is not like 2016-01-01"
              + GenericCSVImporter.formatHint(text)
          },
          endsAtSectionTitle: true)
      }
    } catch let error as ImportError where error.line == nil {
      // `readRows` found no header.
      guard !sawBody else {
        throw ImportError("the Body section has no Date,Weight,BMI,Fat header and no rows")
      }
      throw ImportError(
        "no Body section: Fitbit's account export keeps weights under a Body line and the header Date,Weight,BMI,Fat; export again with Body among the data chosen"
      )
    }
  }

  /// Whether a title row is one the export writes: a section's name, or `Food Log` and a day.
  static func isKnownTitle(_ row: CSVRow) -> Bool {
    let title = row[0]?.trimmingCharacters(in: .whitespaces) ?? ""
    return sectionTitles.contains(title) || title.hasPrefix("Food Log")
  }

  /// Whether a row is a section title: a first field, not quoted, that is no date, and no
  /// other field with text (a spreadsheet pads the title with commas).
  static func isTitle(_ row: CSVRow) -> Bool {
    guard !row.isQuoted(0), let first = row.field(0).first, !(0x30...0x39).contains(first)
    else { return false }
    return (1..<row.count).allSatisfy { row.field($0).isEmpty }
  }
}
