/// Reads Libra's (Android weight manager) export: `#Version: 6`, `#Units: kg`, a blank line,
/// the header `#date;weight;weight trend;…;log` and rows separated by `;`. Version 6 writes UTC
/// times (`2018-01-19T17:53:00.000Z`); version 5 wrote local ones (`2019-06-11 09:49:00`) and a
/// `comment` column. The trend columns are Libra's computation and are not imported.
public enum LibraCSVImporter {
  /// Whether the start of a file is Libra's: a `#Version` line and a `#date;weight` header.
  static func matches(head: String) -> Bool {
    head.hasPrefix("#Version") && head.contains("#date;weight")
  }

  /// The weights of a Libra export, local times (version 5) read in `zone`.
  ///
  /// - Throws: `ImportError` when there is no `#date;weight` header or the unit is unknown.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock) throws
    -> WeightImportResult
  {
    try importWeights(.bytes(bytes), zone: zone)
  }

  /// The weights of a Libra export read from `input` (a file is read in chunks).
  public static func importWeights(_ input: ImportInput, zone: ZonedClock) throws
    -> WeightImportResult
  {
    var unit: MassUnit?
    return try CSVWeightColumns.readRows(
      input, separator: UInt8(ascii: ";"), format: .libraCSV, zone: zone
    ) { row in
      let first = row[0]?.trimmingCharacters(in: .whitespaces) ?? ""
      if first.hasPrefix("#Units:") {
        let name = first.dropFirst("#Units:".count)
        guard let named = WeightValue.unit(named: String(name)) else {
          throw ImportError(
            line: row.line,
            "unit '\(name.trimmingCharacters(in: .whitespaces))' is not a mass unit; expected #Units: kg or lb"
          )
        }
        unit = named
        return nil
      }
      guard first.lowercased() == "#date" else {
        guard first.hasPrefix("#") else {
          throw ImportError(
            line: row.line, "expected Libra's header #date;weight;… before the rows")
        }
        return nil
      }
      let names = CSVWeightColumns.names(row)
      guard let weight = names.firstIndex(of: "weight") else {
        throw ImportError(line: row.line, "expected Libra's header #date;weight;…")
      }
      guard let unit else {
        throw ImportError(
          line: row.line, "expected a #Units: kg or #Units: lb line before the header")
      }
      return CSVWeightColumns(
        date: 0, weight: weight,
        note: names.firstIndex(of: "log") ?? names.firstIndex(of: "comment"),
        unit: unit, source: "Libra",
        readDate: CSVDateShapes(CSVDatePattern.isoShapes).read,
        dateReason: { "date '\($0)' is not like 2018-01-19T17:53:00.000Z" })
    }
  }
}
