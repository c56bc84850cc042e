/// Reads Samsung Health's `com.samsung.health.weight.<date>.csv` from "Download personal
/// data": a first line naming the type (`com.samsung.health.weight,<id>,<version>`), then a
/// header whose names may carry the type as a prefix (`com.samsung.health.weight.start_time`),
/// then rows. `start_time` is UTC (`2026-01-10 08:00:00.000`; `time_offset` says the local
/// offset) and `weight` is in kg, so nothing depends on the session's zone.
public enum SamsungHealthCSVImporter {
  static let prefix = "com.samsung.health.weight"

  /// Whether the first row names Samsung Health's weight type.
  static func matches(firstRow: CSVRow) -> Bool {
    firstRow[0]?.trimmingCharacters(in: .whitespaces) == prefix
  }

  /// A header name without the type prefix.
  static func bare(_ name: String) -> String {
    name.hasPrefix(prefix + ".") ? String(name.dropFirst(prefix.count + 1)) : name
  }

  /// The weights of a Samsung Health weight CSV.
  ///
  /// - Throws: `ImportError` when the type line or the columns are missing.
  public static func importWeights(_ bytes: [UInt8]) throws -> WeightImportResult {
    try importWeights(.bytes(bytes))
  }

  /// The weights of a Samsung Health weight CSV read from `input` (a file is read in chunks).
  public static func importWeights(_ input: ImportInput) throws -> WeightImportResult {
    var sawType = false
    return try CSVWeightColumns.readRows(input, format: .samsungHealthCSV, zone: .utc) { row in
      if !sawType {
        guard matches(firstRow: row) else {
          throw ImportError(
            line: row.line, "expected Samsung Health's first line com.samsung.health.weight,…")
        }
        sawType = true
        return nil
      }
      let names = CSVWeightColumns.names(row).map(bare)
      guard let start = names.firstIndex(of: "start_time"),
        let weight = names.firstIndex(of: "weight")
      else {
        throw ImportError(
          line: row.line,
          "expected Samsung Health's columns start_time and weight on the second line")
      }
      return CSVWeightColumns(
        date: start, weight: weight, unit: .kg, source: "Samsung Health",
        readDate: { [shapes = CSVDateShapes(CSVDatePattern.isoShapes)] text in
          // UTC: read with a zero offset, so the session's zone plays no part.
          shapes.read(bytes: text).map {
            var reading = $0
            reading.offset = reading.offset ?? 0
            return reading
          }
        },
        dateReason: { "start_time '\($0)' is not like 2026-01-10 08:00:00.000" })
    }
  }
}
