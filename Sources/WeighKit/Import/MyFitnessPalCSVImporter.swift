/// Reads MyFitnessPal's weight export: `Date,Body Fat %,Weight`, one row a day, `2024-01-01`
/// dates. The file does not name its unit (the account's, kg or lb), so the import says it
/// with `unit`; a day's weight is read at 12:00 local.
public enum MyFitnessPalCSVImporter {
  /// Whether a header row is MyFitnessPal's: `Date,Body Fat %,Weight` and nothing else, the
  /// header its export is documented with (PulfordJ/portmyfitnesspalcsvintoandroidhealthconnect,
  /// README). `Date,Weight` alone names no app: it is how people head the logs they keep by
  /// hand (real23's Oliver98t/Weight-tracker, real24's bobonamac/combined), which were given
  /// the source MyFitnessPal; it is read as a CSV of your own (`GenericCSVImporter`).
  static func matches(header: CSVRow) -> Bool {
    let names = header.fields.map { $0.text.trimmingCharacters(in: .whitespaces) }
    return names == ["Date", "Body Fat %", "Weight"]
  }

  /// The weights of a MyFitnessPal export in `unit`, days read at 12:00 in `zone`.
  ///
  /// - Throws: `ImportError` when the header is not MyFitnessPal's.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock, unit: MassUnit) throws
    -> WeightImportResult
  {
    try importWeights(.bytes(bytes), zone: zone, unit: unit)
  }

  /// The weights of a MyFitnessPal export read from `input` (a file is read in chunks).
  public static func importWeights(_ input: ImportInput, zone: ZonedClock, unit: MassUnit) throws
    -> WeightImportResult
  {
    try CSVWeightColumns.readRows(input, format: .myFitnessPalCSV, zone: zone) { header in
      guard matches(header: header) else {
        throw ImportError(
          line: header.line, "expected the MyFitnessPal header Date,Body Fat %,Weight")
      }
      return CSVWeightColumns(
        date: 0, weight: header.fields.count - 1, unit: unit, source: "MyFitnessPal",
        readDate: CSVDateShapes(CSVDatePattern.isoShapes).read,
        dateReason: { "date '\($0)' is not like 2024-01-01" + GenericCSVImporter.formatHint($0) })
    }
  }
}
