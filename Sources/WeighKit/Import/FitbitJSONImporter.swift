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
    // Each log is taken as it is read, its members read without a tree: the file is never
    // held as a tree of every log, nor a log as a tree of its members.
    let document = try ImportJSONReader.parse(bytes, streaming: .document, keys: keys) { log in
      do throws(ImportRejection) {
        guard log.isObject else {
          throw ImportRejection(
            line: log.line, reason: "expected an object with weight, date and time")
        }
        guard case .number(let written)? = log.values[0] else {
          throw ImportRejection(line: log.line, reason: "no numeric \"weight\" in this log")
        }
        guard let weight = DecimalText.parseJSONNumber(written) else {
          throw ImportRejection(
            line: log.line, reason: "weight \(written) is too small or too large to be a weight")
        }
        let dateText = log.string(1) ?? ""
        guard
          let n = LocalDateTime.numbers(
            dateText.utf8, separator: 0x2F, widths: (1...2, 1...2, 2...4))
        else {
          throw ImportRejection(
            line: log.line, reason: "date '\(dateText)' is not like 07/05/17 (MM/DD/YY)")
        }
        let timeText = log.string(2) ?? "00:00:00"
        guard let clock = LocalDateTime.time(timeText),
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
        let source = log.string(3).map { "Fitbit \($0)" } ?? "Fitbit"
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

  /// The members a log is read for, in the order of `Record.values`.
  static let keys = ["weight", "date", "time", "source"]
}

extension ImportJSONReader.Record {
  /// The value of key `index` when it is a string.
  func string(_ index: Int) -> String? {
    if case .string(let text)? = values[index] { text } else { nil }
  }
}
