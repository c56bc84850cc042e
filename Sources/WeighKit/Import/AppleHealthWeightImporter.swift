import Foundation

/// Reads the body-mass records of an Apple Health export as weights.
public enum AppleHealthWeightImporter {
  /// Reads every `HKQuantityTypeIdentifierBodyMass` record of `url` (zip or XML), converting
  /// each record's own unit with exact factors.
  ///
  /// - Throws: `ImportError` when the file is not a well-formed export; nothing is imported.
  /// - Complexity: O(file size) time; memory grows with the number of weights only.
  public static func importWeights(from url: URL) throws -> WeightImportResult {
    try read(url, alsoReading: [], workouts: false) { _, _ in }
  }

  /// Reads the weights of `url` and, in the same pass, hands the records of `recordTypes`
  /// and (when `workouts`) the workouts to `other`, in file order with their lines; with
  /// `resolvingDevices`, records carry their device as `resolvedDevice`, not as text.
  ///
  /// - Throws: `ImportError` when the file is not a well-formed export; what `other` was
  ///   handed must then be discarded.
  /// - Complexity: O(file size) time; memory grows with the number of weights only.
  public static func read(
    _ url: URL, alsoReading recordTypes: Set<String>, workouts: Bool,
    resolvingDevices: Bool = false, other: @escaping (HealthExportItem, Int) throws -> Void
  ) throws -> WeightImportResult {
    let zipped = try AppleHealthExportReader.isZip(url)
    var result = WeightImportResult(format: zipped ? .appleHealthZip : .appleHealthXML)
    var seen = WeightKeySet()
    _ = try AppleHealthExportReader.read(
      contentsOf: url,
      recordTypes: recordTypes.union(
        workouts ? [healthBodyMassType, healthWorkoutType] : [healthBodyMassType]),
      resolvingDevices: resolvingDevices
    ) { item, line in
      switch item {
      // The length first: most types differ from body mass's in it, and the String
      // comparison took about 190 instructions a record (callgrind, 10 MB export).
      case .record(let record)
      where record.type.utf8.count == healthBodyMassType.utf8.count
        && record.type == healthBodyMassType:
        do {
          result.add(try weight(of: record, line: line), seen: &seen)
          // Counted once taken: a repaired record rejected for its value was not recovered.
          if record.repairedAttributes { result.repairedRecords += 1 }
        } catch let rejection as ImportRejection {
          result.rejections.append(rejection)
        }
      case .record, .workout:
        try other(item, line)
      case .invalid(let rejection)
      where rejection.recordType == nil || rejection.recordType == healthBodyMassType:
        result.rejections.append(rejection)
      case .invalid:
        // Another type's record: counted on the Health line, with its type.
        try other(item, line)
      default:
        break
      }
    }
    return result
  }

  /// The weight of one body-mass record, or why it cannot be taken.
  public static func weight(of record: HealthExportRecord, line: Int) throws(ImportRejection)
    -> ImportedWeight
  {
    guard let unitText = record.unit else {
      throw ImportRejection(
        line: line, reason: "body mass without a unit; expected kg, lb, g or st")
    }
    guard let unit = MassUnit(rawValue: unitText) else {
      throw ImportRejection(
        line: line, reason: "unit '\(unitText)' is not a mass unit; expected kg, lb, g or st")
    }
    guard let text = record.value, let value = DecimalText.parseJSONNumber(text) else {
      throw ImportRejection(
        line: line, reason: "body mass value '\(record.value ?? "")' is not a number")
    }
    let kilograms = try ImportedWeight.validate(
      kilograms: unit.toKilograms(value), written: text, unit: unit, line: line)
    return ImportedWeight(
      instant: record.startDate.instant, kilograms: kilograms, source: record.sourceName,
      line: line)
  }
}
