import Foundation
import Testing

@testable import WeighKit

/// An import of weigh's own file into a log that has entries streams its new entries after
/// the log's rows when its numbers increase and a new row's instant is no entry's
/// (`ImportStream.take(_:numberedAfter:)`): the store it leaves, what it prints and its undo
/// are byte for byte those of the import that holds its new entries (the same binary with
/// the stream turned off, `Store.streamsRunsAfterRows`), whatever the log; where the stream
/// cannot follow the plan, the file is read again and held.
@Suite struct StreamedNumberedReimportTests {
  typealias Reimport = StreamedReimportTests

  /// A row of weigh's own file: its number, its minute after 2015-01-01 00:00 UTC, its weight.
  typealias Row = (id: Int, minute: Int, kilograms: Double)

  /// Weigh's CSV or JSON of `rows`, in the order given.
  static func weigh(_ rows: [Row], json: Bool) -> String {
    let format = ISO8601DateFormatter()
    format.timeZone = TimeZone(identifier: "UTC")!
    var text =
      json
      ? "{\"format\": \"weigh\", \"version\": 1, \"entries\": [\n"
      : WeighCSVExporter.header + "\n"
    for (index, row) in rows.enumerated() {
      let instant = format.string(
        from: Date(timeIntervalSince1970: TimeInterval(1_420_070_400 + row.minute * 60)))
      let kilograms = String(format: "%.2f", row.kilograms)
      if json {
        text +=
          (index == 0 ? "" : ",\n")
          + "{\"id\": \(row.id), \"instant\": \"\(instant)\", \"kilograms\": \(kilograms), "
          + "\"origin\": \"import\", \"source\": \"Withings\", \"note\": null, \"revision\": 1, "
          + "\"healthUUID\": null, \"pushedUUID\": null, \"pushedRevision\": null}"
      } else {
        text += "\(row.id),\(instant),\(kilograms),import,\"Withings\",,1,,,\n"
      }
    }
    return json ? text + "\n]}\n" : text
  }

  /// How the log is made before the import.
  enum Log {
    /// One entry logged before the file's weights: number 1, the file's first number.
    case loggedBefore
    /// One entry logged after them.
    case loggedAfter
    /// A weigh file of the file's first rows: some the same (present by number), some with
    /// the same number and another weight and minute (numbered after the file's), in the
    /// table's file.
    case importedHead
    /// Those, and rows of the file left out of the log, below its largest number (the run's
    /// table file merges them among the log's rows, merge24).
    case importedHeadWithGaps
    /// Those, and a row of the file under another number (the plan's second pass claims
    /// it: read again, held).
    case importedUnderOtherNumbers
    /// The head, then an entry logged (a change past the table's file: held, as before).
    case importedThenLogged
    /// Another file's rows under the numbers of the file's first 20,000 or more, at other
    /// minutes: each of those rows is numbered after the file's (more than a block of
    /// 16,384, through the scratch file, own23), the rest keep their numbers.
    case otherFileUnderItsNumbers
    /// Rows of another file under the numbers the file leaves out (it skips every other
    /// number about), at other minutes, and a few after its largest: its new rows are
    /// numbered among the log's, each merged into the log's rows by id (merge24); some of the
    /// file's rows are in the log (present by number), some numbers taken by another row
    /// (numbered after every number in use).
    case interleaved
  }

  /// Random files (numbers with gaps, several rows a minute, a row after the clock),
  /// imported into random logs, read in UTC or in Europe/Rome, across the reader's blocks of
  /// 16,384: the same store, output and undo as held, streamed where the plan allows. The
  /// rows numbered after the file's are written to the scratch file in pieces of a few KiB
  /// (`Store.scratchPieceBytes`), and read back so: rows cross its pieces.
  @Test(arguments: [
    (1, Log.loggedBefore, "UTC", false), (2, Log.loggedAfter, "Europe/Rome", true),
    (3, Log.importedHead, "UTC", false), (4, Log.importedHead, "Europe/Rome", true),
    (5, Log.importedHeadWithGaps, "UTC", true), (6, Log.importedUnderOtherNumbers, "UTC", false),
    (7, Log.importedThenLogged, "Europe/Rome", false), (8, Log.loggedAfter, "UTC", false),
    (9, Log.otherFileUnderItsNumbers, "Europe/Rome", false),
    (10, Log.otherFileUnderItsNumbers, "UTC", true), (11, Log.interleaved, "Europe/Rome", false),
    (12, Log.interleaved, "UTC", true), (13, Log.importedHeadWithGaps, "Europe/Rome", false),
    (14, Log.interleaved, "UTC", true), (15, Log.interleaved, "Europe/Rome", true),
  ])
  func aStreamedImportLeavesWhatTheHeldImportLeaves(
    seed: Int, log: Log, zone: String, json: Bool
  ) throws {
    var random = ByteCursorTests.Numbers(state: UInt64(seed))
    var rows: [Row] = []
    var (number, minute) = (0, 0)
    while rows.count < 40_000 {
      number +=
        log == .interleaved
        ? 1 + Int(random.below(2)) : 1 + Int(random.below(8) / 7) * Int(random.below(5))
      minute += Int(random.below(4))
      rows.append((number, minute, 50 + Double(random.below(5000)) / 100))
    }
    // After the golden clock (2026-01-01): rejected.
    rows.append((number + 3, 11 * 366 * 1440 + 10, 70))
    // The log's rows, from the file's first; its minutes are odd beyond the file's.
    let head = 10_000 + Int(random.below(12_000))
    var prior: [Row] = []
    for (index, row) in rows[..<head].enumerated() {
      switch random.below(3) {
      case 0: prior.append(row)
      case 1: prior.append((row.id, 2 * (minute + index) + 1, row.kilograms + 1))
      default:
        if log == .importedHeadWithGaps, index > 100 { continue }
        prior.append(row)
      }
    }
    if log == .otherFileUnderItsNumbers {
      // A weight the file's rows do not have (a tenth of a kilogram more: two decimals),
      // at minutes after the file's, under its numbers; its rows then keep theirs.
      let count = 20_000 + Int(random.below(10_000))
      prior = rows[..<count].enumerated().map { index, row in
        (row.id, 2 * (minute + index) + 1, row.kilograms + 0.1)
      }
    }
    if log == .interleaved {
      // Under the numbers the file leaves out (3 in 4 of them), and 10 after its largest;
      // a tenth of the file's rows as they are, a tenth under their numbers at other minutes.
      let places = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.id, $0) })
      prior = []
      for id in 1...(number + 10) {
        let extra = 2 * (minute + id) + 1
        guard let index = places[id] else {
          if random.below(4) > 0 || id > number { prior.append((id, extra, 60.05)) }
          continue
        }
        switch random.below(10) {
        case 0: prior.append(rows[index])
        case 1: prior.append((id, extra, rows[index].kilograms + 0.1))
        default: continue
        }
      }
    }
    if log == .importedUnderOtherNumbers {
      // A later new row's weight and minute, under a number the file leaves out.
      let gap = (1..<head).first { rows[$0].id > rows[$0 - 1].id + 1 }!
      let row = rows[head + 5_000]
      prior.insert((rows[gap - 1].id + 1, row.minute, row.kilograms), at: gap)
    }
    // A row the log does not have by number whose minute and weight an entry has (two rows
    // of one minute and weight, under two numbers: about 1 in 5,000 of a minute's pairs) may
    // claim that entry in the plan's second pass: the stream stops for it.
    let moments = Set(prior.map { "\($0.minute) \(String(format: "%.2f", $0.kilograms))" })
    let inLog = Set(prior.map { "\($0.id) \($0.minute) \(String(format: "%.2f", $0.kilograms))" })
    let mayMatch = rows.contains {
      !inLog.contains("\($0.id) \($0.minute) \(String(format: "%.2f", $0.kilograms))")
        && moments.contains("\($0.minute) \(String(format: "%.2f", $0.kilograms))")
    }
    let streams: Bool
    switch log {
    case .loggedBefore, .loggedAfter, .importedHead, .otherFileUnderItsNumbers: streams = true
    case .importedHeadWithGaps, .interleaved: streams = !mayMatch
    case .importedUnderOtherNumbers, .importedThenLogged: streams = false
    }
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    let name = json ? "file.json" : "file.csv"
    StreamedImportTests.write(Self.weigh(rows, json: json), named: name, in: files)
    StreamedImportTests.write(Self.weigh(prior, json: false), named: "prior.csv", in: files)
    let setUp =
      switch log {
      case .loggedBefore: "log 70kg at 2014-06-01 08:00"
      case .loggedAfter: "log 70kg at 2025-06-01 08:00"
      case .importedHead, .importedHeadWithGaps, .importedUnderOtherNumbers,
        .otherFileUnderItsNumbers, .interleaved:
        "set tz \(zone)\nimport \(files.file("prior.csv"))"
      case .importedThenLogged:
        "import \(files.file("prior.csv"))\nlog 70kg at 2014-06-01 08:00"
      }
    let (streamed, held, before) = try Reimport.twoLogs(setUp)
    defer { [streamed, held].forEach { $0.remove() } }
    let scripts = ["set tz \(zone)\nimport \(files.file(name))", "undo"]
    let pieceBytes = 1024 + Int(random.below(4096))
    let one = try Reimport.run(
      scripts, in: streamed, streaming: true, scratchPieceBytes: pieceBytes)
    let other = try Reimport.run(scripts, in: held, streaming: false)
    #expect(one.runs == (streams ? 1 : 0), "\(log), a row that may match: \(mayMatch)")
    #expect(other.runs == 0)
    #expect(one.printed.contains("rejected 1"), "\(one.printed)")
    #expect(one.printed.contains("undid import"), "\(one.printed)")
    #expect(one.printed == other.printed)
    #expect(one.files[0] == other.files[0], "the import's files")
    #expect(one.files[1] == other.files[1], "the undo's files")
    #expect(one.entries == before)
    #expect(other.entries == before)
    #expect(Store.check(.directory(streamed.path), tables: Session.storeTables).isEmpty)
  }

  /// Weigh's file of 20,000 rows numbered 2, 4, …, imported into a log of 20,000 numbered 1,
  /// 3, … (merge24's shape, across the reader's blocks): streamed, its undo holds the numbers
  /// as one run (own25: as runs of consecutive numbers, one a row), and the import and its
  /// undo print and leave what the held import does.
  @Test(arguments: [false, true])
  func everyOtherNumberIsOneRunOfTheUndo(json: Bool) throws {
    let count = 20_000
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    let prior = (1...count).map { (index: Int) -> Row in
      (2 * index - 1, index, 60 + Double(index % 400) / 10)
    }
    let rows = (1...count).map { (index: Int) -> Row in
      (2 * index, 40_000 + index, 70 + Double(index % 300) / 10)
    }
    let name = json ? "file.json" : "file.csv"
    StreamedImportTests.write(Self.weigh(rows, json: json), named: name, in: files)
    StreamedImportTests.write(Self.weigh(prior, json: false), named: "prior.csv", in: files)
    let (streamed, held, before) = try Reimport.twoLogs("import \(files.file("prior.csv"))")
    defer { [streamed, held].forEach { $0.remove() } }
    let scripts = ["import \(files.file(name))", "undo"]
    let output = CapturedOutput()
    var streamedFiles: [[String: [UInt8]]] = []
    do {
      let session = try HealthOpenTests.session(streamed.path, output: output)
      defer { session.close() }
      session.store.streamsRunsAfterRows = true
      session.run(script: scripts[0], display: "test", directory: ".")
      streamedFiles.append(StreamedImportTests.files(streamed))
      #expect(session.store.streamedRunsCommitted == 1)
      let removals = session.undo.last?.changes.first
      guard case .removeRun("entries", let ids)? = removals else {
        Issue.record("expected the undo to remove a run, got \(String(describing: removals))")
        return
      }
      #expect(ids.runs == [IDStepRun(2, through: 2 * count, step: 2)])
      session.run(script: scripts[1], display: "test", directory: ".")
      streamedFiles.append(StreamedImportTests.files(streamed))
      #expect(try session.entries() == before)
    }
    let other = try Reimport.run(scripts, in: held, streaming: false)
    #expect(other.runs == 0)
    #expect(output.text.contains("undid import"), "\(output.text)")
    #expect(output.text == other.printed)
    #expect(streamedFiles[0] == other.files[0], "the import's files")
    #expect(streamedFiles[1] == other.files[1], "the undo's files")
    #expect(Store.check(.directory(streamed.path), tables: Session.storeTables).isEmpty)
  }

  /// Runs `script` in a session on the store in `directory`, the journal written in pieces
  /// of 64 KiB and the scratch file in pieces of 16 KiB (more writes for a kill to fall on);
  /// returns the entries, how many runs the store streamed and how many scratch files it
  /// made.
  static func run(_ script: String, in directory: TemporaryStoreDirectory) throws -> (
    entries: [Entry], runs: Int, scratchFiles: Int
  ) {
    let session = try HealthOpenTests.session(directory.path, output: CapturedOutput())
    defer { session.close() }
    session.store.journalPieceBytes = 64 << 10
    session.store.scratchPieceBytes = 16 << 10
    session.run(script: script, display: "test", directory: ".")
    return (
      try session.entries(), session.store.streamedRunsCommitted, session.store.scratchFilesMade
    )
  }

  /// A kill at every writing call of such an import (weigh's CSV of 20,000 rows, the first
  /// numbered as the one entry logged, in the journal alone; or the first 3,000 numbered as
  /// another file's rows imported before, which go through the scratch file): the reopened
  /// store checks clean (`forEachKill`), holds the log alone or with every row of the file
  /// (an undo is the session's: `aStreamedImportLeavesWhatTheHeldImportLeaves` undoes each
  /// import), and no scratch file is left.
  ///
  /// With `merged`, the log holds the odd numbers to 5,999 (another file's rows) and the file
  /// the even ones, then 6,001 to 23,000: its first 3,000 rows are merged among the log's by
  /// number (merge24).
  @Test(arguments: [(1, false), (3_000, false), (0, true)])
  func aKillAtAnyWriteLeavesTheLogBeforeOrAfterTheImport(renumbered: Int, merged: Bool) throws {
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    let ids =
      merged
      ? Array(stride(from: 2, through: 6_000, by: 2)) + Array(6_001...23_000) : Array(1...20_000)
    let rows = ids.map { (id: $0, minute: $0, kilograms: 60 + Double($0 % 400) / 10) }
    StreamedImportTests.write(Self.weigh(rows, json: false), named: "file.csv", in: files)
    // Under the file's first numbers (or those it leaves out), a minute and a weight none of
    // its rows has.
    let prior =
      merged
      ? stride(from: 1, through: 5_999, by: 2).map {
        (id: $0, minute: 30_000 + $0, kilograms: 50.05)
      }
      : (1...renumbered).map { (id: $0, minute: 30_000 + $0, kilograms: 50.05) }
    StreamedImportTests.write(Self.weigh(prior, json: false), named: "prior.csv", in: files)
    let setUp =
      renumbered == 1 ? "log 70kg at 2014-06-01 08:00" : "import \(files.file("prior.csv"))"
    let script = "import \(files.file("file.csv"))"
    var (streamedRuns, scratchFiles) = (0, 0)
    func run(in directory: TemporaryStoreDirectory) {
      // The log is made before the kills are counted.
      WriteFaultInjector.$current.withValue(nil) { _ = try? Self.run(setUp, in: directory) }
      let ran = try? Self.run(script, in: directory)
      (streamedRuns, scratchFiles) = (ran?.runs ?? 0, ran?.scratchFiles ?? 0)
    }
    let counter = WriteFaultInjector()
    let full = TemporaryStoreDirectory()
    defer { full.remove() }
    WriteFaultInjector.$current.withValue(counter) { run(in: full) }
    #expect(streamedRuns == 1)
    #expect(scratchFiles == (renumbered == 3_000 ? 1 : 0))
    let all = try Self.run("", in: full).entries
    #expect(all.count == 20_000 + (merged ? 3_000 : renumbered))
    #expect(all.map(\.id) == Array(1...all.count), "every number kept or given once, in order")
    let before: [Entry]
    if merged {
      #expect(
        all.filter { $0.id % 2 == 0 || $0.id > 6_000 }.map(\.instant)
          == rows.map { Int64(1_420_070_400 + $0.minute * 60) },
        "the file's rows under their numbers")
      before = all.filter { $0.id % 2 == 1 && $0.id < 6_000 }
      #expect(before.allSatisfy { $0.kilograms == 50.05 })
    } else {
      #expect(
        all.suffix(renumbered).map(\.id) == Array(20_001...20_000 + renumbered),
        "the rows numbered as the log's come last, renumbered")
      #expect(
        all.suffix(renumbered).map(\.instant)
          == rows.prefix(renumbered).map { Int64(1_420_070_400 + $0.minute * 60) })
      before = Array(all.filter { $0.id <= renumbered })
    }
    #expect(before.count == (merged ? 3_000 : renumbered))
    #expect(counter.count > 10)
    var (sawBefore, sawAfter) = (false, false)
    try forEachKill(ofCalls: counter.count, { run(in: $0) }) { directory, crashAt in
      let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(!left.contains { $0.hasSuffix(StoreScratchFile.suffix) }, "crash at call \(crashAt)")
      let found = try Self.run("", in: directory).entries
      #expect(found == before || found == all, "crash at call \(crashAt): \(found.count)")
      if found == all { sawAfter = true } else { sawBefore = true }
    }
    #expect(sawBefore && sawAfter)
  }
}
