import Foundation

/// Reads Fitbit's `weight-YYYY-MM-DD.json`:
/// `[{"logId":…,"weight":193.9,"bmi":28.08,"date":"07/05/17","time":"12:44:00","source":"Aria"}]`.
public enum FitbitJSONImporter {
  /// The weights of a Fitbit weight file, local times read in `zone`.
  ///
  /// Fitbit writes pounds whatever the profile says, without naming the unit; weights are
  /// read in `unit` (lb when nil) and the result says so.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock, unit: MassUnit? = nil)
    throws -> WeightImportResult
  {
    var result = WeightImportResult(format: .fitbitJSON)
    result.zoneless = true
    if unit == nil {
      result.unitNote =
        "Fitbit weight files do not name their unit; weight was read as lb, as Fitbit exports"
    }
    var seen = WeightKeySet()
    // Each log is taken as it is read: the file is never held as a tree of every log.
    let document = try ImportJSONReader.parse(bytes, streaming: .document) { log in
      do throws(ImportRejection) {
        guard case .object = log.value else {
          throw ImportRejection(
            line: log.line, reason: "expected an object with weight, date and time")
        }
        guard let weightNode = log.value["weight"], case .number(let written) = weightNode.value
        else {
          throw ImportRejection(line: log.line, reason: "no numeric \"weight\" in this log")
        }
        guard let weight = weightNode.number else {
          throw ImportRejection(
            line: log.line, reason: "weight \(written) is too small or too large to be a weight")
        }
        let dateText = log.value["date"]?.string ?? ""
        guard
          let n = LocalDateTime.numbers(
            Substring(dateText), separators: [0x2F, 0x2F], widths: [1...2, 1...2, 2...4])
        else {
          throw ImportRejection(
            line: log.line, reason: "date '\(dateText)' is not like 07/05/17 (MM/DD/YY)")
        }
        let timeText = log.value["time"]?.string ?? "00:00:00"
        guard let clock = LocalDateTime.time(Substring(timeText)),
          let moment = LocalDateTime(
            year: n.2 < 100 ? 2000 + n.2 : n.2, month: n.0, day: n.1, hour: clock.0,
            minute: clock.1, second: clock.2)
        else {
          throw ImportRejection(
            line: log.line, reason: "date '\(dateText) \(timeText)' does not exist")
        }
        let massUnit = unit ?? .lb
        let kilograms = try ImportedWeight.validate(
          kilograms: massUnit.toKilograms(weight), written: String(weight), unit: massUnit,
          line: log.line)
        let source = log.value["source"]?.string.map { "Fitbit \($0)" } ?? "Fitbit"
        result.add(
          ImportedWeight(
            instant: moment.instant(in: zone), kilograms: kilograms, source: source,
            line: log.line, fileTime: moment.wallSeconds), seen: &seen)
      } catch {
        result.rejections.append(error)
      }
    }
    guard case .array = document.value else {
      throw ImportError(line: document.line, "expected a Fitbit weight file: a JSON array of logs")
    }
    return result
  }
}
