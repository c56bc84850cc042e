/// Reads weigh's own CSV (`export FILE as csv`) back into entries, exactly as written.
public enum WeighCSVImporter {
  /// Whether a header row is weigh's.
  static func matches(header: CSVRow) -> Bool {
    header.fields.map(\.text).joined(separator: ",") == WeighCSVExporter.header
  }

  /// The entries of a weigh CSV; each weight carries its whole entry.
  ///
  /// - Throws: `ImportError` when the header is not weigh's.
  public static func importWeights(_ bytes: [UInt8]) throws -> WeightImportResult {
    try importWeights(.bytes(bytes))
  }

  /// The entries of a weigh CSV read from `input` (a file is read in chunks).
  public static func importWeights(_ input: ImportInput) throws -> WeightImportResult {
    var result = WeightImportResult(format: .weighCSV)
    var seen = WeightKeySet()
    var sawHeader = false
    try CSVReader.forEachRow(input) { row in
      guard sawHeader else {
        guard matches(header: row) else {
          throw ImportError(line: 1, "expected weigh's header \(WeighCSVExporter.header)")
        }
        sawHeader = true
        return
      }
      do throws(ImportRejection) {
        guard row.count == 10 else {
          throw ImportRejection(
            line: row.line, reason: "expected 10 fields, found \(row.count)")
        }
        func optional(_ index: Int) -> String? {
          row.isQuoted(index) || !row.field(index).isEmpty ? row[index] : nil
        }
        let weight = try WeighEntryFields(
          id: row[0]!, instant: row[1]!, kilograms: row[2]!, origin: row[3]!, source: row[4]!,
          note: optional(5), revision: row[6]!, healthUUID: optional(7), pushedUUID: optional(8),
          pushedRevision: optional(9)
        ).weight(line: row.line)
        result.add(weight, seen: &seen)
      } catch {
        result.rejections.append(error)
      }
    }
    guard sawHeader else {
      throw ImportError(line: 1, "expected weigh's header \(WeighCSVExporter.header)")
    }
    return result
  }
}

/// The text fields of one entry in weigh's files, checked and turned into an `Entry`.
struct WeighEntryFields {
  var id: String
  var instant: String
  var kilograms: String
  var origin: String
  var source: String
  var note: String?
  var revision: String
  var healthUUID: String?
  var pushedUUID: String?
  var pushedRevision: String?

  /// The weight and its entry, with every field checked against the range the store
  /// accepts (`StoredValueRule`), so that an imported entry is one the store can load again.
  func weight(line: Int) throws(ImportRejection) -> ImportedWeight {
    // A number past the range is kept here and replaced by the import (largestKeptID).
    guard let number = DecimalText.parseWhole(id, in: 0...Int64.max) else {
      throw ImportRejection(line: line, reason: "id '\(self.id)' is not a whole number")
    }
    let id = Int(number)  // checked: Int64 and Int have one width
    guard let instant = WeighFileInstant.parse(instant) else {
      throw ImportRejection(
        line: line, reason: "instant '\(self.instant)' is not like 2026-01-03T06:30:00Z")
    }
    guard StoredValueRule.wholeInstant.contains(instant) else {
      throw ImportRejection(
        line: line, reason: "instant '\(self.instant)' is outside 1900-01-01 to 9999-12-31")
    }
    guard let value = DecimalText.parseJSONNumber(kilograms) else {
      throw ImportRejection(line: line, reason: "kilograms '\(kilograms)' is not a number")
    }
    let checked = try ImportedWeight.validate(
      kilograms: value, written: kilograms, unit: .kg, line: line)
    guard let origin = Origin(rawValue: origin) else {
      throw ImportRejection(
        line: line, reason: "origin '\(self.origin)' is not manual, health or import")
    }
    let revisions = Self.wholeRange(ValueLimits.revision)
    guard let revisionValue = DecimalText.parseWhole(revision, in: revisions) else {
      throw ImportRejection(
        line: line,
        reason:
          "revision '\(self.revision)' is not a whole number from 1 to \(ValueLimits.revision.upperBound)"
      )
    }
    let revision = Int32(revisionValue)  // checked: inside ValueLimits.revision
    var pushed: Int32?
    if let pushedRevision {
      guard let number = DecimalText.parseWhole(pushedRevision, in: revisions) else {
        throw ImportRejection(
          line: line,
          reason:
            "pushed revision '\(pushedRevision)' is not a whole number from 1 to \(ValueLimits.revision.upperBound)"
        )
      }
      pushed = Int32(number)  // checked: inside ValueLimits.revision
    }
    for (name, uuid) in [("health UUID", healthUUID), ("pushed UUID", pushedUUID)] {
      if let uuid, !StoredText.isUUID(uuid) {
        throw ImportRejection(
          line: line,
          reason: "\(name) '\(uuid)' is not a UUID such as B3F2AF6D-0FC7-40C5-853B-559647364CEA")
      }
    }
    return ImportedWeight(
      weighEntry: id, instant: instant, kilograms: checked, origin: origin, source: source,
      note: note, revision: revision, healthUUID: healthUUID, pushedUUID: pushedUUID,
      pushedRevision: pushed, line: line)
  }
}

extension WeighEntryFields {
  static func wholeRange(_ range: ClosedRange<Int>) -> ClosedRange<Int64> {
    Int64(range.lowerBound)...Int64(range.upperBound)  // checked: Int to Int64 widens
  }
}
