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
        if let weight = exported(row, optional) {
          result.add(weight, seen: &seen)
          return
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

extension WeighCSVImporter {
  /// The weight of a row whose number, instant, weight, origin and revision are written as
  /// `export` writes them (`12`, `2026-01-03T06:30:00Z`, `71.25`, `import`, `1`), read
  /// from the cells' bytes; nil for any other row, which `WeighEntryFields` reads (giving the
  /// same weight, or the reason it is refused: `ReaderFastPathTests`).
  static func exported(_ row: CSVRow, _ optional: (Int) -> String?) -> ImportedWeight? {
    guard let number = whole(row.field(0), digits: 18),
      let instant = row.field(1).withUnsafeBufferPointer(UTCInstantText.parse),
      StoredValueRule.wholeInstant.contains(instant),
      let kilograms = row.field(2).withUnsafeBufferPointer({ cell in
        cell.count <= DecimalText.maximumLength ? DecimalText.plainDecimal(cell) : nil
      }),
      Measure.mass.contains(kilograms), let origin = origin(row.field(3)),
      let revision = whole(row.field(6), digits: 9), ValueLimits.revision.contains(revision)
    else { return nil }
    let healthUUID = optional(7)
    let pushedUUID = optional(8)
    var pushedRevision: Int32?
    if optional(9) != nil {
      guard let value = whole(row.field(9), digits: 9), ValueLimits.revision.contains(value)
      else { return nil }
      pushedRevision = Int32(value)  // checked: inside ValueLimits.revision
    }
    guard healthUUID.map(StoredText.isUUID) != false, pushedUUID.map(StoredText.isUUID) != false
    else { return nil }
    return ImportedWeight(
      weighEntry: number, instant: instant, kilograms: kilograms, origin: origin,
      source: row[4] ?? "", note: optional(5),
      revision: Int32(revision),  // checked: inside ValueLimits.revision
      healthUUID: healthUUID, pushedUUID: pushedUUID, pushedRevision: pushedRevision,
      line: row.line)
  }

  /// A whole number of 1 to `digits` decimal digits (no sign), or nil.
  static func whole<Cell: Collection<UInt8>>(_ cell: Cell, digits: Int) -> Int? {
    guard !cell.isEmpty, cell.count <= digits else { return nil }
    var value = 0
    for byte in cell {
      let digit = byte &- 0x30
      guard digit < 10 else { return nil }
      value = value * 10 + Int(digit)  // checked: at most 18 digits
    }
    return value
  }

  /// `manual`, `health` or `import`, as `Origin(rawValue:)` reads them.
  static func origin<Cell: Collection<UInt8>>(_ cell: Cell) -> Origin? {
    if cell.elementsEqual("import".utf8) { return .import }
    if cell.elementsEqual("manual".utf8) { return .manual }
    if cell.elementsEqual("health".utf8) { return .health }
    return nil
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
    // Each checked on its own: a list of the two was an array made for every row.
    func checkUUID(_ name: String, _ uuid: String?) throws(ImportRejection) {
      if let uuid, !StoredText.isUUID(uuid) {
        throw ImportRejection(
          line: line,
          reason: "\(name) '\(uuid)' is not a UUID such as B3F2AF6D-0FC7-40C5-853B-559647364CEA")
      }
    }
    try checkUUID("health UUID", healthUUID)
    try checkUUID("pushed UUID", pushedUUID)
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
