/// What `import FILE as csv date COL time COL weight COL unit U format "…" source NAME
/// delimiter ;` says about a spreadsheet of the user's own (the zone comes apart, as `tz`).
public struct GenericCSVOptions: Hashable, Sendable {
  /// The date column (or date and time together), by name or 1-based number.
  public var date: String?
  /// The time column, when the time is kept apart from the date.
  public var time: String?
  /// The weight column.
  public var weight: String?
  /// The unit, when the weight column's name does not say it.
  public var unit: MassUnit?
  /// The layout of the date (and time) text.
  public var format: CSVDatePattern?
  /// The source the entries get; `CSV` when not said.
  public var source: String?
  /// The byte between fields; detected from the header (`,`, `;` or tab) when not said.
  public var delimiter: UInt8?
  /// The column kept as each entry's note; a column named as notes are (`note`,
  /// `comments`, `memo`…) when not said.
  public var note: String?

  /// Options; nil everywhere means: detect.
  public init(
    date: String? = nil, time: String? = nil, weight: String? = nil, unit: MassUnit? = nil,
    format: CSVDatePattern? = nil, source: String? = nil, delimiter: UInt8? = nil,
    note: String? = nil
  ) {
    self.date = date
    self.time = time
    self.weight = weight
    self.unit = unit
    self.format = format
    self.source = source
    self.delimiter = delimiter
    self.note = note
  }

  /// Whether any option says something.
  public var isEmpty: Bool { self == GenericCSVOptions() }
}

/// Reads any CSV with a header: a date column (or date and time), a weight column and a unit,
/// named plainly (`Date`, `datetime`, `Weight`, `kg`, `weight (lbs)`) or said with options.
/// When it cannot tell, the error names exactly the option to add.
public enum GenericCSVImporter {
  /// Plain names of a date column, in English and in the languages of Europe's and East
  /// Asia's spreadsheets (German, Dutch, Scandinavian `datum`/`dato`; Spanish `fecha`;
  /// Italian, Portuguese and Polish `data`; French `date`; Japanese `日付`; Chinese `日期`,
  /// a public repository's `日期,体重`, real25).
  static let dateNames: Set<String> = [
    "date", "datetime", "date time", "date/time", "date_time", "timestamp", "time of measurement",
    "measured at", "day", "when", "datum", "dato", "fecha", "data", "日付", "日期",
  ]
  /// The first of two columns that head a period (`Start,Finish`), read as the date when no
  /// column is named as one: QS Access, which exports HealthKit's samples, writes each row's
  /// period so (three public repositories' files, real24 and real25); a weighing's period
  /// starts and finishes at once, and a day's average starts at the day's 00:00, its day.
  static let periodStartName = "start"
  /// The names of the column that ends a period beside `periodStartName`.
  static let periodEndNames: Set<String> = ["finish", "end"]
  /// The date names that say a day only, so that a time column beside them is the time.
  static let dayOnlyNames: Set<String> = ["date", "datum", "dato", "fecha", "data", "日付", "日期"]
  /// Plain names of a time column kept apart from the date (`Zeit`, `heure`, `hora`, `ora`,
  /// `tijd`, `tid`, `godzina`, `時刻`).
  static let timeNames: Set<String> = [
    "time", "clock", "zeit", "uhrzeit", "heure", "hora", "ora", "tijd", "tid", "godzina", "時刻",
    "时间",
  ]
  /// Plain names of a weight column (`Gewicht`, `poids`, `peso`, `vikt`, `vekt`, `vægt`,
  /// `waga`, `体重`), with or without a unit in brackets.
  static let weightNames: Set<String> = [
    "weight", "body weight", "bodyweight", "mass", "body mass", "gewicht", "körpergewicht",
    "poids", "peso", "vikt", "vekt", "vægt", "waga", "体重",
  ]

  /// Plain names of a column of notes, kept as each entry's note (`Kommentar`, `notiz`,
  /// `commentaire`, `nota`, `comentario`, `opmerking`, `メモ`): dropped, a log's remarks
  /// were lost unsaid (a CSV of `date,bw,comment` in a public repository, real23).
  static let noteNames: Set<String> = [
    "note", "notes", "comment", "comments", "memo", "remark", "remarks", "kommentar",
    "kommentare", "notiz", "notizen", "bemerkung", "bemerkungen", "commentaire", "commentaires",
    "nota", "notas", "note personali", "comentario", "comentarios", "opmerking", "opmerkingen",
    "メモ",
  ]

  /// The weight-column name without a unit in brackets, and the unit a name says: `kg`,
  /// `Weight (kg)`, `weight(lbs)`.
  static func weightName(_ name: String) -> (isWeight: Bool, unit: MassUnit?) {
    let lowered = name.trimmingCharacters(in: .whitespaces).lowercased()
    if let unit = WeightValue.unit(named: lowered), lowered != "g" { return (true, unit) }
    if let unit = WeightValue.unit(inHeader: lowered), let open = lowered.lastIndex(of: "(") {
      let bare = lowered[..<open].trimmingCharacters(in: .whitespaces)
      return (weightNames.contains(bare), unit)
    }
    // `weight_kg`, `weight-lbs`, `weight kg`: a weight name, a separator, a unit.
    if let cut = lowered.lastIndex(where: { $0 == "_" || $0 == "-" || $0 == " " }),
      let unit = WeightValue.unit(named: String(lowered[lowered.index(after: cut)...])),
      weightNames.contains(String(lowered[..<cut]))
    {
      return (true, unit)
    }
    // `body_mass` (a public repository's log, real25): words joined by `_`.
    return (weightNames.contains(lowered.replacingOccurrences(of: "_", with: " ")), nil)
  }

  /// Names of ounces, which weigh does not read as a unit of a weight column.
  static let ounceNames: Set<String> = ["oz", "ounce", "ounces"]

  /// Whether a weight column's name says ounces: `Weight (oz)`, `weight_oz`, `oz`.
  static func namesOunces(_ name: String) -> Bool {
    let lowered = name.trimmingCharacters(in: .whitespaces).lowercased()
    if ounceNames.contains(lowered) { return true }
    if let open = lowered.lastIndex(of: "("), let close = lowered.lastIndex(of: ")"), open < close {
      let inside = lowered[lowered.index(after: open)..<close]
      return ounceNames.contains(inside.trimmingCharacters(in: .whitespaces))
    }
    guard let cut = lowered.lastIndex(where: { $0 == "_" || $0 == "-" || $0 == " " }) else {
      return false
    }
    return ounceNames.contains(String(lowered[lowered.index(after: cut)...]))
  }

  /// Whether a first line looks like a header this reader can read without options: a date
  /// column and a weight column, both named plainly.
  static func matches(header: CSVRow) -> Bool {
    let names = CSVWeightColumns.names(header)
    return (names.contains(where: dateNames.contains) || period(names) != nil)
      && names.contains { weightName($0).isWeight }
  }

  /// The columns that start and end a period (`Start` and `Finish` or `End`), if the header
  /// has both.
  static func period(_ names: [String]) -> (start: Int, end: Int)? {
    guard let start = names.firstIndex(of: periodStartName),
      let end = names.firstIndex(where: periodEndNames.contains)
    else { return nil }
    return (start, end)
  }

  /// The field separator: the option, else `;` or tab when the first line has one and no comma.
  static func delimiter(_ bytes: [UInt8], _ options: GenericCSVOptions) -> UInt8 {
    if let delimiter = options.delimiter { return delimiter }
    let firstLine = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
    if firstLine.contains(0x2C) { return 0x2C }
    if firstLine.contains(0x3B) { return 0x3B }
    if firstLine.contains(0x09) { return 0x09 }
    return 0x2C
  }

  /// The weights of a CSV of the user's own, local times read in `zone`.
  ///
  /// - Throws: `ImportError` naming the option to add when a column or the unit cannot be
  ///   told, or a named column is missing.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock, options: GenericCSVOptions)
    throws -> WeightImportResult
  {
    try importWeights(.bytes(bytes), zone: zone, options: options)
  }

  /// The weights of a CSV of the user's own read from `input` (a file is read in chunks).
  public static func importWeights(
    _ input: ImportInput, zone: ZonedClock, options: GenericCSVOptions
  ) throws -> WeightImportResult {
    var separator = 0x2C as UInt8
    if let said = options.delimiter {
      separator = said
    } else {
      separator = delimiter(try input.firstLine(), options)
    }
    return try CSVWeightColumns.readRows(
      input, separator: separator, format: .genericCSV, zone: zone
    ) { header in try columns(header, options) }
  }

  /// The columns of `header` under `options`.
  static func columns(_ header: CSVRow, _ options: GenericCSVOptions) throws -> CSVWeightColumns {
    let names = CSVWeightColumns.names(header)
    let shown = header.fields.map { "'\($0.text)'" }.joined(separator: ", ")
    func find(_ reference: String, _ what: String) throws -> Int {
      let lowered = reference.trimmingCharacters(in: .whitespaces).lowercased()
      if let index = names.firstIndex(of: lowered) { return index }
      // checked: parses text, nil when out of range
      if let number = Int(lowered), (1...names.count).contains(number) { return number - 1 }
      // One column whose text holds words apart (`2018-05-04 93.3`, a public repository's
      // weight.txt): its fields are separated by spaces, which `delimiter " "` reads.
      if names.count == 1, options.delimiter == nil,
        header[0]?.trimmingCharacters(in: .whitespaces).contains(" ") == true
      {
        throw ImportError(
          line: header.line,
          "there is no column '\(reference)' (columns: \(shown)); the first line's fields seem separated by spaces: add delimiter \" \""
        )
      }
      throw ImportError(
        line: header.line,
        "there is no column '\(reference)' (columns: \(shown)); write \(what) with one of those names or a number from 1 to \(names.count)"
      )
    }
    let format = options.format
    let shapes = CSVDateShapes(format.map { [$0] } ?? autoShapes)
    let date: Int
    var dateNote: String?
    if let reference = options.date {
      date = try find(reference, "date")
    } else if let found = names.firstIndex(where: dateNames.contains) {
      date = found
    } else if let period = period(names) {
      date = period.start
      dateNote =
        "read each row's date in column '\(header.fields[period.start].text)', where its period starts ('\(header.fields[period.end].text)' is where it ends); to read another, add date with its name"
    } else if let found = header.fields.indices.first(where: {
      shapes.read(bytes: header.field($0)) != nil
        || !CSVDatePattern.suggestions(for: header.fields[$0].text[...]).isEmpty
    }) {
      // `20/02/2023,97.2`: a file without a header, whose columns have no names to find.
      throw ImportError(
        line: header.line,
        "the first line holds values (\(shown)), not column names: the file has no header; name the columns by number from 1, such as date \(found + 1) weight \(found == 0 ? 2 : 1)"
      )
    } else {
      throw ImportError(
        line: header.line,
        "cannot tell which column holds the date (columns: \(shown)); add date with its name, such as date \"\(header.fields[0].text)\""
      )
    }
    var time: Int?
    if let reference = options.time {
      time = try find(reference, "time")
    } else if dayOnlyNames.contains(names[date]),
      let found = names.firstIndex(where: timeNames.contains)
    {
      time = found
    }
    let weight: Int
    // Other columns named as weights, when the first was taken without `weight`.
    var otherWeights: [Int] = []
    if let reference = options.weight {
      weight = try find(reference, "weight")
    } else if let found = names.firstIndex(where: { weightName($0).isWeight }) {
      weight = found
      otherWeights = names.indices.filter { $0 > found && weightName(names[$0]).isWeight }
    } else {
      throw ImportError(
        line: header.line,
        "cannot tell which column holds the weight (columns: \(shown)); add weight with its name, such as weight \"\(header.fields[min(1, names.count - 1)].text)\""
      )
    }
    let weightHeader = header.fields[weight].text.trimmingCharacters(in: .whitespaces)
    // A header holds no date under the date column and no number under the weight column:
    // such a first line is the first row of a file without a header, its columns named by
    // number (`as csv date 1 weight 2`). Read as a header, that row was lost unsaid.
    var dateCell = header.field(date)
    if let time, time < header.count {
      dateCell = ArraySlice(Array(dateCell) + [0x20] + header.field(time))
    }
    // A date in a shape that needs `format` (`20/02/2023`) counts too: the row is then
    // rejected with the format to add, not dropped.
    let looksLikeDate =
      shapes.read(bytes: dateCell) != nil
      || !CSVDatePattern.suggestions(for: String(decoding: dateCell, as: UTF8.self)[...]).isEmpty
    let firstLineIsRow =
      looksLikeDate
      && (try? WeightValue.kilograms(utf8: header.field(weight), unit: .kg, line: header.line))
        != nil
    // `Weight (oz)` (a baby's weights in a public repository, real25): asked for a unit, the
    // user wrote unit lb, and the ounces were read as pounds, 16 times too heavy.
    if !firstLineIsRow, namesOunces(weightHeader) {
      throw ImportError(
        line: header.line,
        "the weight column '\(weightHeader)' is in ounces, which weigh does not read; write the weights in lb (ounces divided by 16) or kg, and import again"
      )
    }
    let named = firstLineIsRow ? nil : weightName(weightHeader).unit
    if firstLineIsRow, options.unit == nil {
      throw ImportError(
        line: header.line,
        "the file has no header to name the unit of column \(weight + 1) ('\(weightHeader)'); add unit kg, unit lb or unit st"
      )
    }
    let unit: MassUnit
    switch (named, options.unit) {
    case (let named?, let said?) where named != said:
      throw ImportError(
        line: header.line,
        "the weight column '\(weightHeader)' says \(named.rawValue); leave out unit \(said.rawValue)"
      )
    case (let named?, _): unit = named
    case (nil, let said?): unit = said
    case (nil, nil):
      throw ImportError(
        line: header.line,
        "the weight column '\(weightHeader)' names no unit; add unit kg, unit lb or unit st")
    }
    // A weight split over two columns (`date,lbs,oz` of a baby's weights, seen in a public
    // repository; `st,lb`): read from one column, the other part was dropped unsaid.
    let parts: (names: Set<String>, said: String, example: String)? =
      switch unit {
      case .lb: (["oz", "ounce", "ounces"], "pounds and ounces", "9.625 for 9 lb 10 oz")
      case .st: (["lb", "lbs", "pound", "pounds"], "stones and pounds", "11.5 for 11 st 7 lb")
      default: nil
      }
    if !firstLineIsRow, let parts,
      let part = names.indices.first(where: { $0 != weight && parts.names.contains(names[$0]) })
    {
      throw ImportError(
        line: header.line,
        "the column '\(header.fields[part].text)' holds part of each weight beside '\(weightHeader)' (\(parts.said)), which weigh does not add up; write each weight in one column, such as \(parts.example), and import again"
      )
    }
    var columns = CSVWeightColumns(
      date: date, time: time, weight: weight, unit: unit, source: options.source ?? "CSV",
      readDate: shapes.read,
      dateReason: { text in
        if let format {
          return "date '\(text)' does not fit format \"\(format.text)\"; check the format"
        }
        return Self.dateReason(text[...])
      })
    columns.firstLineIsRow = firstLineIsRow
    columns.readsDecimalComma = true
    columns.dateColumnNote = firstLineIsRow ? nil : dateNote
    // `Date,Weight` is MyFitnessPal's header without its `Body Fat %` column, and how people
    // head the logs they keep by hand (two public repositories' files, real23 and real24):
    // it names no app, so the entries are the file's own, and the note says how to name them.
    let texts = header.fields.map { $0.text.trimmingCharacters(in: .whitespaces) }
    if options.source == nil, !firstLineIsRow, texts == ["Date", "Weight"] {
      columns.sourceNote =
        "its header Date,Weight names no app (MyFitnessPal's export writes Date,Body Fat %,Weight), so its entries have the source CSV, as a CSV of your own; to name another, undo and import again with source <name>"
    }
    if let reference = options.note {
      let note = try find(reference, "note")
      let taken = [(date, "date"), (time, "time"), (weight, "weight")].first { $0.0 == note }
      if let taken {
        throw ImportError(
          line: header.line,
          "note \(reference) names the \(taken.1) column '\(header.fields[note].text)'; name the column of notes, or leave note out"
        )
      }
      columns.note = note
    } else if !firstLineIsRow {
      columns.note = names.indices.first {
        $0 != date && $0 != time && $0 != weight && noteNames.contains(names[$0])
      }
    }
    // `date,pounds,kilograms` and `date,weight_lbs,…,weight_kgs` (two public repositories'
    // logs): one column is read, and which one is said, with how to read another.
    if !firstLineIsRow, let other = otherWeights.first {
      let others = otherWeights.map { "'\(header.fields[$0].text)'" }.joined(separator: ", ")
      columns.weightColumnNote =
        "read the weights in column '\(weightHeader)'; the file also has \(others), not read (to read one instead, add weight \"\(header.fields[other].text)\")"
    }
    return columns
  }

  /// Why a date read without `format` was refused, naming the `format` that reads it when
  /// its shape tells (`25/09/2026` is day/month: 25 is no month).
  static func dateReason(_ text: Substring) -> String {
    let fits = CSVDatePattern.suggestions(for: text)
    switch fits.count {
    case 1 where fits[0].hasPrefix("dd") && !fits[0].contains("MMM"):
      return
        "date '\(text)' is day/month (the first number is over 12); add format \"\(fits[0])\""
    case 1 where fits[0].hasPrefix("MM"):
      return
        "date '\(text)' is month/day (the second number is over 12); add format \"\(fits[0])\""
    case 1:
      return "date '\(text)' is not like 2026-01-03 07:00; add format \"\(fits[0])\""
    case 2:
      return
        "date '\(text)' could be day/month or month/day; add format \"\(fits[0])\" or format \"\(fits[1])\""
    default:
      // `17/05/20 9h30` (a French sheet in a public repository): the year's century is not
      // guessed, and `dd/MM/yyyy` would not read it.
      if let date = text.split(separator: " ").first,
        date.split(separator: "/", omittingEmptySubsequences: false).count == 3,
        date.split(separator: "/").allSatisfy({
          $0.count <= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber }
        })
      {
        return
          "date '\(text)' writes its year with two digits, which weigh does not read (it would guess the century); write years with four digits, then add the format that fits"
      }
      // `February 27` (a sheet kept by hand whose year stands in another column, only where
      // it changes; real25): no format fits a date without its year.
      if namesNoYear(text) {
        return
          "date '\(text)' names no year, which weigh does not guess; write the year in each date, then add the format that fits"
      }
      if text.contains("/") {
        return
          "date '\(text)' could be day/month or month/day; add format \"dd/MM/yyyy HH:mm\" or format \"MM/dd/yyyy HH:mm\" (leave out HH:mm for dates alone)"
      }
      return
        "date '\(text)' is not like 2026-01-03 07:00; add format \"…\" that fits, such as format \"dd.MM.yyyy HH:mm\""
    }
  }

  /// English months' names and their first three letters, lower case.
  static let monthNames: Set<String> = {
    let names = [
      "january", "february", "march", "april", "may", "june", "july", "august", "september",
      "october", "november", "december",
    ]
    return Set(names + names.map { String($0.prefix(3)) })
  }()

  /// Whether a date cell names a month and a day but no year: a month's name beside one
  /// number of one or two digits (`February 27`, `27 Feb`), and no other number.
  static func namesNoYear(_ text: Substring) -> Bool {
    let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," || $0 == "." })
    guard words.count == 2 else { return false }
    let numbers = words.filter { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    let months = words.filter { monthNames.contains(String($0)) }
    return months.count == 1 && numbers.count == 1 && numbers[0].count <= 2
  }

  /// What a vendor reader adds to its refusal of a date in another shape: how to read the
  /// file as a CSV of your own with the `format` its dates fit; empty when no date shape is
  /// recognized. `10/13/2026, 9:00 PM` gives `; to read dates written so, import the file as
  /// csv format "MM/dd/yyyy, h:mm a"`.
  static func formatHint(_ text: String) -> String {
    let fits = CSVDatePattern.suggestions(for: text[...])
    guard !fits.isEmpty else { return "" }
    return "; to read dates written so, import the file as csv "
      + fits.map { "format \"\($0)\"" }.joined(separator: " or ")
  }

  /// The shapes read without `format`: ISO in every variant, `yyyy/MM/dd` and `dd.MM.yyyy`
  /// (both unambiguous); day/month with slashes needs `format`.
  static let autoShapes: [CSVDatePattern] =
    CSVDatePattern.isoShapes
    + [
      "yyyy/MM/dd HH:mm:ss", "yyyy/MM/dd HH:mm", "yyyy/MM/dd", "dd.MM.yyyy HH:mm:ss",
      "dd.MM.yyyy HH:mm", "dd.MM.yyyy",
    ].map(CSVDatePattern.known)
}
