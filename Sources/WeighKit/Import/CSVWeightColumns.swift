/// Where a CSV keeps its weights and how to read them: what every column-based reader
/// (Withings, Renpho, Google Fit, MyFitnessPal, Libra, Samsung Health, generic CSV) shares.
struct CSVWeightColumns {
  /// The column of the date, or of date and time together.
  var date: Int
  /// The column of the time, when the file keeps it apart from the date.
  var time: Int?
  var weight: Int
  /// A free-text column kept as the entry's note.
  var note: Int?
  var unit: MassUnit
  var source: String
  /// Reads a date cell's UTF-8 bytes (joined to the time cell with a space when there is one).
  var readDate: (ArraySlice<UInt8>) -> CSVDatePattern.Reading?
  /// Why a date cell could not be read: `date 'x' is not like 2026-01-03 07:00`.
  var dateReason: (String) -> String
  /// Rows whose weight cell is empty hold other data (Google Fit's daily rows): skipped, not
  /// rejected.
  var skipsRowsWithoutWeight = false
  /// The first line is a row, not a header: a file without a header whose columns were
  /// named by number (a CSV of your own).
  var firstLineIsRow = false
  /// The rows end at a section title (a line of one unquoted field): the rest of the file
  /// holds other data (Fitbit's account export, `FitbitCSVImporter`).
  var endsAtSectionTitle = false
  /// Said when the header has more than one weight column and one was taken unnamed.
  var weightColumnNote: String?
  /// Said when the date column was taken from a header that names no date (`Start,Finish`).
  var dateColumnNote: String?
  /// Said when a header that an app might have written gave no app's name.
  var sourceNote: String?
  /// Weights written with a decimal comma (`81,6`) are read, and said: sheets kept by hand
  /// (a CSV of your own); apps' exports write a point.
  var readsDecimalComma = false

  /// A date without a time of day is read as 12:00, as openScale does.
  static let noon = 12 * 3600

  /// The reader's rows after the header, read in order.
  static func readRows(
    _ input: ImportInput, separator: UInt8 = 0x2C, format: ImportFormat, zone: ZonedClock,
    header: (CSVRow) throws -> CSVWeightColumns?
  ) throws -> WeightImportResult {
    var result = WeightImportResult(format: format)
    var seen = WeightKeySet()
    var reader: RowReader?
    var ended = false
    try CSVReader.forEachRow(input, separator: separator) { row in
      if let reader {
        if ended { return }
        if reader.endsAtSectionTitle, FitbitCSVImporter.isTitle(row) {
          ended = true
          // A line the export does not write as a title ends the section too (what follows
          // may be any data), but is said: rows after it are not read.
          if !FitbitCSVImporter.isKnownTitle(row) {
            result.rejections.append(
              ImportRejection(
                line: row.line,
                reason:
                  "'\(row[0] ?? "")' is not a section title of Fitbit's export; it ends the Body section, whose rows after it are not read"
              ))
          }
          return
        }
        reader.take(row, zone: zone, into: &result, seen: &seen)
      } else {
        // A header quoted whole is read as the row inside it, and said.
        let inner = row.unwrapped(separator: separator)
        guard let columns = try header(inner ?? row) else { return }
        result.headerUnwrapped = inner != nil
        result.weightColumnNote = columns.weightColumnNote
        result.dateColumnNote = columns.dateColumnNote
        result.sourceNote = columns.sourceNote
        let made = RowReader(
          columns: columns, headerFields: (inner ?? row).count, separator: separator)
        reader = made
        if columns.firstLineIsRow {
          result.firstLineWasRow = true
          made.take(row, zone: zone, into: &result, seen: &seen)
        }
      }
    }
    guard reader != nil else { throw ImportError("the file is empty") }
    return result
  }

  /// The columns read into a reference's constants: a row reads them in place, where the
  /// columns in a variable were copied (their strings and closures retained) once or twice a
  /// row, 45 to 90 instructions of a generic CSV row under callgrind.
  private final class RowReader {
    let date: Int
    let time: Int?
    let weight: Int
    let note: Int?
    let unit: MassUnit
    let source: String
    let readDate: (ArraySlice<UInt8>) -> CSVDatePattern.Reading?
    let dateReason: (String) -> String
    let skipsRowsWithoutWeight: Bool
    let endsAtSectionTitle: Bool
    let readsDecimalComma: Bool
    /// The fields of the header (or of the first row, in a file without one), and the
    /// separator: a row of one field that lacks the columns read is said to be one field,
    /// not blamed on its date (`RowReader.shortRowReason`).
    let headerFields: Int
    let separator: UInt8
    let firstLineIsRow: Bool

    init(columns: CSVWeightColumns, headerFields: Int, separator: UInt8) {
      date = columns.date
      time = columns.time
      weight = columns.weight
      note = columns.note
      unit = columns.unit
      source = columns.source
      readDate = columns.readDate
      dateReason = columns.dateReason
      skipsRowsWithoutWeight = columns.skipsRowsWithoutWeight
      endsAtSectionTitle = columns.endsAtSectionTitle
      readsDecimalComma = columns.readsDecimalComma
      self.headerFields = headerFields
      self.separator = separator
      firstLineIsRow = columns.firstLineIsRow
    }

    /// Why a row of one field, where the header has more and the columns read lie past the
    /// first, cannot be read; nil for any other row. A tab-separated file whose rows were
    /// typed with spaces (`20180401 109.5`, real23's MarkStringer/walk) was blamed on its
    /// date (`date '20180401 109.5' is not like …`), which sent the user to `format`.
    func shortRowReason(_ row: CSVRow) -> String? {
      guard row.count == 1, headerFields > 1, max(date, weight, time ?? 0) >= 1 else {
        return nil
      }
      let names: [UInt8: String] = [0x09: "tabs", 0x2C: "commas", 0x3B: "semicolons"]
      let separators = names[separator] ?? "'\(Character(Unicode.Scalar(separator)))'"
      let against = firstLineIsRow ? "the first row has" : "the header has"
      var reason = "the row has one field where \(against) \(headerFields)"
      let cell = row.field(0)
      let words = cell.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
      if separator != 0x20, words.count > 1 {
        reason +=
          "; its fields seem separated by spaces, not \(separators); separate them with \(separators)"
      } else {
        reason += "; separate its fields with \(separators)"
      }
      return reason
    }

    /// Reads one row into `result`, or records why not. Dates and numbers are read from the
    /// row's bytes; strings are made only for a note and for a message.
    func take(
      _ row: CSVRow, zone: ZonedClock, into result: inout WeightImportResult,
      seen: inout WeightKeySet
    ) {
      let weightCell = row.field(weight)
      if WeightValue.isBlank(weightCell) {
        if skipsRowsWithoutWeight { return }
        // A row of empty fields (`,,` as spreadsheets save the rows below a table, seen in a
        // public repository's weight.csv) holds nothing, as a blank line does.
        if (0..<row.count).allSatisfy({ WeightValue.isBlank(row.field($0)) }) { return }
      }
      do throws(ImportRejection) {
        if let reason = shortRowReason(row) {
          throw ImportRejection(line: row.line, reason: reason)
        }
        var dateText = row.field(date)
        if let time, time < row.count {
          dateText = ArraySlice(Array(dateText) + [0x20] + row.field(time))
        }
        guard var reading = readDate(dateText) else {
          throw ImportRejection(
            line: row.line, reason: dateReason(String(decoding: dateText, as: UTF8.self)))
        }
        if !reading.hasTime { reading.local.secondOfDay = CSVWeightColumns.noon }
        let kilograms: Double
        do throws(ImportRejection) {
          kilograms = try WeightValue.kilograms(utf8: weightCell, unit: unit, line: row.line)
        } catch {
          guard readsDecimalComma, let value = WeightValue.decimalComma(weightCell, unit: unit)
          else { throw error }
          let written = String(decoding: weightCell, as: UTF8.self).trimmedWhitespace
          kilograms = try ImportedWeight.validate(
            kilograms: unit.toKilograms(value), written: written, unit: unit, line: row.line)
          result.decimalCommaRows += 1
          if result.firstDecimalComma == nil { result.firstDecimalComma = written }
        }
        var noteText: String?
        if let note, !row.field(note).isEmpty {
          noteText = row[note]?.trimmedWhitespace
        }
        // The wall-clock time counted once: `instant(in:)` and `wallSeconds` each counted the
        // days since 1970 (130 instructions a row).
        let wall = reading.local.wallSeconds
        let instant: Int64
        if let offset = reading.offset {
          instant = wall - Int64(offset)  // checked: an offset under a day
        } else {
          // A time that names no zone was read in the session's: the import says which.
          result.zoneless = true
          instant = zone.instant(ofWall: wall)
        }
        // A date at time 0 in some zone (`31-Dec-1969 16:00` in a public export of Health
        // data read in Pacific time) is what apps write for a date they lack: said.
        if abs(instant) <= WeightImportResult.epochReach {
          result.nearEpochRows += 1
          if result.firstNearEpoch == nil {
            result.firstNearEpoch = (row.line, String(decoding: dateText, as: UTF8.self))
          }
        }
        result.add(
          ImportedWeight(
            vendorRow: instant, kilograms: kilograms, source: source,
            note: noteText.flatMap { $0.isEmpty ? nil : $0 }, line: row.line,
            fileTime: reading.offset == nil ? wall : nil), seen: &seen)
      } catch {
        result.rejections.append(error)
      }
    }
  }

  /// Lower-cased, trimmed header names, for matching.
  static func names(_ header: CSVRow) -> [String] {
    header.fields.map { $0.text.trimmingCharacters(in: .whitespaces).lowercased() }
  }
}

extension CSVDatePattern {
  /// The ISO shapes vendors write: `2026-01-03 07:00[:00][.000]`, with `T`, with an offset
  /// or `Z`, or a date alone.
  static let isoShapes: [CSVDatePattern] = [
    "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm",
    "yyyy-MM-dd HH:mm:ss.S", "yyyy-MM-dd'T'HH:mm:ss.S", "yyyy-MM-dd'T'HH:mm:ssXXX",
    "yyyy-MM-dd'T'HH:mm:ss.SXXX", "yyyy-MM-dd'T'HH:mmXXX", "yyyy-MM-dd HH:mm:ssXXX",
    "yyyy-MM-dd HH:mm:ss.SXXX", "yyyy-MM-dd",
  ].map(known)

  /// The first of `shapes` that reads `text`.
  static func first(_ shapes: [CSVDatePattern], _ text: Substring) -> Reading? {
    first(shapes, bytes: Array(text.utf8)[...])
  }

  /// The first of `shapes` that reads the UTF-8 `text`.
  static func first(_ shapes: [CSVDatePattern], bytes text: ArraySlice<UInt8>) -> Reading? {
    for shape in shapes {
      if let reading = shape.read(bytes: text) { return reading }
    }
    return nil
  }
}

/// Date shapes tried in order, the one that read the last text tried first: a file writes
/// one shape, so a row costs one try where it cost up to a dozen (a date alone is the
/// twelfth ISO shape, Libra's `…T17:53:00.000Z` the eighth). Only for lists in which no text
/// fits two shapes (`ReaderFastPathTests` checks every list in the code), so that the order
/// the shapes are tried in changes no reading: `read(bytes:)` is `CSVDatePattern.first`.
final class CSVDateShapes {
  let shapes: [CSVDatePattern]
  /// The shape that read the last text read.
  private var last = 0
  /// Which of the fixed ISO layouts ``fixed(_:)`` reads the list holds: a date alone, and
  /// minutes and seconds after a space or after `T`.
  private let hasDay: Bool
  private let hasMinutes: (space: Bool, t: Bool)
  private let hasSeconds: (space: Bool, t: Bool)
  /// The digits of the last day read by ``fixed(_:)`` (`yyyyMMdd` as bytes) and its date.
  private var dayKey: UInt64 = 0
  private var day = CivilDate(year: 1970, month: 1, day: 1)

  init(_ shapes: [CSVDatePattern]) {
    self.shapes = shapes
    let texts = Set(shapes.map(\.text))
    hasDay = texts.contains("yyyy-MM-dd")
    hasMinutes = (texts.contains("yyyy-MM-dd HH:mm"), texts.contains("yyyy-MM-dd'T'HH:mm"))
    hasSeconds = (texts.contains("yyyy-MM-dd HH:mm:ss"), texts.contains("yyyy-MM-dd'T'HH:mm:ss"))
  }

  /// The reading of the shape that fits `text`, or nil.
  func read(bytes text: ArraySlice<UInt8>) -> CSVDatePattern.Reading? {
    if let reading = text.withUnsafeBufferPointer({ fixed($0) }) { return reading }
    if let reading = shapes[last].read(bytes: text) { return reading }
    for index in shapes.indices where index != last {
      if let reading = shapes[index].read(bytes: text) {
        last = index
        return reading
      }
    }
    return nil
  }

  /// The reading of `2026-01-03`, `2026-01-03 07:00` or `2026-01-03 07:00:00` (also with
  /// `T`; spaces around ignored) when the list holds that shape, read at fixed places with
  /// the last day's calendar check remembered, as Apple's dates are
  /// (`HealthExportDate.Reader`); nil for any other text, and for a field out of range,
  /// which the shapes read (or refuse) as before. Two-digit fields are what the shape's
  /// `MM`, `dd`, `HH` read from two digits, and no other shape of the list fits the text
  /// (`ReaderFastPathTests`), so the reading is the list's.
  private func fixed(_ raw: UnsafeBufferPointer<UInt8>) -> CSVDatePattern.Reading? {
    var start = 0
    var end = raw.count
    while start < end, raw[start] == 0x20 { start += 1 }
    while end > start, raw[end - 1] == 0x20 { end -= 1 }
    let count = end - start
    guard count == 10 || count == 16 || count == 19 else { return nil }
    let text = UnsafeBufferPointer(rebasing: raw[start..<end])
    guard text[4] == 0x2D, text[7] == 0x2D else { return nil }
    var secondOfDay = 0
    if count == 10 {
      guard hasDay else { return nil }
    } else {
      let separator = text[10]
      guard separator == 0x20 || separator == 0x54, text[13] == 0x3A else { return nil }
      let layouts = count == 16 ? hasMinutes : hasSeconds
      guard separator == 0x20 ? layouts.space : layouts.t else { return nil }
      guard let hour = HealthExportDate.digits(text, 11, 2),
        let minute = HealthExportDate.digits(text, 14, 2), hour < 24,
        minute < 60
      else { return nil }
      var second = 0
      if count == 19 {
        guard text[16] == 0x3A, let seconds = HealthExportDate.digits(text, 17, 2), seconds < 60
        else {
          return nil
        }
        second = seconds
      }
      secondOfDay = hour * 3600 + minute * 60 + second
    }
    // The eight digits' bytes (`yyyy`, `MM`, `dd`), as one number.
    var key: UInt64 = 0
    for index in 0..<10 where index != 4 && index != 7 {
      key = key << 8 | UInt64(text[index])  // checked: a byte widens
    }
    if key != dayKey {
      guard let year = HealthExportDate.digits(text, 0, 2),
        let century = HealthExportDate.digits(text, 2, 2),
        let month = HealthExportDate.digits(text, 5, 2),
        let dayOfMonth = HealthExportDate.digits(text, 8, 2),
        CivilDate.isValid(year: year * 100 + century, month: month, day: dayOfMonth)
      else { return nil }
      day = CivilDate(year: year * 100 + century, month: month, day: dayOfMonth)
      dayKey = key
    }
    return CSVDatePattern.Reading(
      local: LocalDateTime(date: day, secondOfDay: secondOfDay), offset: nil,
      hasTime: count != 10)
  }
}
