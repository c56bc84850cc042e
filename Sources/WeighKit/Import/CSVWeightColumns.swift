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

  /// A date without a time of day is read as 12:00, as openScale does.
  static let noon = 12 * 3600

  /// Reads one row into `result`, or records why not. Dates and numbers are read from the
  /// row's bytes; strings are made only for a note and for a message.
  func take(
    _ row: CSVRow, zone: ZonedClock, into result: inout WeightImportResult,
    seen: inout WeightKeySet
  ) {
    let weightCell = row.field(weight)
    if skipsRowsWithoutWeight, WeightValue.isBlank(weightCell) { return }
    do throws(ImportRejection) {
      var dateText = row.field(date)
      if let time, time < row.count {
        dateText = ArraySlice(Array(dateText) + [0x20] + row.field(time))
      }
      guard var reading = readDate(dateText) else {
        throw ImportRejection(
          line: row.line, reason: dateReason(String(decoding: dateText, as: UTF8.self)))
      }
      if !reading.hasTime { reading.local.secondOfDay = Self.noon }
      let kilograms = try WeightValue.kilograms(utf8: weightCell, unit: unit, line: row.line)
      var noteText: String?
      if let note, !row.field(note).isEmpty {
        noteText = row[note]?.trimmedWhitespace
      }
      // A time that names no zone was read in the session's: the import says which.
      if reading.zoneLess != nil { result.zoneless = true }
      result.add(
        ImportedWeight(
          instant: reading.instant(in: zone), kilograms: kilograms, source: source,
          note: noteText.flatMap { $0.isEmpty ? nil : $0 }, line: row.line,
          fileTime: reading.zoneLess?.wallSeconds), seen: &seen)
    } catch {
      result.rejections.append(error)
    }
  }

  /// The reader's rows after the header, read in order.
  static func readRows(
    _ input: ImportInput, separator: UInt8 = 0x2C, format: ImportFormat, zone: ZonedClock,
    header: (CSVRow) throws -> CSVWeightColumns?
  ) throws -> WeightImportResult {
    var result = WeightImportResult(format: format)
    var seen = WeightKeySet()
    var columns: CSVWeightColumns?
    try CSVReader.forEachRow(input, separator: separator) { row in
      if let columns {
        columns.take(row, zone: zone, into: &result, seen: &seen)
      } else {
        columns = try header(row)
      }
    }
    guard columns != nil else { throw ImportError("the file is empty") }
    return result
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

  init(_ shapes: [CSVDatePattern]) { self.shapes = shapes }

  /// The reading of the shape that fits `text`, or nil.
  func read(bytes text: ArraySlice<UInt8>) -> CSVDatePattern.Reading? {
    if let reading = shapes[last].read(bytes: text) { return reading }
    for index in shapes.indices where index != last {
      if let reading = shapes[index].read(bytes: text) {
        last = index
        return reading
      }
    }
    return nil
  }
}
