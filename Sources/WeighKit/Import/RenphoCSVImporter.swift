/// Reads Renpho's CSV export: `Time of Measurement,Weight(kg),BMI,Body Fat(%),…,Remarks` (or
/// `Weight(lb)`), local times like `2024-01-01 10:20:30`; `Remarks` becomes the note.
public enum RenphoCSVImporter {
  /// Whether a header row is Renpho's: `Time of Measurement` first and a `Weight(unit)` column.
  static func matches(header: CSVRow) -> Bool {
    let names = CSVWeightColumns.names(header)
    return names.first == "time of measurement" && weightColumn(names) != nil
  }

  static func weightColumn(_ names: [String]) -> Int? {
    names.firstIndex { $0.hasPrefix("weight(") || $0.hasPrefix("weight (") }
  }

  /// The weights of a Renpho CSV, local times read in `zone`.
  ///
  /// - Throws: `ImportError` when the header is not Renpho's.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock) throws
    -> WeightImportResult
  {
    try importWeights(.bytes(bytes), zone: zone)
  }

  /// The weights of a Renpho CSV read from `input` (a file is read in chunks).
  public static func importWeights(_ input: ImportInput, zone: ZonedClock) throws
    -> WeightImportResult
  {
    try CSVWeightColumns.readRows(input, format: .renphoCSV, zone: zone) { header in
      let names = CSVWeightColumns.names(header)
      guard names.first == "time of measurement", let weight = weightColumn(names) else {
        throw ImportError(
          line: header.line, "expected the Renpho header Time of Measurement,Weight(kg),…")
      }
      guard let unit = WeightValue.unit(inHeader: header.fields[weight].text) else {
        throw ImportError(
          line: header.line,
          "the weight column '\(header.fields[weight].text)' names no mass unit; expected Weight(kg), Weight(lb) or Weight(st)"
        )
      }
      return CSVWeightColumns(
        date: 0, weight: weight, note: names.firstIndex(of: "remarks"), unit: unit,
        source: "Renpho", readDate: CSVDateShapes(CSVDatePattern.isoShapes).read,
        dateReason: {
          "time '\($0)' is not like 2024-01-01 10:20:30" + GenericCSVImporter.formatHint($0)
        })
    }
  }
}
