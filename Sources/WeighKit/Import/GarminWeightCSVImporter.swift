/// Reads Garmin Connect's weight export (Health Stats › Weight › Export):
/// `Time,Weight,Change,BMI,Body Fat,Skeletal Muscle Mass,Bone Mass,Body Water`, where a row
/// holding only a date (` Dec 31, 2017`, or ` 21 Sep 2023`) starts a day and the rows after it hold a local time
/// (`01:00` or `7:23 AM`) and values with their units (`80.4 kg`, `177.2 lbs`; `--` for none).
public enum GarminWeightCSVImporter {
  /// Whether a header row is Garmin's: `Time,Weight` first and a `BMI` column.
  static func matches(header: CSVRow) -> Bool {
    let names = CSVWeightColumns.names(header)
    return names.count >= 3 && names[0] == "time" && names[1] == "weight" && names.contains("bmi")
  }

  /// A day row: ` Dec 31, 2017` (US English) or ` 21 Sep 2023` (day first, as English
  /// accounts outside the US write it; the month's name leaves no doubt).
  static let dayShapes = ["MMM d, yyyy", "d MMM yyyy"].map(CSVDatePattern.known)

  /// The weights of a Garmin weight CSV, local times read in `zone`.
  ///
  /// - Throws: `ImportError` when the header is not Garmin's.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock) throws
    -> WeightImportResult
  {
    try importWeights(.bytes(bytes), zone: zone)
  }

  /// The weights of a Garmin weight CSV read from `input` (a file is read in chunks).
  public static func importWeights(_ input: ImportInput, zone: ZonedClock) throws
    -> WeightImportResult
  {
    var result = WeightImportResult(format: .garminCSV)
    var seen = WeightKeySet()
    var sawHeader = false
    var day: CivilDate?
    try CSVReader.forEachRow(input) { row in
      guard sawHeader else {
        guard matches(header: row) else {
          throw ImportError(line: row.line, "expected Garmin's header Time,Weight,Change,BMI,…")
        }
        sawHeader = true
        return
      }
      let firstCell = row.field(0)
      if let reading = CSVDatePattern.first(dayShapes, bytes: firstCell) {
        day = reading.local.date
        return
      }
      do throws(ImportRejection) {
        guard let day else {
          throw ImportRejection(
            line: row.line,
            reason:
              "time '\(row[0] ?? "")' comes before any date row such as \"Dec 31, 2017\" or \"21 Sep 2023\""
          )
        }
        guard let clock = time(bytes: firstCell) else {
          throw ImportRejection(
            line: row.line,
            reason:
              "'\(row[0] ?? "")' is neither a date like Dec 31, 2017 or 21 Sep 2023 nor a time like 07:23 or 7:23 AM"
          )
        }
        let kilograms = try Self.kilograms(row.field(1), line: row.line)
        let local = LocalDateTime(date: day, secondOfDay: clock)
        result.zoneless = true
        result.add(
          ImportedWeight(
            instant: local.instant(in: zone), kilograms: kilograms, source: "Garmin Connect",
            line: row.line, fileTime: local.wallSeconds), seen: &seen)
      } catch {
        result.rejections.append(error)
      }
    }
    guard sawHeader else { throw ImportError("the file is empty") }
    return result
  }

  static let clockShapes = ["HH:mm", "H:mm", "h:mm a", "HH:mm:ss", "h:mm:ss a"].map(
    CSVDatePattern.clock)

  /// Seconds since midnight of `07:23`, `7:23 AM` and the like.
  static func time(_ text: String) -> Int? {
    let trimmed = Array(text.trimmedWhitespace.utf8)[...]
    for shape in clockShapes {
      if let second = shape.secondOfDay(bytes: trimmed) { return second }
    }
    return nil
  }

  /// ``time(_:)`` of a cell's UTF-8 bytes, read from the bytes when they are ASCII.
  static func time(bytes cell: ArraySlice<UInt8>) -> Int? {
    guard let trimmed = WeightValue.trimmedASCII(cell) else {
      return time(String(decoding: cell, as: UTF8.self))
    }
    for shape in clockShapes {
      if let second = shape.secondOfDay(bytes: trimmed) { return second }
    }
    return nil
  }

  /// `80.4 kg` → ("80.4", kg); Garmin writes the unit after each value.
  static func value(_ cell: String?, line: Int) throws(ImportRejection) -> (String, MassUnit) {
    let parts = (cell ?? "").split(separator: " ", omittingEmptySubsequences: true)
    guard let number = parts.first, number != "--", number != "–" else {
      throw ImportRejection(line: line, reason: "no weight in this row")
    }
    guard parts.count == 2, let unit = WeightValue.unit(named: String(parts[1])) else {
      throw ImportRejection(
        line: line,
        reason: "weight '\(cell ?? "")' is not a number and unit such as 80.4 kg or 177.2 lbs")
    }
    return (String(number), unit)
  }

  /// The kilograms of a weight cell (`80.4 kg`), by ``value(_:line:)`` and
  /// `WeightValue.kilograms`, read from the cell's bytes when they are ASCII: the words
  /// split at spaces as `split(separator: " ")` splits them.
  static func kilograms(_ cell: ArraySlice<UInt8>, line: Int) throws(ImportRejection) -> Double {
    guard !cell.contains(where: { $0 >= 0x80 }) else {
      let (number, unit) = try value(String(decoding: cell, as: UTF8.self), line: line)
      return try WeightValue.kilograms(number, unit: unit, line: line)
    }
    // The first two words, and how many there are (three: more than two).
    var first = cell.startIndex..<cell.startIndex
    var second = first
    var count = 0
    var index = cell.startIndex
    while count < 3 {
      while index < cell.endIndex, cell[index] == 0x20 { index += 1 }
      guard index < cell.endIndex else { break }
      let start = index
      while index < cell.endIndex, cell[index] != 0x20 { index += 1 }
      if count == 0 { first = start..<index } else if count == 1 { second = start..<index }
      count += 1
    }
    guard count > 0, !cell[first].elementsEqual("--".utf8) else {
      throw ImportRejection(line: line, reason: "no weight in this row")
    }
    guard count == 2, let unit = WeightValue.unit(named: cell[second]) else {
      throw ImportRejection(
        line: line,
        reason:
          "weight '\(String(decoding: cell, as: UTF8.self))' is not a number and unit such as 80.4 kg or 177.2 lbs"
      )
    }
    return try WeightValue.kilograms(utf8: cell[first], unit: unit, line: line)
  }
}

extension LocalDateTime {
  /// A date and a second of its day, 0 ..< 86 400.
  init(date: CivilDate, secondOfDay: Int) {
    self.date = date
    self.secondOfDay = secondOfDay
  }
}
