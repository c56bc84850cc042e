import Foundation

/// Reads openScale CSV exports: 3.x (`DATE,TIME,…,WEIGHT,…`, unit not written, kg by
/// default), 2.x (`"dateTime",…,"weight"`, always kg) and the headerless 1.x layouts
/// (`dateTime,weight,…,comment`).
public enum OpenScaleCSVImporter {
  /// Columns found in a header, matched case-insensitively as openScale does.
  struct Columns {
    var date: Int?
    var time: Int?
    var dateTime: Int?
    var weight: Int
    var comment: Int?
    var isVersion3: Bool

    init?(header: CSVRow) {
      let names = header.fields.map { $0.text.trimmingCharacters(in: .whitespaces).lowercased() }
      guard let weight = names.firstIndex(of: "weight") else { return nil }
      self.weight = weight
      date = names.firstIndex(of: "date")
      time = names.firstIndex(of: "time")
      dateTime = names.firstIndex(of: "datetime")
      comment = names.firstIndex(of: "comment")
      isVersion3 = date != nil
      guard date != nil || dateTime != nil else { return nil }
    }
  }

  /// Whether the first row is an openScale header or a headerless openScale row.
  static func matches(firstRow: CSVRow) -> Bool {
    Columns(header: firstRow) != nil
      || (firstRow.fields.count >= 5 && firstRow[0].flatMap(LocalDateTime.parse) != nil)
  }

  /// The weights of an openScale CSV, local times read in `zone`.
  ///
  /// openScale 3.x writes values in the user's configured unit without naming it; they are
  /// read in `unit` (kg, openScale's default, when nil) and the result says so.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock, unit: MassUnit? = nil)
    throws -> WeightImportResult
  {
    let rows = try CSVReader.rows(bytes)
    guard let first = rows.first else { throw ImportError("the file is empty") }
    var result = WeightImportResult(format: .openScaleCSV)
    result.zoneless = true
    let columns: Columns
    let dataRows: ArraySlice<CSVRow>
    if let found = Columns(header: first) {
      columns = found
      dataRows = rows.dropFirst()
    } else if matches(firstRow: first) {
      columns = Columns(legacyFieldCount: first.fields.count)
      dataRows = rows[...]
    } else {
      throw ImportError(line: 1, "expected an openScale header with DATE or dateTime and WEIGHT")
    }
    let weightUnit: MassUnit
    if columns.isVersion3 {
      weightUnit = unit ?? .kg
      result.unitNote =
        unit == nil
        ? "openScale 3.x files do not name their unit; WEIGHT was read as kg (say the unit if it was lb)"
        : nil
    } else {
      weightUnit = unit ?? .kg
    }
    var seen = Set<WeightKey>()
    let fieldCount = first.fields.count
    for row in dataRows {
      do throws(ImportRejection) {
        if row.fields.count == 1, fieldCount > 1 {
          // A line break inside a comment, or a line added by hand.
          let text = row[0] ?? ""
          throw ImportRejection(
            line: row.line,
            reason:
              "the row has one field ('\(text.prefix(40))'), not the \(fieldCount) of the header; "
              + "openScale rows start with \(columns.isVersion3 ? "DATE,TIME like 2025-08-11,23:48" : "a date like 2025-08-11 23:48"); "
              + "join it to the row above or delete it")
        }
        let moment = try dateTime(row, columns)
        let cell = row[columns.weight]?.trimmingCharacters(in: .whitespaces) ?? ""
        if let value = DecimalText.parse(cell), value == 0 {
          throw ImportRejection(line: row.line, reason: "weight is 0, openScale's empty value")
        }
        let kilograms = try WeightValue.kilograms(cell, unit: weightUnit, line: row.line)
        let note = columns.comment.flatMap { row[$0] }.flatMap { $0.isEmpty ? nil : $0 }
        result.add(
          ImportedWeight(
            instant: moment.instant(in: zone), kilograms: kilograms, source: "openScale",
            note: note, line: row.line, fileTime: moment.wallSeconds), seen: &seen)
      } catch {
        result.rejections.append(error)
      }
    }
    return result
  }

  /// The row's moment: `dateTime`, or `DATE` plus `TIME` (12:00 when the time is missing or
  /// unreadable, as openScale does).
  static func dateTime(_ row: CSVRow, _ columns: Columns) throws(ImportRejection) -> LocalDateTime {
    if let column = columns.dateTime, let text = row[column], !text.isEmpty {
      guard let value = LocalDateTime.parse(text) else {
        throw ImportRejection(
          line: row.line, reason: "dateTime '\(text)' is not like 2025-08-11 23:48")
      }
      return value
    }
    guard let column = columns.date, let text = row[column],
      let (year, month, day) = LocalDateTime.isoDate(
        Substring(text.trimmingCharacters(in: .whitespaces)))
    else {
      throw ImportRejection(
        line: row.line,
        reason: "date '\(columns.date.flatMap { row[$0] } ?? "")' is not like 2025-08-11")
    }
    let clock =
      columns.time.flatMap { row[$0] }.flatMap { LocalDateTime.time(Substring($0)) }
      ?? (12, 0, 0)
    guard
      let value = LocalDateTime(
        year: year, month: month, day: day, hour: clock.0, minute: clock.1, second: clock.2)
    else { throw ImportRejection(line: row.line, reason: "date '\(text)' does not exist") }
    return value
  }
}

extension OpenScaleCSVImporter.Columns {
  /// The headerless 1.x layouts all start `dateTime,weight` and end with `comment`.
  init(legacyFieldCount count: Int) {
    date = nil
    time = nil
    dateTime = 0
    weight = 1
    comment = count - 1
    isVersion3 = false
  }
}
