extension CommandTable {
  static let logCommands: [CommandSpec] = [
    CommandSpec(
      name: "log", group: .log, usage: ["log <weight> [at <when>] [note <string>] [force]"],
      summary: "add an entry; prints #N <date> <time> <weight>",
      example: "log 68.5kg at 07:30 note \"after run\"",
      parse: { cursor throws(Diagnostic) in try LogCommand.parse(&cursor) }),
    CommandSpec(
      name: "edit", group: .log,
      usage: ["edit #N|last [<weight>] [at <when>] [note <string>] [force]"],
      summary: "change an entry (its revision goes up by one)",
      example: "edit last 68.2kg",
      parse: { cursor throws(Diagnostic) in try EditCommand.parse(&cursor) }),
    CommandSpec(
      name: "delete", group: .log, usage: ["delete #N|last"], summary: "remove an entry",
      example: "delete #3",
      parse: { cursor throws(Diagnostic) in
        let (reference, span) = try cursor.readEntryReference()
        try cursor.expectEnd(after: "the entry")
        return DeleteCommand(reference: reference, span: span)
      }),
    CommandSpec(
      name: "undo", group: .log, usage: ["undo"],
      summary: "revert the last change made by log, edit, delete, import or sync", example: "undo",
      parse: { cursor throws(Diagnostic) in
        try cursor.expectEnd(after: "undo")
        return UndoCommand(span: cursor.span(cursor.tokens[0]))
      }),
    CommandSpec(
      name: "list", group: .log,
      usage: ["list [last <n>|today|week|month|since <when>|from <when> to <when>|<duration>]"],
      summary: "entries, oldest first, with origin and source", example: "list week",
      parse: { cursor throws(Diagnostic) in
        let range = try EntryRange.parse(&cursor)
        try cursor.expectEnd(after: "the range")
        return ListCommand(range: range)
      }),
    CommandSpec(
      name: "day", group: .log, usage: ["day [<date>]"],
      summary: "all readings of a day and the value that stands for it under set daily",
      example: "day 2026-01-03",
      parse: { cursor throws(Diagnostic) in
        let date = cursor.isAtEnd ? nil : try cursor.readDate()
        try cursor.expectEnd(after: "the date")
        return DayCommand(date: date)
      }),
  ]
}

/// `log <weight> [at <when>] [note <string>] [force]`
struct LogCommand: Executable {
  var kilograms: Double
  var weightSpan: SourceSpan
  var instant: Int64?
  var instantSpan: SourceSpan?
  var note: String?
  /// `force`: keep a weight far outside any body weight as written.
  var forced = false

  static func parse(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> LogCommand {
    let (kilograms, span) = try cursor.readWeight()
    var command = LogCommand(kilograms: kilograms, weightSpan: span)
    try readOptions(
      &cursor, instant: &command.instant, span: &command.instantSpan, note: &command.note,
      forced: &command.forced)
    try WeightRule.validate(kilograms, at: span, unit: cursor.context.unit)
    return command
  }

  /// Reads `at <when>`, `note <string>` and `force`, each at most once, in any order.
  static func readOptions(
    _ cursor: inout ArgumentCursor, instant: inout Int64?, span: inout SourceSpan?,
    note: inout String?, forced: inout Bool
  ) throws(Diagnostic) {
    while let token = cursor.peek() {
      if instant == nil, token.isWord("at") {
        _ = cursor.next()
        let (value, valueSpan) = try cursor.readInstant()
        (instant, span) = (value, valueSpan)
      } else if note == nil, token.isWord("note") {
        _ = cursor.next()
        note = try cursor.readString("a note such as \"after run\"")
      } else if !forced, token.isWord("force") {
        _ = cursor.next()
        forced = true
      } else {
        throw cursor.error(
          "expected at <when>, note <string> or force, \(cursor.got(token))", at: token)
      }
    }
  }

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    try WeightRule.checkPlausible(
      kilograms, at: weightSpan, unit: session.unit, forced: forced || session.options.force)
    let at = instant ?? session.now
    try FutureRule.check(at, at: instantSpan ?? weightSpan, in: session)
    let id = session.nextEntryID
    guard Entry.isValidNumber(id) else {
      throw Diagnostic(
        "the log has used every entry number up to \(ValueLimits.entryNumber.upperBound); no entry can be added",
        at: weightSpan)
    }
    let entry = Entry(
      id: id, instant: at, kilograms: kilograms, origin: .manual, source: "weigh",
      note: note.flatMap { $0.isEmpty ? nil : $0 })
    let warnings =
      WeightRule.warning(kilograms, at: weightSpan, unit: session.unit).map { [$0] } ?? []
    try session.commit(
      [.putEntry(entry)],
      undo: UndoStep(description: "log #\(id)", changes: [.removeEntry(id: id)]))
    var result = CommandResult(
      .entryChange(EntryChange(kind: .logged, entry: entry)), warnings: warnings)
    result.then { () throws(Diagnostic) in try session.autopushIfOn(entry, done: "logged #\(id)") }
    return result
  }
}

/// `edit #N|last [<weight>] [at <when>] [note <string>]`
struct EditCommand: Executable {
  var reference: EntryReference
  var referenceSpan: SourceSpan
  var kilograms: Double?
  var weightSpan: SourceSpan?
  var instant: Int64?
  var instantSpan: SourceSpan?
  var note: String?
  var forced = false

  static func parse(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> EditCommand {
    let (reference, span) = try cursor.readEntryReference()
    var command = EditCommand(reference: reference, referenceSpan: span)
    if let token = cursor.peek(), !token.isWord("at"), !token.isWord("note"),
      !token.isWord("force")
    {
      let (kilograms, weightSpan) = try cursor.readWeight(
        "a weight such as 68.5kg, at <when> or note <string>")
      try WeightRule.validate(kilograms, at: weightSpan, unit: cursor.context.unit)
      (command.kilograms, command.weightSpan) = (kilograms, weightSpan)
    }
    try LogCommand.readOptions(
      &cursor, instant: &command.instant, span: &command.instantSpan, note: &command.note,
      forced: &command.forced)
    if command.kilograms == nil, command.instant == nil, command.note == nil {
      throw cursor.error(
        "nothing to change; give a weight, at <when> or note <string>", at: nil)
    }
    return command
  }

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    if let kilograms, let weightSpan {
      try WeightRule.checkPlausible(
        kilograms, at: weightSpan, unit: session.unit, forced: forced || session.options.force)
    }
    let old = try session.resolve(reference, at: referenceSpan)
    var entry = old
    if let kilograms { entry.kilograms = kilograms }
    if let instant {
      try FutureRule.check(instant, at: instantSpan!, in: session)
      entry.instant = instant
    }
    if let note { entry.note = note.isEmpty ? nil : note }
    guard let revision = Entry.revision(after: entry.revision) else {
      throw Diagnostic(
        "#\(entry.id) has reached the highest revision, \(ValueLimits.revision.upperBound); delete it and log it again",
        at: referenceSpan)
    }
    entry.revision = revision
    var warnings: [Diagnostic] = []
    if let kilograms, let weightSpan,
      let warning = WeightRule.warning(kilograms, at: weightSpan, unit: session.unit)
    {
      warnings.append(warning)
    }
    try session.commit(
      [.putEntry(entry)],
      undo: UndoStep(description: "edit #\(entry.id)", changes: [.putEntry(old)]))
    var result = CommandResult(
      .entryChange(EntryChange(kind: .edited, entry: entry)), warnings: warnings)
    result.then { () throws(Diagnostic) in
      try session.autopushIfOn(entry, done: "edited #\(entry.id)")
    }
    return result
  }
}

/// `delete #N|last`
struct DeleteCommand: Executable {
  var reference: EntryReference
  var span: SourceSpan

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    let entry = try session.resolve(reference, at: span)
    var changes: [StoreChange] = [.removeEntry(id: entry.id)]
    var undo: [StoreChange] = [.putEntry(entry)]
    if let pushed = entry.pushedUUID {
      // Its sample leaves Health at the next push.
      var app = session.app
      app.pendingDeletes.append(pushed)
      changes.append(.set(.app, to: app.json))
      undo.append(.set(.app, to: session.app.json))
    }
    try session.commit(changes, undo: UndoStep(description: "delete #\(entry.id)", changes: undo))
    var result = CommandResult(.entryChange(EntryChange(kind: .deleted, entry: entry)))
    result.then { () throws(Diagnostic) in
      try session.autopushIfOn(entry, deleted: true, done: "deleted #\(entry.id)")
    }
    return result
  }
}

/// `undo`
struct UndoCommand: Executable {
  var span: SourceSpan

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    guard let step = session.undo.last else {
      if session.undo.droppedByOtherProcess {
        throw Diagnostic(
          "nothing to undo: another process changed the store since this session's last change, so undo would overwrite its changes; use edit or delete",
          at: span)
      }
      throw Diagnostic("nothing to undo in this session", at: span)
    }
    let restored = step.changes.map { change -> StoreChange in
      guard case .setDocument(DocumentName.app.rawValue, let value) = change else { return change }
      return .set(.app, to: session.app.withSyncProgress(of: AppDocument(json: value)).json)
    }
    let (changes, pushes, deletions) = try Self.keepingHealthInStep(restored, in: session)
    try session.commit(changes, undo: nil)
    session.undo.removeLast()
    var result = CommandResult.message("undid \(step.description)")
    for entry in pushes where result.failure == nil {
      result.then { () throws(Diagnostic) in
        try session.autopushIfOn(entry, done: "undid \(step.description)")
      }
    }
    for entry in deletions where result.failure == nil {
      result.then { () throws(Diagnostic) in
        try session.autopushIfOn(entry, deleted: true, done: "undid \(step.description)")
      }
    }
    return result
  }

  /// The step's changes, adjusted so that what `sync push` wrote to Health follows the log:
  /// an entry the undo removes leaves its sample for deletion at the next push; an entry it
  /// restores over a pushed one gets a higher revision, so that the next push writes it
  /// over the newer sample; an entry it brings back after its sample was deleted is pushed
  /// as new. Also returns those entries, for autopush.
  static func keepingHealthInStep(_ changes: [StoreChange], in session: Session)
    throws(Diagnostic) -> (changes: [StoreChange], pushes: [Entry], deletions: [Entry])
  {
    let changes = StoreChange.expandingRuns(changes)
    var putsEntries = false
    var removesEntries = false
    for change in changes {
      switch change {
      case .put(let row): putsEntries = putsEntries || row.table == EntryCodec.tableName
      case .remove(let table, _), .removeRun(let table, _):
        removesEntries = removesEntries || table == EntryCodec.tableName
      default: continue
      }
    }
    guard putsEntries || removesEntries else { return (changes, [], []) }
    // An undo that only removes entries (an import's) looks for the pushed ones among them
    // in a walk of the log's file, when it is not read: the log of a 1,000,000-entry import
    // read whole was 150 MB of the undo's 344 MB (undo20).
    let pushedAmongRemoved = putsEntries ? nil : try pushedEntries(removedBy: changes, in: session)
    let current = pushedAmongRemoved == nil ? try session.entries() : []
    var adjusted: [StoreChange] = []
    var (pushes, deletions): ([Entry], [Entry]) = ([], [])
    var app = session.app
    for change in changes {
      switch change {
      case .remove(let table, let id) where table == EntryCodec.tableName:
        if let found = pushedAmongRemoved {
          deletions += Self.entries(in: IDStepRun(id), of: found)
        } else if let entry = Session.find(id, in: current), entry.pushedUUID != nil {
          deletions.append(entry)
        }
        adjusted.append(change)
      case .removeRun(let table, let ids) where table == EntryCodec.tableName:
        if let found = pushedAmongRemoved {
          for run in ids.runs { deletions += Self.entries(in: run, of: found) }
        } else {
          for id in ids {
            if let entry = Session.find(id, in: current), entry.pushedUUID != nil {
              deletions.append(entry)
            }
          }
        }
        adjusted.append(change)
      case .put(let row) where row.table == EntryCodec.tableName:
        guard var restored = row.value(EntryCodec.self) else {
          adjusted.append(change)
          continue
        }
        if let now = Session.find(restored.id, in: current), let pushed = now.pushedUUID {
          restored.pushedUUID = pushed
          restored.pushedRevision = now.pushedRevision
          // At the highest revision the undo still applies; the next push then keeps
          // Health's copy, as it has the same revision.
          let newest = max(restored.revision, now.revision)
          restored.revision = Entry.revision(after: newest) ?? newest
        } else if Session.find(restored.id, in: current) == nil, let pushed = restored.pushedUUID,
          !session.app.pendingDeletes.contains(pushed)
        {
          // Its sample left Health when the deletion was pushed.
          restored.pushedUUID = nil
          restored.pushedRevision = nil
        }
        if restored.waitsForPush { pushes.append(restored) }
        adjusted.append(.putEntry(restored))
      case .setDocument(DocumentName.app.rawValue, let value):
        app = AppDocument(json: value)
        adjusted.append(change)
      default:
        adjusted.append(change)
      }
    }
    let pending = deletions.compactMap(\.pushedUUID).filter { !app.pendingDeletes.contains($0) }
    if !pending.isEmpty {
      app.pendingDeletes += pending
      adjusted.removeAll {
        if case .setDocument(DocumentName.app.rawValue, _) = $0 { true } else { false }
      }
      adjusted.append(.set(.app, to: app.json))
    }
    return (adjusted, pushes, deletions)
  }

  /// The entries pushed to Health (`pushedUUID`) among those `changes` remove, by
  /// increasing number, found by a walk of the log's file that holds only them
  /// (`Store.forEachRowInFile`); nil when the log is not only in its file (read already, or
  /// changed since): the caller then looks in the log.
  ///
  /// - Complexity: O(size of the log's file), in memory O(pushed entries among the removed).
  static func pushedEntries(removedBy changes: [StoreChange], in session: Session)
    throws(Diagnostic) -> [Entry]?
  {
    var runs: [IDStepRun] = []
    for change in changes {
      switch change {
      case .remove(EntryCodec.tableName, let id): runs.append(IDStepRun(id))
      case .removeRun(EntryCodec.tableName, let ids): runs += ids.runs
      default: continue
      }
    }
    // Sorted and apart, so that the one run an entry may lie in is found by a binary search.
    let merged = TableStorage<EntryCodec>.merged(runs)
    guard let smallest = merged.first?.lowerBound else { return [] }
    var found: [Entry] = []
    let keep = { (entry: borrowing Entry) in
      guard entry.pushedUUID != nil else { return }
      // The last run that starts at or before the entry's number.
      var (low, high) = (0, merged.count)
      while low < high {
        let middle = (low + high) / 2
        if merged[middle].lowerBound <= entry.id { low = middle + 1 } else { high = middle }
      }
      if low > 0, merged[low - 1].contains(entry.id) { found.append(copy entry) }
    }
    do throws(StoreError) {
      // Only the rows from the first removed number on (an import's: the end of the file),
      // and of those only the lines that name a pushed sample are decoded: the undo of a
      // streamed import of 100,000 rows into a log with one entry decoded every row, 478 M
      // of its 528 M instructions (imp21, callgrind); import and undo 1,236.7 M before,
      // 763.7 M after (dst22).
      if try session.store.forEachRowInFile(
        EntryCodec.self, after: smallest - 1, whoseLineHolds: "\"pushedUUID\"",
        anchor: Self.pushedKeyAnchor, keep)
      {
        return found
      }
      found = []
      return try session.store.forEachRowInFile(EntryCodec.self, keep) ? found : nil
    } catch {
      throw Session.diagnostic(for: error)
    }
  }

  /// The byte of `"pushedUUID"` searched for in the log's lines: its first `U`, which the
  /// other members of a row hold only in `"healthUUID"` (a UUID's hex digits are 0-9 and A-F).
  private static let pushedKeyAnchor = 7

  /// The entries of `found` (by increasing number) whose numbers lie in `ids`, in order.
  private static func entries(in ids: IDStepRun, of found: [Entry]) -> [Entry] {
    var low = 0
    var high = found.count
    while low < high {
      let middle = (low + high) / 2
      if found[middle].id < ids.lowerBound { low = middle + 1 } else { high = middle }
    }
    var matched: [Entry] = []
    while low < found.count, found[low].id <= ids.upperBound {
      if ids.contains(found[low].id) { matched.append(found[low]) }
      low += 1
    }
    return matched
  }
}

/// `list [range]`
struct ListCommand: Executable {
  var range: EntryRange

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    .init(.entries(try range.select(from: session.entries(), in: session)))
  }
}

/// `day [<date>]`
struct DayCommand: Executable {
  var date: CivilDate?

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    let day = date ?? session.zone.local(session.now).date
    let start = session.zone.startOfDay(day)
    let end = session.zone.startOfDay(CivilDate(daysSinceEpoch: day.daysSinceEpoch + 1))
    let readings = try session.entries()
      .filter { $0.instant >= start && $0.instant < end }
      .sorted { ($0.instant, $0.id) < ($1.instant, $1.id) }
    let value = DailyValue.days(
      of: readings.map(WeightReading.init), policy: session.settings.daily,
      zone: session.zone
    ).first?.kilograms
    return CommandResult(
      .day(
        DayReport(
          date: day, kilograms: value, policy: session.settings.daily,
          readings: value == nil ? [] : readings)))
  }
}

/// Refuses instants more than a minute after the clock (docs/language.md, "Files").
enum FutureRule {
  static func check(_ instant: Int64, at span: SourceSpan, in session: Session) throws(Diagnostic) {
    guard instant > session.now + 60 else { return }
    throw Diagnostic(
      "cannot log a weight in the future: \(session.zone.minuteText(instant)) is after the clock (\(session.zone.minuteText(session.now))); give an earlier time or move the clock",
      at: span)
  }
}

extension Session {
  /// The entry `reference` names.
  func resolve(_ reference: EntryReference, at span: SourceSpan) throws(Diagnostic) -> Entry {
    let entries = try entries()
    switch reference {
    case .number(let id):
      if let entry = Self.find(id, in: entries) { return entry }
      throw Diagnostic("no entry #\(id); list shows the entries there are", at: span)
    case .last:
      guard let newest = Self.newest(in: entries) else {
        throw Diagnostic("there are no entries, so there is no last one", at: span)
      }
      return newest
    }
  }

  /// The entry numbered `id` in `entries` (ordered by number).
  ///
  /// - Complexity: O(log n).
  static func find(_ id: Int, in entries: [Entry]) -> Entry? {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low < entries.count && entries[low].id == id ? entries[low] : nil
  }

  /// The entry `list` shows last: the newest instant, on a tie the highest number.
  static func newest(in entries: [Entry]) -> Entry? {
    entries.max { ($0.instant, $0.id) < ($1.instant, $1.id) }
  }
}
