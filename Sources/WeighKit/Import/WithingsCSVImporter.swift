import Foundation

/// Reads Withings Health Mate `weight.csv` in any language the account uses:
/// `Date,"Weight (kg)","Fat mass (kg)",…,Comments` in English,
/// `Date,"Gewicht (kg)","Fettmasse (kg)",…,Kommentare` in German. The first column is always
/// `Date` and the second the weight with its unit in brackets (kg, lb or st); the last column,
/// when it names no unit, holds comments. Times are local: `2026-04-25 08:11:51`, and in older
/// exports `2014-02-13 6:04 Uhr` or `2014-02-13 6:04 AM`.
public enum WithingsCSVImporter {
  /// Whether a header row is Withings': `Date` first, capitalized so (openScale 3.x writes
  /// `DATE`), then a weight column whose name carries a mass unit in brackets.
  static func matches(header: CSVRow) -> Bool {
    guard let first = header[0]?.trimmingCharacters(in: .whitespaces),
      header.fields.count >= (first == "Date" ? 2 : 4),
      WeightValue.unit(inHeader: header.fields[1].text) != nil
    else { return false }
    return dateWords.contains(first)
  }

  /// The first column's name: `Date` in the English and German exports seen; the word for
  /// date in the other languages Withings exports in (Dutch, Spanish, Italian, Japanese), in
  /// case those translate it (no such file has been seen; French writes `Date` anyway). Under
  /// another word, a header needs Withings' body-composition columns too (four columns or
  /// more; its exports have five to seven): `日付,体重 (kg)` is a spreadsheet of your own.
  static let dateWords: Set<String> = ["Date", "Datum", "Fecha", "Data", "日付"]

  /// The weights of a `weight.csv`, local times read in `zone`.
  ///
  /// - Throws: `ImportError` when the header is not Withings'.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock) throws
    -> WeightImportResult
  {
    try importWeights(.bytes(bytes), zone: zone)
  }

  /// The weights of a `weight.csv` read from `input` (a file is read in chunks).
  public static func importWeights(_ input: ImportInput, zone: ZonedClock) throws
    -> WeightImportResult
  {
    try CSVWeightColumns.readRows(input, format: .withingsCSV, zone: zone) { header in
      guard matches(header: header), let unit = WeightValue.unit(inHeader: header.fields[1].text)
      else {
        throw ImportError(
          line: header.line,
          "expected the Withings header Date,\"Weight (kg)\",…; to read it as a spreadsheet of your own, add as csv with date, weight and unit"
        )
      }
      let last = header.fields.count - 1
      let hasComments = last >= 2 && WeightValue.unit(inHeader: header.fields[last].text) == nil
      return CSVWeightColumns(
        date: 0, weight: 1, note: hasComments ? last : nil, unit: unit, source: "Withings",
        readDate: CSVDateShapes(shapes).read,
        dateReason: {
          "date '\($0)' is not like 2026-04-25 08:11:51" + GenericCSVImporter.formatHint($0)
        })
    }
  }

  /// The date shapes Withings has written: ISO with seconds, and older `6:04 Uhr` and
  /// `6:04 AM` clocks.
  static let shapes: [CSVDatePattern] =
    CSVDatePattern.isoShapes
    + [
      "yyyy-MM-dd H:mm 'Uhr'", "yyyy-MM-dd h:mm a", "yyyy-MM-dd h:mm:ss a",
    ].map(CSVDatePattern.known)
}
