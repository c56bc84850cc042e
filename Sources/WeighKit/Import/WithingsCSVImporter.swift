import Foundation

/// Reads Withings Health Mate `weight.csv`:
/// `Date,"Weight (kg)","Fat mass (kg)",…,Comments` with local `YYYY-MM-DD HH:MM:SS` dates.
public enum WithingsCSVImporter {
  /// Whether a header row is Withings' (`Date` first, capitalized so, and a `Weight`
  /// column); openScale 3.x writes `DATE`.
  static func matches(header: CSVRow) -> Bool {
    header[0]?.trimmingCharacters(in: .whitespaces) == "Date"
      && header.fields.contains { $0.text.lowercased().hasPrefix("weight") }
  }

  /// The weights of a `weight.csv`, local times read in `zone`.
  ///
  /// - Throws: `ImportError` when the header is not Withings' or names no mass unit.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock) throws
    -> WeightImportResult
  {
    let rows = try CSVReader.rows(bytes)
    guard let header = rows.first, matches(header: header) else {
      throw ImportError(line: 1, "expected the Withings header Date,\"Weight (kg)\",…")
    }
    let weightColumn = header.fields.firstIndex { $0.text.lowercased().hasPrefix("weight") }!
    guard let unit = WeightValue.unit(inHeader: header.fields[weightColumn].text) else {
      throw ImportError(
        line: header.line,
        "the weight column '\(header.fields[weightColumn].text)' names no mass unit; expected (kg), (lb) or (st)"
      )
    }
    let commentColumn = header.fields.firstIndex { $0.text == "Comments" }
    var result = WeightImportResult(format: .withingsCSV)
    result.zoneless = true
    var seen = Set<WeightKey>()
    for row in rows.dropFirst() {
      do throws(ImportRejection) {
        guard let date = row[0].flatMap(LocalDateTime.parse) else {
          throw ImportRejection(
            line: row.line, reason: "date '\(row[0] ?? "")' is not like 2026-04-25 08:11:51")
        }
        let kilograms = try WeightValue.kilograms(row[weightColumn], unit: unit, line: row.line)
        let note = commentColumn.flatMap { row[$0] }.flatMap { $0.isEmpty ? nil : $0 }
        result.add(
          ImportedWeight(
            instant: date.instant(in: zone), kilograms: kilograms, source: "Withings",
            note: note, line: row.line, fileTime: date.wallSeconds), seen: &seen)
      } catch {
        result.rejections.append(error)
      }
    }
    return result
  }
}
