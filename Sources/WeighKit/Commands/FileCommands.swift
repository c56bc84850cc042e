import Foundation
import HealthSim

#if canImport(Glibc)
  import Glibc
#endif

extension CommandTable {
  static let fileCommands: [CommandSpec] = [
    CommandSpec(
      name: "import", group: .files,
      usage: [
        "import <file> [as apple-health|csv|json] [unit kg|lb|st] [types <type>,…] [tz <zone>]",
        "import <file> as csv [date <column>] [time <column>] [weight <column>] [unit kg|lb|st] [format \"<layout>\"] [tz <zone>] [source <name>] [delimiter \"<char>\"] [note <column>]",
      ],
      summary:
        "import weights from a file; types also brings Apple Health's other data into Health; importing twice adds nothing",
      example: "import weights.csv",
      parse: { cursor throws(Diagnostic) in try ImportCommand.parse(&cursor) }),
    CommandSpec(
      name: "export", group: .files, usage: ["export <file> [as csv|json]"],
      summary: "export the app's entries as CSV or JSON that import reads back losslessly",
      example: "export weights.csv",
      parse: { cursor throws(Diagnostic) in try ExportCommand.parse(&cursor) }),
  ]
}

/// The kinds of data `import … types` names: weights go into the log, the others into Health.
enum ImportDataType: String, CaseIterable {
  case weight, glucose, steps, energy, exercise, workouts

  /// The Health sample type the data becomes.
  var sampleType: SampleType {
    switch self {
    case .weight: .bodyMass
    case .glucose: .bloodGlucose
    case .steps: .stepCount
    case .energy: .activeEnergyBurned
    case .exercise: .appleExerciseTime
    case .workouts: .workout
    }
  }

  /// `weight, glucose, steps, energy, exercise or workouts`
  static var listText: String {
    let names = allCases.map(\.rawValue)
    return names.dropLast().joined(separator: ", ") + " or " + names.last!
  }
}

/// `import <file> [as apple-health|csv|json] [unit kg|lb|st] [types <type>,…]`
struct ImportCommand: Executable {
  var path: String
  var pathSpan: SourceSpan
  /// The family after `as`.
  var family: ImportFamily?
  var familySpan: SourceSpan?
  /// The unit for files that do not name theirs (openScale 3.x, Fitbit).
  var unit: MassUnit?
  var unitSpan: SourceSpan?
  var types: [(type: ImportDataType, span: SourceSpan)] = []
  /// From `types` to the last type named.
  var typesSpan: SourceSpan?
  /// What `date`, `time`, `weight`, `format`, `source`, `delimiter` and `note` say: any of them
  /// reads the file as a CSV of the user's own.
  var csv = GenericCSVOptions()
  var csvSpan: SourceSpan?
  /// The zone of the file's local times (`tz`), instead of the session's.
  var zone: ZonedClock?

  static func parse(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> ImportCommand {
    let fileToken = cursor.peek()
    let path = try cursor.readPath(
      "a file name such as export.zip or weight.csv",
      extensions: ["zip", "xml", "csv", "json"])
    guard !path.isEmpty else {
      throw cursor.error("expected a file name, got an empty string", at: fileToken)
    }
    var command = ImportCommand(path: path, pathSpan: cursor.span(fileToken))
    while let token = cursor.peek() {
      if command.family == nil, token.isWord("as") {
        _ = cursor.next()
        let valueToken = cursor.peek()
        command.family = try cursor.expect(ImportFamily.self, what: "a format after as")
        command.familySpan = cursor.span(valueToken)
      } else if command.unit == nil, token.isWord("unit") {
        _ = cursor.next()
        let valueToken = cursor.peek()
        let word = try cursor.expect(
          oneOf: ["kg", "lb", "lbs", "st", "g"], what: "a mass unit after unit")
        command.unit = word == "lbs" ? .lb : MassUnit(rawValue: word)
        command.unitSpan = cursor.span(valueToken)
      } else if command.types.isEmpty, token.isWord("types") {
        let keyword = cursor.next()!
        command.types = try readTypes(&cursor)
        command.typesSpan = cursor.span(from: keyword, to: cursor.tokens[cursor.index - 1])
      } else if try command.readCSVOption(&cursor) {
        continue
      } else if ImportCommand.optionWords.contains(token.text.lowercased()), token.kind == .word {
        throw cursor.error("\(token.text.lowercased()) is given twice; keep one", at: token)
      } else {
        throw cursor.error(
          "expected as apple-health|csv|json, unit kg|lb|st, types <type>,…, tz <zone>, or for a CSV of your own date, time, weight, format, source, delimiter or note, \(cursor.got(token))",
          at: token)
      }
    }
    if let csvSpan = command.csvSpan, let family = command.family, family != .csv {
      throw Diagnostic(
        "date, time, weight, format, source, delimiter and note read a CSV of your own; write as csv, or leave them out",
        at: csvSpan)
    }
    return command
  }

  static let optionWords: Set<String> = [
    "as", "unit", "types", "date", "time", "weight", "format", "tz", "source", "delimiter",
    "note",
  ]

  /// Reads one of `date`, `time`, `weight`, `format`, `source`, `delimiter`, `note` or `tz` and its
  /// value; false when the next word is none of them or was given already. Each is offered
  /// to completion only while it may still come.
  mutating func readCSVOption(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> Bool {
    guard let token = cursor.peek() else { return false }
    func value(_ what: String) throws(Diagnostic) -> (String, SourceSpan) {
      _ = cursor.next()
      let valueToken = cursor.peek()
      let text = try cursor.readString(what)
      guard !text.isEmpty else {
        throw cursor.error("expected \(what), got an empty string", at: valueToken)
      }
      return (text, cursor.span(valueToken))
    }
    // The first of these options is where a clash with `as` is shown.
    let keywordSpan = cursor.span(token)
    if csv.date == nil, token.isWord("date") {
      csv.date = try value("a column name or number after date").0
    } else if csv.time == nil, token.isWord("time") {
      csv.time = try value("a column name or number after time").0
    } else if csv.weight == nil, token.isWord("weight") {
      csv.weight = try value("a column name or number after weight").0
    } else if csv.note == nil, token.isWord("note") {
      csv.note = try value("a column name or number after note").0
    } else if csv.source == nil, token.isWord("source") {
      csv.source = try value("a source name after source").0
    } else if csv.format == nil, token.isWord("format") {
      let (text, span) = try value("a date layout such as \"dd/MM/yyyy HH:mm\" after format")
      switch CSVDatePattern.make(text) {
      case .success(let pattern): csv.format = pattern
      case .failure(let error): throw Diagnostic("format \"\(text)\": \(error.message)", at: span)
      }
    } else if csv.delimiter == nil, token.isWord("delimiter") {
      let (text, span) = try value("a delimiter such as \";\" (quoted) or tab after delimiter")
      switch text.lowercased() {
      case "tab", "\t": csv.delimiter = 0x09
      case _ where text.utf8.count == 1 && text != "\"" && text != "\n":
        csv.delimiter = text.utf8.first
      default:
        throw Diagnostic(
          "delimiter \"\(text)\" is not one character; write delimiter \";\", delimiter \",\" or delimiter tab",
          at: span)
      }
    } else if zone == nil, token.isWord("tz") {
      let (text, span) = try value("a time zone such as Europe/Berlin after tz")
      guard let found = ZonedClock(identifier: text) else {
        throw Diagnostic(
          "unknown time zone \"\(text)\"; use an IANA name such as Europe/Berlin, America/New_York or UTC",
          at: span)
      }
      zone = found
      return true
    } else {
      return false
    }
    if csvSpan == nil { csvSpan = keywordSpan }
    return true
  }

  /// Reads `glucose,steps` (commas may be followed by a space) after `types`.
  static func readTypes(_ cursor: inout ArgumentCursor) throws(Diagnostic)
    -> [(type: ImportDataType, span: SourceSpan)]
  {
    var types: [(type: ImportDataType, span: SourceSpan)] = []
    var wantsMore = true
    while wantsMore {
      guard let token = cursor.peek(), token.kind == .word || token.kind == .string else {
        throw cursor.error(
          "expected a type such as weight or glucose after types, \(cursor.got(cursor.peek()))",
          at: cursor.peek())
      }
      _ = cursor.next()
      let utf8 = token.text.utf8
      for part in token.text.split(separator: ",") {
        var span = cursor.span(token)
        if token.kind == .word {
          span.start = token.start + utf8.distance(from: utf8.startIndex, to: part.startIndex)
          span.end = span.start + part.utf8.count
        }
        let name = part.lowercased()
        guard let type = ImportDataType(rawValue: name) else {
          var message = "unknown type \"\(part)\"; expected \(ImportDataType.listText)"
          if let guess = Suggestion.closest(
            to: name, among: ImportDataType.allCases.map(\.rawValue))
          {
            message += "; did you mean \"\(guess)\"?"
          }
          throw Diagnostic(message, at: span)
        }
        if !types.contains(where: { $0.type == type }) { types.append((type, span)) }
      }
      wantsMore = token.text.hasSuffix(",") || (cursor.peek()?.text.hasPrefix(",") ?? false)
    }
    return types
  }

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var shown = CommandResult()
    let url = URL(fileURLWithPath: session.resolvePath(path))
    try InputFile.checkReadable(url.path, shownAs: path, at: pathSpan)
    let format = csvSpan != nil ? try csvFormat(url) : try detectFormat(url)
    let zone = self.zone ?? session.zone
    if let unit, let unitSpan, !format.omitsUnit {
      throw Diagnostic(
        "\(path) is \(format.displayName), which names its units; leave out unit \(unit.rawValue)",
        at: unitSpan)
    }
    if let typesSpan, format.family != .appleHealth {
      throw Diagnostic(
        "types applies only to Apple Health exports; \(path) is \(format.displayName), which holds weights only; leave out types",
        at: typesSpan)
    }
    let healthTypes = types.map(\.type).filter { $0 != .weight }
    var result: WeightImportResult
    var healthPlan: HealthImportPlan?
    // Into a log without entries, the weights go to the store as they are read.
    var streamed: ImportStream.Outcome?
    // Into a log with entries, the weights are looked up as they are read: only new ones
    // are kept (`ReimportCheck`).
    var reimport: ReimportCheck?
    var checked: Int?
    do {
      let weightsOnly = { [csv, unit] in
        try WeightImporter.importWeights(
          from: url, format: format, zone: zone, unit: unit, csv: csv)
      }
      // With types, one pass, read on a second thread. Health's samples are saved a batch at
      // a time into the command's transaction as they are read; a file found broken fails the
      // command, which rolls them back (`Session.perform`): nothing is kept unless the whole
      // file is well-formed. The weights go to the stream or the check below as they come.
      var samples =
        healthTypes.isEmpty
        ? nil
        : HealthImportPlan(
          types: Set(healthTypes), batchSize: session.options.healthImportBatchSize)
      if !healthTypes.isEmpty {
        session.expectHealthTypes(Set(healthTypes.map(\.sampleType)))
      }
      var readOnce = false
      let read = { () throws -> WeightImportResult in
        guard !readOnce, samples != nil else { return try weightsOnly() }
        readOnce = true
        return try samples!.read(
          url,
          alsoReading: Set(healthTypes.filter { $0 != .workouts }.map(\.sampleType.identifier)),
          workouts: healthTypes.contains(.workouts), savingIn: session)
      }
      var usual: WeightImportResult?
      if let stream = ImportStream(session: session, format: format) {
        switch try stream.read(read) {
        case .streamed(let outcome): streamed = outcome
        case .usual(let read): usual = read
        case .again: break
        }
      } else if let check = ReimportCheck(session: session, format: format) {
        switch try check.read(read) {
        case .checked(let read, let present): (usual, reimport, checked) = (read, check, present)
        case .streamed(let outcome, let present):
          (streamed, reimport, checked) = (outcome, check, present)
        case .usual(let read): (usual, reimport) = (read, check)
        case .again: break
        }
      }
      // Read again (weights only: Health's samples were read once) when the stream or the
      // check stopped after it took blocks.
      result = try streamed?.result ?? usual ?? read()
      healthPlan = samples
    } catch let error as ImportError {
      var notes: [Diagnostic.Note] = []
      if let location = error.location(in: path) {
        // A line of a zipped export is not a line of the file named.
        notes.append(
          format == .appleHealthZip
            ? .init("the problem is here, in the export.xml it holds", at: location)
            : .init("the problem is here", in: location, readingFrom: url.path))
      }
      throw Diagnostic(
        "cannot import \(path): \(InputFile.shown(error.message, path: url.path, as: path)); nothing was imported\(format.genericHint(path))",
        at: pathSpan, notes: notes)
    } catch {
      throw Diagnostic(
        "cannot read \(path): \(FileProblem.describe(error)); nothing was imported", at: pathSpan,
        kind: .unreadableInput)
    }
    // A streamed import's log had no entries, or was walked beside the file: it is not read.
    // A checked re-import's log had entries, and may not be read whole.
    let existing = streamed == nil && reimport == nil ? try session.entries() : []
    let logIsEmpty = reimport == nil && existing.isEmpty
    // The plan takes the weights read (and frees them as it makes their entries).
    var plan: ImportPlan
    if let streamed {
      // Into a log with entries (`reimport` set), `checked` weights were found in it.
      plan = ImportPlan(streamed: streamed)
      plan.alreadyPresent += checked ?? 0
    } else if let reimport {
      plan = reimport.plan(&result, checked: checked, session: session)
    } else {
      plan = ImportPlan(&result, into: existing, session: session)
    }
    if plan.passesHighestNumber {
      throw Diagnostic(
        "cannot import \(path): the log would pass the highest entry number, \(ValueLimits.entryNumber.upperBound); nothing was imported",
        at: pathSpan)
    }
    try healthPlan?.finish(in: session)
    // The first of the command's notes: they are about the summary lines' counts.
    func noteFirst(_ rejection: ImportRejection?, of what: String) {
      guard let rejection else { return }
      let location = rejection.location(in: path)
      var note: Diagnostic
      if format == .appleHealthZip {
        // A line of a zipped export is not a line of the file named.
        note = Diagnostic(
          "\(what), on a line of the export.xml it holds: \(rejection.reason)", severity: .note)
        note.location = location
      } else {
        note = Diagnostic(
          "\(what): \(rejection.reason)", in: location, readingFrom: url.path, severity: .note)
      }
      shown.warn(note)
    }
    noteFirst(plan.rejections.min { $0.line < $1.line }, of: "first rejection")
    noteFirst(healthPlan?.firstRejection, of: "first rejection in Health")
    if plan.importedCount > 0, let note = unitWarning(format: format, result: result) {
      shown.warn(Diagnostic(note, at: unitSpan ?? pathSpan, severity: .warning))
    }
    // Said only when the zone was the session's: `tz <zone>` named the file's zone.
    if plan.importedCount > 0, result.zoneless, self.zone == nil {
      shown.warn(
        Diagnostic(
          "\(path) names no time zone, so its times were read in \(session.zoneName), the session's zone; if they were written in another, undo and import again with tz <zone>",
          at: pathSpan, severity: .note))
    }
    // Counted among records taken only: a repaired record rejected later was not recovered.
    let repaired = result.repairedRecords + (healthPlan?.repairedRecords ?? 0)
    if repaired > 0 {
      let count = English.counted(repaired, "record", "records")
      shown.warn(
        Diagnostic(
          "\(path): repaired \(count) with metadata written as attributes whose names hold spaces (a defect of 2015 exports); those attributes were kept as metadata",
          at: pathSpan, severity: .warning))
    }
    // An export without body mass imports nothing: say what would bring its other data
    // (real23: a real export of steps alone printed `imported 0` and nothing else), and
    // only what `types` would bring (real24: one of heart rate alone was told it would).
    if format == .appleHealthZip || format == .appleHealthXML, types.isEmpty,
      plan.importedCount == 0, plan.alreadyPresent == 0, plan.rejections.isEmpty
    {
      shown.warn(Diagnostic(try otherDataNote(url), at: pathSpan, severity: .note))
    }
    if result.firstLineWasRow {
      shown.warn(
        Diagnostic(
          "\(path) has no header: its first line holds a date and a weight in the columns named, so it was read as a row",
          at: pathSpan, severity: .note))
    }
    if let note = result.weightColumnNote {
      shown.warn(Diagnostic("\(path): \(note)", at: pathSpan, severity: .note))
    }
    if let note = result.dateColumnNote {
      shown.warn(Diagnostic("\(path): \(note)", at: pathSpan, severity: .note))
    }
    if let first = result.firstDecimalComma {
      let count = English.counted(result.decimalCommaRows, "weight", "weights")
      let decimal = first.replacingOccurrences(of: ",", with: ".")
      shown.warn(
        Diagnostic(
          "\(path): read \(count) written with a decimal comma (\(first) as \(decimal))",
          at: pathSpan, severity: .note))
    }
    if plan.importedCount > 0, let first = result.firstNearEpoch {
      let what =
        result.nearEpochRows == 1
        ? "line \(first.line) is dated '\(first.date)'"
        : "\(result.nearEpochRows) rows (first: line \(first.line), '\(first.date)') are dated"
      shown.warn(
        Diagnostic(
          "\(path): \(what) within 15 hours of 1970-01-01 00:00 UTC, the time 0 that apps write for a date they do not have; imported as written: delete what is no weighing",
          at: pathSpan, severity: .warning))
    }
    if plan.importedCount > 0, let note = result.sourceNote {
      shown.warn(Diagnostic("\(path): \(note)", at: pathSpan, severity: .note))
    }
    if result.headerUnwrapped {
      shown.warn(
        Diagnostic(
          "\(path): its header line is one quoted field holding the columns (quoted again by a script or spreadsheet); read the columns inside it",
          at: pathSpan, severity: .note))
    }
    // Settings come along into an empty store only: a store in use keeps its own.
    var settingsChanges: (apply: [StoreChange], undo: [StoreChange]) = ([], [])
    if let imported = result.settings, imported.applied(to: session.settings) != session.settings {
      if logIsEmpty {
        settingsChanges = (
          [.set(.settings, to: imported.applied(to: session.settings).json)],
          [.set(.settings, to: session.settings.json)]
        )
      } else {
        shown.warn(
          Diagnostic(
            "kept this store's settings: it already has entries, so the settings of \(path) (\(imported.summary)) were not applied",
            severity: .note))
      }
    }
    let importedCount = plan.importedCount
    if importedCount > 0 || !settingsChanges.apply.isEmpty {
      let count = English.counted(importedCount, "entry", "entries")
      let description = "import \(path) (\(count))"
      let undo =
        plan.streamedIDs.map {
          UndoStep(description: description, removingRuns: $0, then: settingsChanges.undo)
        }
        ?? UndoStep(
          description: description, removingEntries: plan.entries.lazy.map(\.id),
          then: settingsChanges.undo)
      let links = plan.streamedLinks || plan.entries.contains(where: { $0.healthUUID != nil })
      // The puts share the plan's array, which a log without entries then takes as its rows:
      // the entries are held once while the store commits them. A streamed import's change
      // holds none.
      var changes = plan.streamedChange.map { [$0] } ?? StoreChange.putEntries(plan.entries)
      plan.entries = []
      changes += settingsChanges.apply
      if links {
        // Links from a file may name any sample, past or future: sync looks them all up.
        var app = session.app
        app.linkedThrough = AppDocument.linksAnywhere
        changes.append(.set(.app, to: app.json))
      }
      try session.commit(changes, undo: undo)
    } else if healthPlan?.hasNewSamples ?? false {
      try session.commit([], undo: nil)
    }
    let line =
      "imported \(importedCount), already present \(plan.alreadyPresent), rejected \(plan.rejections.count)"
    shown.say(line)
    if let imported = result.settings, !settingsChanges.apply.isEmpty {
      shown.say("settings restored: \(imported.summary)")
    }
    if let healthPlan { shown.say(healthPlan.summary) }
    return shown
  }

  /// The format of a file read with CSV options: a CSV of your own, but Fitbit's account
  /// export when it is one, whose Body section its reader finds (`format` applies to its
  /// dates; the column options cannot read its sections, so they are refused).
  private func csvFormat(_ url: URL) throws(Diagnostic) -> ImportFormat {
    guard (try? ImportFormat.detect(url: url)) == .fitbitCSV else { return .genericCSV }
    let others: [(String, Bool)] = [
      ("date", csv.date != nil), ("time", csv.time != nil), ("weight", csv.weight != nil),
      ("source", csv.source != nil), ("delimiter", csv.delimiter != nil),
      ("note", csv.note != nil),
    ]
    let given = others.filter(\.1).map(\.0)
    guard given.isEmpty else {
      throw Diagnostic(
        "\(path) is \(ImportFormat.fitbitCSV.displayName), whose Body section is read as it is; leave out \(given.joined(separator: ", ")) (format and unit apply)",
        at: csvSpan ?? pathSpan)
    }
    return .fitbitCSV
  }

  /// The format of the file, checked against `as`.
  private func detectFormat(_ url: URL) throws(Diagnostic) -> ImportFormat {
    let detected: ImportFormat?
    do {
      detected = try ImportFormat.detect(url: url)
    } catch {
      throw Diagnostic(
        "cannot read \(path): \(FileProblem.describe(error))", at: pathSpan, kind: .unreadableInput)
    }
    guard let format = detected else {
      var head = Data()
      if let handle = try? FileHandle(forReadingFrom: url) {
        head = (try? handle.read(upToCount: 4096)) ?? Data()
        try? handle.close()
      }
      if ImportFormat.isHealthCDA(firstBytes: Array(head)) {
        throw Diagnostic(
          "\(path) is the clinical-document copy (HL7 CDA) that Apple's Health export holds beside export.xml, which weigh does not read; import export.xml from the same folder, or the whole export.zip",
          at: pathSpan)
      }
      let expected: String
      switch family {
      case .appleHealth: expected = "an Apple Health export.zip or export.xml"
      case .csv:
        expected =
          "a Withings, openScale, Renpho, Google Fit, Samsung Health, Garmin, Libra, MyFitnessPal or Fitbit account CSV, or weigh's own"
      case .json: expected = "a Fitbit weight JSON or weigh's own JSON"
      case nil:
        expected =
          "an Apple Health export, a Withings, openScale, Renpho, Google Fit, Samsung Health, Garmin, Libra, MyFitnessPal or Fitbit account CSV, a Fitbit weight JSON or weigh's own CSV or JSON"
      }
      let hint =
        family == .appleHealth || family == .json
        ? ""
        : "; for a CSV of your own, name its columns (by name, or by number from 1 when it has no header): import \(path) as csv date <column> weight <column> unit kg|lb|st"
      throw Diagnostic(
        "cannot tell the format of \(path); expected \(expected)\(hint)", at: familySpan ?? pathSpan
      )
    }
    if let family, let familySpan, family != format.family {
      throw Diagnostic(
        "\(path) is \(format.family.rawValue) (\(format.displayName)), not \(family.rawValue); write as \(format.family.rawValue) or leave out as",
        at: familySpan)
    }
    return format
  }

  /// The warning for a file read in an assumed unit, naming how to say the right one.
  private func unitWarning(format: ImportFormat, result: WeightImportResult) -> String? {
    guard result.unitNote != nil, unit == nil else { return nil }
    switch format {
    case .fitbitJSON:
      return
        "\(path): Fitbit weight files do not name their unit, so weights were read as lb (Fitbit's export unit); if they were kg, undo and import again with unit kg"
    default:
      return
        "\(path): openScale 3.x files do not name their unit, so WEIGHT was read as kg (openScale's default); if it was lb, undo and import again with unit lb"
    }
  }

  /// The note for an export that holds no body mass: the kinds of its other data that
  /// `types` reads, found by reading the file again (only then), or that it holds none.
  private func otherDataNote(_ url: URL) throws(Diagnostic) -> String {
    let kinds = ImportDataType.allCases.filter { $0 != .weight }
    let held: Set<String>
    do {
      held = try AppleHealthWeightImporter.typesHeld(
        in: url, among: Set(kinds.filter { $0 != .workouts }.map(\.sampleType.identifier)),
        workouts: true)
    } catch {
      // The file was read whole a moment ago; read now, it may have changed since.
      throw Diagnostic(
        "cannot read \(path) again: \(FileProblem.describe(error))", at: pathSpan,
        kind: .unreadableInput)
    }
    let found = kinds.filter { held.contains($0.sampleType.identifier) }.map(\.rawValue)
    guard let last = found.last else {
      let all = kinds.map(\.rawValue)
      return
        "\(path) holds no body-mass records, nor any other data that types reads (\(all.joined(separator: ", "))): weigh has nothing to take from it"
    }
    let named = found.count == 1 ? last : found.dropLast().joined(separator: ", ") + " and " + last
    return
      "\(path) holds no body-mass records; its \(named) come into Health with types \(found.joined(separator: ","))"
  }
}

/// What an import adds: new entries, and the counts for its report.
struct ImportPlan {
  /// The new entries, ordered by number.
  var entries: [Entry] = []
  /// Weights the log already has, and repeats within the file.
  var alreadyPresent = 0
  /// Rows the importer did not take, and weights after the clock.
  var rejections: [ImportRejection]
  /// Whether numbering the new entries would pass ``ValueLimits/entryNumber`` (then they
  /// are left unnumbered and nothing may be imported).
  var passesHighestNumber = false
  /// For an import streamed into the store (`ImportStream`): the change that puts its
  /// entries, which are not held, and their numbers.
  var streamedChange: StoreChange?
  var streamedIDs: IDRuns?
  var streamedCount = 0
  /// Whether a streamed entry links a Health sample (weigh's own files).
  var streamedLinks = false

  /// How many entries the import adds.
  var importedCount: Int { streamedIDs == nil ? entries.count : streamedCount }

  /// The plan of an import into a log without entries whose entries were made, numbered
  /// and (unless few) streamed into the store as the file was read (`ImportStream`).
  init(streamed: ImportStream.Outcome) {
    rejections = streamed.result.rejections + streamed.rejections
    alreadyPresent = streamed.result.duplicatesInFile
    streamedLinks = streamed.links
    if let change = streamed.change, case .putRun(let run) = change {
      streamedChange = change
      streamedIDs = run.streamedIDs
      streamedCount = run.count
    } else {
      entries = streamed.entries
    }
  }

  /// Decides which weights of `result` are new to `existing`.
  ///
  /// A weight is already present when an entry of any origin has the same source and a
  /// weight within 1e-9 kg, and the same moment: for a file whose times name no zone, the
  /// same wall-clock time as written in the file (`fileTime`), whatever zone either import
  /// was made in; otherwise, and for entries that have no `fileTime` (older stores, other
  /// origins), the same instant. Each entry accounts for one weight. New entries from
  /// weigh's own files keep their number when no entry has it; every other new entry gets
  /// a new number after every number in use (and never below the session's next number),
  /// in time order.
  ///
  /// - Complexity: O((n + m) log(n + m)) for n existing entries and m weights.
  init(_ result: inout WeightImportResult, into existing: [Entry], session: Session) {
    var claims = PresenceClaims(existing)
    self.init(&result, claiming: &claims, session: session)
  }

  /// Decides as ``init(_:into:session:)`` does, the log's entries looked up in `claims`.
  /// `checked` is the number of weights already found in the log as the file was read
  /// (`ReimportCheck`), which are not in `result`: every weight of `result` was then checked
  /// too, found new, and is not looked up again (an entry once claimed stays claimed, so
  /// a second look-up could not find it). With `lookingUpTheRest` (weigh's own files), the
  /// check claimed only by number (the first pass): the weights of `result` are looked up
  /// here, in the second pass.
  init<Log: ImportPlanLog>(
    _ result: inout WeightImportResult, claiming claims: inout Log,
    checked: Int? = nil, lookingUpTheRest: Bool = false, session: Session
  ) {
    rejections = result.rejections
    alreadyPresent = result.duplicatesInFile + (checked ?? 0)
    let lookUp = (checked == nil || lookingUpTheRest) && claims.entryCount > 0
    // Each entry accounts for one weight of the file, so two equal entries of weigh's own
    // file (the same weight logged twice in a minute) both come back, and only once. An
    // entry of weigh's file first claims the entry with its own number.
    var read = result.read
    result.read = ImportedWeights()  // the plan holds the only reference: blocks are freed
    var claimed = Array(repeating: false, count: read.count)
    if lookUp, checked == nil {
      for (position, weight) in read.enumerated() {
        guard let id = weight.number else { continue }
        claimed[position] = claims.claim(weight, id: id)
      }
    }
    // More new entries than entry numbers cannot be numbered (and `sortByTime` counts them
    // in 32 bits).
    guard read.count <= ValueLimits.entryNumber.upperBound else {
      passesHighestNumber = true
      return
    }
    // The new entries in file order, made as each block of weights is read and then freed,
    // so the weights and the entries are not both held whole; `lines` sorts them below.
    let latest = session.now + 60
    var lines: [UInt32] = []
    lines.reserveCapacity(read.count)
    entries.reserveCapacity(read.count)
    var position = 0
    for index in read.blocks.indices {
      defer { Self.returnFreedMemory(afterBlock: index, of: read.blocks.count) }
      // Each weight read where it lies in its block: a weight taken out of it was copied
      // whole and destroyed (an outlined copy and destroy, retaining and releasing its
      // strings: about 100 instructions a weight, callgrind, 100,000 Fitbit logs, wfit16).
      read.takeBlock(index).withUnsafeBufferPointer { block in
        for at in block.indices {
          defer { position += 1 }
          let weight = block.baseAddress.unsafelyUnwrapped + at
          // Into an empty log (a first import) nothing is looked up, nor the weight copied.
          if claimed[position] || (lookUp && claims.claim(weight.pointee, id: nil)) {
            alreadyPresent += 1
            continue
          }
          guard weight.pointee.instant <= latest else {
            rejections.append(
              .afterTheClock(
                line: weight.pointee.line, instant: weight.pointee.instant, now: session.now,
                zone: session.zone))
            continue
          }
          // A weight of weigh's file keeps its entry, numbered as written when the number
          // is an entry number (else 0: numbered below); others are numbered below.
          if let entry = weight.pointee.entry {
            entries.append(entry)
          } else {
            entries.append(
              Entry(
                id: 0, instant: weight.pointee.instant, kilograms: weight.pointee.kilograms,
                origin: .import, source: weight.pointee.source, note: weight.pointee.note,
                fileTime: weight.pointee.fileTime))
          }
          // Past 2^32 - 1 lines, ties are broken by file order alone (the sort's last key).
          lines.append(UInt32(clamping: weight.pointee.line))
        }
      }
    }
    claimed = []
    Self.sortByTime(&entries, lines: &lines)
    // The numbers in use, made only when a weight of weigh's own file may keep its number.
    var usedIDs: NumbersInUse?
    var largestUsed = claims.largestID
    var unnumbered = 0
    for index in entries.indices {
      let id = entries[index].id
      guard id != 0 else {
        unnumbered += 1
        continue
      }
      if usedIDs == nil { usedIDs = claims.numbersInUse(keeping: entries) }
      if (1...Self.largestKeptID).contains(id), usedIDs!.insert(id) {
        largestUsed = max(largestUsed, id)
        continue
      }
      entries[index].id = 0
      unnumbered += 1
    }
    // New numbers come after every number in use, kept ones included, as log's would.
    let next = max(session.nextEntryID, largestUsed + 1)
    guard unnumbered == 0 || next <= ValueLimits.entryNumber.upperBound - (unnumbered - 1) else {
      passesHighestNumber = true
      return
    }
    var number = next
    for index in entries.indices where entries[index].id == 0 {
      entries[index].id = number
      number += 1
    }
    // Numbered in time order, the entries are in number order already unless some kept
    // the number of weigh's file.
    if !entries.indices.dropFirst().allSatisfy({ entries[$0 - 1].id < entries[$0].id }) {
      entries.sort { $0.id < $1.id }
    }
  }

  /// Gives the pages of the weights freed so far back to the system, every 8th block
  /// (128 Ki weights, 8 MiB) and after the last: the allocator keeps freed blocks of this
  /// size in its heap, where they would still count in the process's memory while the
  /// entries made from them are added (a million-row import held both: 64 MB more at its
  /// peak).
  private static func returnFreedMemory(afterBlock index: Int, of count: Int) {
    guard index % 8 == 7 || index == count - 1 else { return }
    FreedMemory.giveBack()
  }

  /// Sorts `entries` by instant, then by the line each was read from (`lines`, emptied),
  /// then by file order: through positions (32 bits each: the caller keeps the count within
  /// entry numbers), so that no second copy of the entries is made.
  static func sortByTime(_ entries: inout [Entry], lines: inout [UInt32]) {
    // A file in time order (most exports) is in place already: one pass says so, where the
    // sort copied two entries a comparison (wstore10).
    var inOrder = true
    for index in entries.indices.dropFirst() {
      let (before, after) = (entries[index - 1].instant, entries[index].instant)
      if before > after || (before == after && lines[index - 1] > lines[index]) {
        inOrder = false
        break
      }
    }
    if inOrder {
      lines = []
      return
    }
    var order = (0..<UInt32(truncatingIfNeeded: entries.count)).map { $0 }
    order.sort {
      let (a, b) = (entries[Int(truncatingIfNeeded: $0)], entries[Int(truncatingIfNeeded: $1)])
      return (a.instant, lines[Int(truncatingIfNeeded: $0)], $0) < (
        b.instant, lines[Int(truncatingIfNeeded: $1)], $1
      )
    }
    lines = []
    // Moves each entry to its place along the cycles of the permutation; `order[k] == k`
    // marks a place filled.
    for start in order.indices where Int(truncatingIfNeeded: order[start]) != start {
      let first = entries[start]
      var place = start
      while true {
        let from = Int(truncatingIfNeeded: order[place])
        order[place] = UInt32(truncatingIfNeeded: place)
        if from == start {
          entries[place] = first
          break
        }
        entries[place] = entries[from]
        place = from
      }
    }
  }

  /// Larger numbers from a file are replaced, so numbering stays far from overflow.
  static let largestKeptID = ValueLimits.entryNumber.upperBound

}

/// The log's entries a re-import may find its weights in, and which of them are claimed.
///
/// A weight is already present when an unclaimed entry of any origin has the same source
/// and a weight within 1e-9 kg, and the same moment: for a file whose times name no zone,
/// the same wall-clock time as written in the file (`fileTime`), whatever zone either
/// import was made in; otherwise, and for entries that have no `fileTime` (older stores,
/// other origins), the same instant. Each entry accounts for one weight, claimed by the
/// first weight in file order that matches it: so the answers are the same whether the
/// weights are checked all at once or a block at a time as the file is read.
struct PresenceClaims<Log: PresenceLog>: ImportPlanLog {
  /// The log's entries, ordered by number.
  let log: Log
  // Entries by instant (those a weight of any file may match) and by wall-clock time, as
  // positions in `log`; `used` marks the positions claimed.
  private let byInstant: PresenceIndex<Log>
  private let byFileTime: PresenceIndex<Log>
  private var used: [Bool]

  init(_ log: Log) {
    self.log = log
    byInstant = PresenceIndex(log, by: .instant)
    byFileTime = PresenceIndex(log, by: .fileTime)
    used = Array(repeating: false, count: log.count)
  }

  /// Claims an unused entry that matches `weight` (with number `id`, when given), by the
  /// rule above; false when none does.
  mutating func claim(_ weight: borrowing ImportedWeight, id: Int? = nil) -> Bool {
    // Into an empty log (a first import) nothing is looked up.
    if log.count == 0 { return false }
    let (source, kilograms, fileTime) = (weight.source, weight.kilograms, weight.fileTime)
    var found: Int?
    if let fileTime {
      found = byFileTime.first(fileTime) { position in
        !used[position] && log.matches(at: position, source: source, kilograms: kilograms)
      }
    }
    if found == nil {
      found = byInstant.first(weight.instant) { position in
        !used[position] && log.matches(at: position, source: source, kilograms: kilograms)
          && (id == nil || log.id(at: position) == id)
          && (fileTime == nil || log.fileTime(at: position) == nil)
      }
    }
    guard let found else { return false }
    used[found] = true
    return true
  }

  /// Marks the entry at `position` claimed (by a look-up made before this one was held:
  /// `NumberedLogWalk.markClaims`).
  mutating func markClaimed(at position: Int) { used[position] = true }

  var entryCount: Int { log.count }
  var largestID: Int { log.largestID }
  func numbersInUse(keeping entries: [Entry]) -> NumbersInUse {
    NumbersInUse(log, keeping: entries)
  }
}

/// The entry numbers in use while an import keeps the numbers of weigh's own file: one bit
/// per number up to the largest (125 KB for a million numbers from 1), or a set when the
/// numbers are too sparse for that (a `Set<Int>` of a million took about 17 MB).
struct NumbersInUse {
  private var bits: [UInt64] = []
  private var set: Set<Int>?

  /// The numbers of `existing`; `entries`' numbers in 1...2^31 - 1 may be inserted later.
  init<Log: PresenceLog>(_ existing: Log, keeping entries: [Entry]) {
    self.init(largest: existing.largestID, count: existing.count, keeping: entries)
    for position in 0..<existing.count { _ = insert(existing.id(at: position)) }
  }

  /// The numbers `numbers` of a log of `count` entries whose largest number is `largest`:
  /// those of its numbers that will be asked for (`NumberedLogWalk`); `entries`' numbers in
  /// 1...2^31 - 1 may be inserted later. Held as the whole log's numbers would be (bits or
  /// a set), whose answers these are for the numbers asked.
  init(largest: Int, count: Int, holding numbers: [Int], keeping entries: [Entry]) {
    self.init(largest: largest, count: count, keeping: entries)
    for number in numbers { _ = insert(number) }
  }

  private init(largest existingLargest: Int, count: Int, keeping entries: [Entry]) {
    var largest = existingLargest
    for entry in entries where entry.id <= ValueLimits.entryNumber.upperBound {
      largest = max(largest, entry.id)
    }
    if largest <= 8 * (count + entries.count) + 4096 {
      bits = Array(repeating: 0, count: largest / 64 + 1)
    } else {
      set = []
    }
  }

  /// Adds `number` (at least 0, at most the largest number given to `init`); false when it
  /// was in already.
  mutating func insert(_ number: Int) -> Bool {
    if set != nil { return set!.insert(number).inserted }
    let word = number / 64
    let bit = (1 as UInt64) << UInt64(truncatingIfNeeded: number % 64)
    guard bits[word] & bit == 0 else { return false }
    bits[word] |= bit
    return true
  }
}

/// The positions of entries by a moment of theirs (the instant, or the file's wall-clock
/// time), in an open-addressing table of 4 bytes a slot kept at most half full: the look-up
/// of a re-import. A dictionary from source and moment to an array of entries held a
/// 24-byte key and an array of its own per entry (a re-import of a million rows peaked at
/// 542 MiB with it). Entries with one moment are met in the order they were added, since
/// linear probing never moves an entry and places a later one further along.
///
/// A probe reads the moment from the entry itself: a copy of every entry's moment (8 bytes
/// an entry, for each of the two indexes: 31 MiB at 2,000,000 entries) was held beside the
/// log the entries are in.
struct PresenceIndex<Log: PresenceLog> {
  /// Position + 1 in the entries (0: empty).
  private var slots: [UInt32] = []
  /// The entries indexed (the log's own array, shared, not copied).
  private let log: Log
  private let kind: Moment
  private var mask = 0

  /// Indexes every entry of `log` that has the moment `kind`.
  init(_ log: Log, by kind: Moment) {
    self.log = log
    self.kind = kind
    var count = 0
    for position in 0..<log.count where Self.moment(of: log, position, kind) != nil {
      count += 1
    }
    guard count > 0, UInt32(exactly: log.count) != nil else { return }
    var size = 1024
    while size < count * 2 { size *= 2 }
    slots = Array(repeating: 0, count: size)
    mask = size - 1
    for position in 0..<log.count {
      guard let value = Self.moment(of: log, position, kind) else { continue }
      var slot = Self.slot(value, mask: mask)
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = UInt32(truncatingIfNeeded: position + 1)
    }
  }

  // A field read in place: through a closure each probe copied the entry (its source and
  // box retained and released), +25 % CPU on a million-row re-import.
  @inline(__always)
  private static func moment(of log: Log, _ position: Int, _ kind: Moment) -> Int64? {
    switch kind {
    case .instant: log.instant(at: position)
    case .fileTime: log.fileTime(at: position)
    }
  }

  private static func slot(_ moment: Int64, mask: Int) -> Int {
    var x = UInt64(bitPattern: moment) &* 0x9E37_79B9_7F4A_7C15
    x ^= x >> 29
    return Int(truncatingIfNeeded: x) & mask
  }

  /// The first position, in the order the entries were given, whose moment is `moment`
  /// and that `matches` accepts; nil when none.
  func first(_ moment: Int64, where matches: (Int) -> Bool) -> Int? {
    guard !slots.isEmpty else { return nil }
    var slot = Self.slot(moment, mask: mask)
    while slots[slot] != 0 {
      let position = Int(slots[slot]) - 1  // checked: UInt32 to Int widens
      if Self.moment(of: log, position, kind) == moment, matches(position) { return position }
      slot = (slot + 1) & mask
    }
    return nil
  }
}

/// Which moment of an entry a `PresenceIndex` indexes.
enum PresenceMoment {
  case instant, fileTime
}

extension PresenceIndex {
  typealias Moment = PresenceMoment
}

extension ImportFormat {
  /// `a Withings weight.csv`, for messages.
  var displayName: String {
    switch self {
    case .appleHealthZip: "an Apple Health export.zip"
    case .appleHealthXML: "an Apple Health export.xml"
    case .withingsCSV: "a Withings weight.csv"
    case .openScaleCSV: "an openScale CSV"
    case .fitbitJSON: "a Fitbit weight JSON"
    case .weighCSV: "weigh's own CSV"
    case .weighJSON: "weigh's own JSON"
    case .renphoCSV: "a Renpho CSV"
    case .googleFitCSV: "a Google Fit daily metrics CSV"
    case .samsungHealthCSV: "a Samsung Health weight CSV"
    case .garminCSV: "a Garmin Connect weight CSV"
    case .libraCSV: "a Libra export"
    case .myFitnessPalCSV: "a MyFitnessPal Date,Body Fat %,Weight CSV"
    case .fitbitCSV: "a Fitbit account CSV"
    case .genericCSV: "a CSV of your own"
    }
  }

  /// Whether the format leaves its unit unsaid, so `import … unit` applies.
  var omitsUnit: Bool {
    [.openScaleCSV, .fitbitJSON, .myFitnessPalCSV, .fitbitCSV, .genericCSV].contains(self)
  }

  /// For a vendor CSV that cannot be read as its vendor's: how to read it as the user's own.
  func genericHint(_ path: String) -> String {
    // Libra and Samsung Health files start with lines before the header, which a CSV of
    // your own cannot have; MyFitnessPal's one missing piece is the unit.
    let excluded: [ImportFormat] = [
      .genericCSV, .weighCSV, .myFitnessPalCSV, .libraCSV, .samsungHealthCSV, .fitbitCSV,
    ]
    guard family == .csv, !excluded.contains(self) else { return "" }
    return
      "; to read it as a CSV of your own instead, name its columns: import \(path) as csv date <column> weight <column> unit kg|lb|st"
  }
}

/// `export <file> [as csv|json]`
struct ExportCommand: Executable {
  var path: String
  var pathSpan: SourceSpan
  var format: WeighExportFormat

  static func parse(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> ExportCommand {
    let fileToken = cursor.peek()
    let path = try cursor.readPath(
      "a file name such as weights.csv or weights.json", extensions: ["csv", "json"])
    guard !path.isEmpty else {
      throw cursor.error("expected a file name, got an empty string", at: fileToken)
    }
    var format: WeighExportFormat?
    if cursor.take("as") {
      format = WeighExportFormat(
        rawValue: try cursor.expect(oneOf: ["csv", "json"], what: "a format after as"))
    }
    try cursor.expectEnd(after: "the file and format")
    if format == nil {
      let lowered = path.lowercased()
      if lowered.hasSuffix(".csv") { format = .csv }
      if lowered.hasSuffix(".json") { format = .json }
    }
    guard let format else {
      if path == "-" {
        throw cursor.error(
          "- writes to standard output, which has no name to tell the format by; add as csv or as json",
          at: fileToken)
      }
      throw cursor.error(
        "cannot tell the format of \(path) from its name; name it .csv or .json, or add as csv or as json",
        at: fileToken)
    }
    return ExportCommand(path: path, pathSpan: cursor.span(fileToken), format: format)
  }

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    let entries = try session.entries()
    let bytes = Array(
      WeighExporter.text(entries, as: format, settings: ExportedSettings(session.settings)).utf8)
    let outcome = try session.writeOutputFile(path, at: pathSpan) { write in try write(bytes) }
    // On stdout the file is the output; a report line would spoil it.
    guard path != "-" else { return result }
    result.say(
      "exported \(English.counted(entries.count, "entry", "entries")) to \(path)\(outcome.note)"
    )
    return result
  }
}

/// Checks on a file a command reads.
enum InputFile {
  /// Fails with exit status 66 unless `path` is a readable file.
  static func checkReadable(_ path: String, shownAs shown: String, at span: SourceSpan)
    throws(Diagnostic)
  {
    // A C path ends at the first NUL: "a\0b" would silently name "a".
    guard !path.utf8.contains(0) else {
      throw Diagnostic(
        "cannot read \(shown): the file name contains a NUL character; remove it", at: span,
        kind: .unreadableInput)
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw Diagnostic(
        "cannot read \(shown): no such file; check the path (relative to the script's folder; in the REPL and -e, to the working folder)",
        at: span, kind: .unreadableInput)
    }
    if isDirectory.boolValue {
      throw Diagnostic(
        "cannot read \(shown): it is a folder; give a file in it", at: span, kind: .unreadableInput)
    }
    // A pipe would block until something writes to it, and is read only once; an import
    // reads its file more than once (the format first).
    if let kind = specialKind(of: path) {
      throw Diagnostic(
        "cannot read \(shown): it is \(kind), not a regular file; save what it holds to a file "
          + "and import that", at: span, kind: .unreadableInput)
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw Diagnostic(
        "cannot read \(shown): permission denied; make the file readable", at: span,
        kind: .unreadableInput)
    }
  }

  /// What `path` is when it is neither a regular file nor a folder (`a pipe`), found without
  /// opening it; nil otherwise.
  static func specialKind(of path: String) -> String? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFREG, S_IFDIR: return nil
    case S_IFIFO: return "a pipe"
    case S_IFCHR, S_IFBLK: return "a device"
    case S_IFSOCK: return "a socket"
    default: return "a special file"
    }
  }

  /// `message` with the resolved `path` replaced by the name the user wrote.
  static func shown(_ message: String, path: String, as shown: String) -> String {
    message.split(separator: path, omittingEmptySubsequences: false).joined(separator: shown)
  }
}
