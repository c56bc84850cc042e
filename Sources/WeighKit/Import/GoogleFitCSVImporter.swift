/// Reads Google Fit's Takeout "Daily activity metrics" CSV (`Daily Summaries.csv`):
/// `Date,…,Average weight (kg),Max weight (kg),Min weight (kg),…`, one row a day. A day's
/// average weight becomes one entry at 12:00 local; days without a weight hold only other
/// metrics and are skipped, not rejected.
public enum GoogleFitCSVImporter {
  /// Whether a header row is Google Fit's daily metrics: `Date` first and an
  /// `Average weight (kg)` column.
  static func matches(header: CSVRow) -> Bool {
    let names = CSVWeightColumns.names(header)
    return names.first == "date" && names.contains("average weight (kg)")
  }

  /// The daily average weights, days read at 12:00 in `zone`.
  ///
  /// - Throws: `ImportError` when the header is not Google Fit's.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock) throws
    -> WeightImportResult
  {
    try importWeights(.bytes(bytes), zone: zone)
  }

  /// The daily average weights read from `input` (a file is read in chunks).
  public static func importWeights(_ input: ImportInput, zone: ZonedClock) throws
    -> WeightImportResult
  {
    try CSVWeightColumns.readRows(input, format: .googleFitCSV, zone: zone) { header in
      let names = CSVWeightColumns.names(header)
      guard names.first == "date", let weight = names.firstIndex(of: "average weight (kg)") else {
        throw ImportError(
          line: header.line, "expected Google Fit's daily metrics header Date,…,Average weight (kg)"
        )
      }
      var columns = CSVWeightColumns(
        date: 0, weight: weight, unit: .kg, source: "Google Fit",
        readDate: CSVDateShapes(CSVDatePattern.isoShapes).read,
        dateReason: { "date '\($0)' is not like 2026-01-10" + GenericCSVImporter.formatHint($0) })
      columns.skipsRowsWithoutWeight = true
      return columns
    }
  }
}
