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
    /// False for the headerless 1.x layouts, whose first row is a weight.
    var hasHeader = true

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
  ///
  /// A header counts as openScale's only as its exporters write it: 3.x begins `DATE,TIME`
  /// (its type keys, upper case), 2.x names `dateTime`. The columns are then read without
  /// regard to case, as openScale reads them; but `date,weight,bmi,fat` or
  /// `date,weight,bmi,source` (spreadsheets of people's own, seen in public repositories)
  /// are CSVs of their own, whose unit weigh must be told, not openScale's kg.
  static func matches(firstRow: CSVRow) -> Bool {
    let written = firstRow.fields.map { $0.text.trimmingCharacters(in: .whitespaces) }
    let isExportHeader =
      written.starts(with: ["DATE", "TIME"]) || written.contains("dateTime")
    return (isExportHeader && Columns(header: firstRow) != nil)
      || (firstRow.fields.count >= 5 && firstRow[0].flatMap(LocalDateTime.parse) != nil)
  }

  /// The weights of an openScale CSV, local times read in `zone`.
  ///
  /// openScale 3.x writes values in the user's configured unit without naming it; they are
  /// read in `unit` (kg, openScale's default, when nil) and the result says so.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock, unit: MassUnit? = nil)
    throws -> WeightImportResult
  {
    try importWeights(.bytes(bytes), zone: zone, unit: unit)
  }

  /// The weights of an openScale CSV read from `input` (a file is read in chunks).
  public static func importWeights(_ input: ImportInput, zone: ZonedClock, unit: MassUnit? = nil)
    throws -> WeightImportResult
  {
    var result = WeightImportResult(format: .openScaleCSV)
    result.zoneless = true
    var seen = WeightKeySet()
    // Set by the first row: the columns, the unit and the header's field count.
    var layout: (columns: Columns, unit: MassUnit, fieldCount: Int)?
    try CSVReader.forEachRow(input) { row in
      guard let (columns, weightUnit, fieldCount) = layout else {
        let columns: Columns
        if let found = Columns(header: row) {
          columns = found
        } else if matches(firstRow: row) {
          columns = Columns(legacyFieldCount: row.count)
        } else {
          throw ImportError(
            line: 1, "expected an openScale header with DATE or dateTime and WEIGHT")
        }
        if columns.isVersion3, unit == nil {
          result.unitNote =
            "openScale 3.x files do not name their unit; WEIGHT was read as kg (say the unit if it was lb)"
        }
        layout = (columns, unit ?? .kg, row.count)
        // A headerless file's first row is a weight.
        if !columns.hasHeader {
          take(
            row, columns, unit: unit ?? .kg, fieldCount: row.count, zone: zone, into: &result,
            seen: &seen)
        }
        return
      }
      take(
        row, columns, unit: weightUnit, fieldCount: fieldCount, zone: zone, into: &result,
        seen: &seen)
    }
    guard layout != nil else { throw ImportError("the file is empty") }
    return result
  }

  /// Reads one row into `result`, or records why not.
  static func take(
    _ row: CSVRow, _ columns: Columns, unit weightUnit: MassUnit, fieldCount: Int,
    zone: ZonedClock, into result: inout WeightImportResult, seen: inout WeightKeySet
  ) {
    do throws(ImportRejection) {
      if row.count == 1, fieldCount > 1 {
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
      let cell = row.field(columns.weight)
      let kilograms: Double
      if let trimmed = WeightValue.trimmedASCII(cell), let value = DecimalText.parse(utf8: trimmed)
      {
        // The common case, read once: what `WeightValue.kilograms(utf8:)` does with a number.
        if value == 0 {
          throw ImportRejection(line: row.line, reason: "weight is 0, openScale's empty value")
        }
        kilograms = try ImportedWeight.validate(
          kilograms: weightUnit.toKilograms(value),
          written: String(decoding: trimmed, as: UTF8.self),
          unit: weightUnit, line: row.line)
      } else {
        let value =
          WeightValue.trimmedASCII(cell).map { DecimalText.parse(utf8: $0) }
          ?? DecimalText.parse(
            String(decoding: cell, as: UTF8.self).trimmingCharacters(in: .whitespaces))
        if value == 0 {
          throw ImportRejection(line: row.line, reason: "weight is 0, openScale's empty value")
        }
        kilograms = try WeightValue.kilograms(utf8: cell, unit: weightUnit, line: row.line)
      }
      let note = columns.comment.flatMap { row.field($0).isEmpty ? nil : row[$0] }
      result.add(
        ImportedWeight(
          instant: moment.instant(in: zone), kilograms: kilograms, source: "openScale",
          note: note, line: row.line, fileTime: moment.wallSeconds), seen: &seen)
    } catch {
      result.rejections.append(error)
    }
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
    guard let column = columns.date, column < row.count,
      let (year, month, day) = isoDate(row, column)
    else {
      throw ImportRejection(
        line: row.line,
        reason: "date '\(columns.date.flatMap { row[$0] } ?? "")' is not like 2025-08-11")
    }
    var clock = (12, 0, 0)
    if let time = columns.time, time < row.count {
      let cell = row.field(time)
      let read =
        cell.contains(where: { $0 >= 0x80 })
        ? LocalDateTime.time(Substring(String(decoding: cell, as: UTF8.self)))
        : LocalDateTime.time(ascii: cell)
      clock = read ?? clock
    }
    guard
      let value = LocalDateTime(
        year: year, month: month, day: day, hour: clock.0, minute: clock.1, second: clock.2)
    else {
      throw ImportRejection(line: row.line, reason: "date '\(row[column] ?? "")' does not exist")
    }
    return value
  }

  /// The `DATE` cell's `yyyy-MM-dd`, white space around it ignored: read from the bytes when
  /// they are ASCII, else from the text (trimmed of Unicode spaces too).
  static func isoDate(_ row: CSVRow, _ column: Int) -> (Int, Int, Int)? {
    let cell = row.field(column)
    if let trimmed = WeightValue.trimmedASCII(cell) { return LocalDateTime.isoDate(bytes: trimmed) }
    return LocalDateTime.isoDate(Substring(String(decoding: cell, as: UTF8.self).trimmedWhitespace))
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
    hasHeader = false
  }
}
