import Foundation
import Testing

@testable import WeighKit

/// An import of vendor rows into a log that has entries streams its new entries into the
/// store as the file is read (`ReimportCheck` with an `ImportStream` after the log's rows):
/// the store it leaves, and what it prints, are byte for byte those of the import that holds
/// its new entries (the same binary with the stream turned off, `Store.streamsRunsAfterRows`),
/// and its undo leaves the log as it was before.
@Suite struct StreamedReimportTests {
  typealias Files = StreamedImportTests

  /// How the log is made before the import.
  enum Log: CaseIterable {
    /// One entry logged before the file's weights (in the journal alone).
    case loggedBefore
    /// One entry logged after them.
    case loggedAfter
    /// An import of some of the file's weights and others (in the table's file).
    case imported
    /// That import, then an entry logged (the journal holds a change past the file: the
    /// import holds its entries, as before).
    case importedThenLogged
  }

  /// Two stores, one to stream into and one to import into held, each set up by `setUp`,
  /// and the entries they then have.
  static func twoLogs(_ setUp: String) throws -> (
    streamed: TemporaryStoreDirectory, held: TemporaryStoreDirectory, before: [Entry]
  ) {
    let streamed = TemporaryStoreDirectory()
    let held = TemporaryStoreDirectory()
    var before: [Entry] = []
    for directory in [streamed, held] {
      let (printed, _, entries, _) = try run([setUp], in: directory, streaming: true)
      #expect(!printed.contains("error"), "\(printed)")
      before = entries
    }
    return (streamed, held, before)
  }

  /// Runs `scripts` one after the other in one session on the store in `directory`, with
  /// streams after a log's rows on or off; returns what was printed, the store's files after
  /// each script, the entries at the end, and how many runs the store streamed.
  /// `scratchPieceBytes`, when given, is the store's (`Store.scratchPieceBytes`).
  static func run(
    _ scripts: [String], in directory: TemporaryStoreDirectory, streaming: Bool,
    scratchPieceBytes: Int? = nil
  ) throws -> (printed: String, files: [[String: [UInt8]]], entries: [Entry], runs: Int) {
    let output = CapturedOutput()
    let session = try HealthOpenTests.session(directory.path, output: output)
    defer { session.close() }
    session.store.streamsRunsAfterRows = streaming
    if let scratchPieceBytes { session.store.scratchPieceBytes = scratchPieceBytes }
    var files: [[String: [UInt8]]] = []
    for script in scripts {
      session.run(script: script, display: "test", directory: ".")
      files.append(Files.files(directory))
    }
    return (output.text, files, try session.entries(), session.store.streamedRunsCommitted)
  }

  /// Random files (several weights a minute, repeats, a row after the clock, a weight of
  /// another source) imported into random logs, read in UTC or in Europe/Rome, across the
  /// boundaries of the reader's blocks of 16,384: streamed when the log is in its file or in
  /// the journal alone, and in each case the same store, output and undo as held. With
  /// `gap`, the file has times in the hour summer time skips (2015-03-29 02:00–02:59 in
  /// Rome, read as 03:00–03:59: the instants then go back), which the stream numbers through
  /// its window (dst22; before, it refused them after its first blocks and the file was read
  /// again, held).
  @Test(arguments: [
    (1, Log.loggedBefore, "UTC", true), (2, Log.loggedAfter, "Europe/Rome", false),
    (3, Log.imported, "UTC", false), (4, Log.imported, "Europe/Rome", false),
    (5, Log.importedThenLogged, "Europe/Rome", false), (6, Log.loggedAfter, "UTC", true),
    (7, Log.imported, "Europe/Rome", true),
  ])
  func aStreamedImportLeavesWhatTheHeldImportLeaves(
    seed: Int, log: Log, zone: String, gap: Bool
  ) throws {
    var random = ByteCursorTests.Numbers(state: UInt64(seed))
    var rows: [(minute: Int, kilograms: Double)] = []
    var minute = 0
    // The minutes of 2015-03-29 02:00–02:59 after 2015-01-01 00:00.
    let skipped = (87 * 1440 + 120)..<(87 * 1440 + 180)
    while rows.count < 40_000 {
      // Summer time begins 2015-03-29 and ends 2015-10-25: the file spans both.
      minute += Int(random.next() % 20)
      if !gap, skipped.contains(minute) { continue }
      rows.append((minute, 50 + Double(random.next() % 5000) / 100))
    }
    let streams = log != .importedThenLogged
    var file = rows
    // A repeat in the file, one row of another weight at a minute already seen.
    file.insert(rows[20_000], at: 20_001)
    file.insert((rows[30_000].minute, 7.5), at: 30_001)
    let prior = rows.filter { _ in random.next() % 5 < 2 } + [(minute + 100, 60.0)]
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    // After the golden clock (2026-01-01): rejected.
    let future = "\"2027-01-01 00:00:00\",70.00,15.10,3.10,52.40,39.80,\n"
    Files.write(LogWalkTests.withings(file) + future, named: "file.csv", in: files)
    Files.write(LogWalkTests.withings(prior), named: "prior.csv", in: files)
    let setUp =
      switch log {
      case .loggedBefore: "log 70kg at 2014-06-01 08:00"
      case .loggedAfter: "log 70kg at 2020-06-01 08:00"
      case .imported: "set tz \(zone)\nimport \(files.file("prior.csv"))"
      case .importedThenLogged:
        "import \(files.file("prior.csv"))\nlog 70kg at 2014-06-01 08:00"
      }
    let (streamed, held, before) = try Self.twoLogs(setUp)
    defer { [streamed, held].forEach { $0.remove() } }
    let scripts = ["set tz \(zone)\nimport \(files.file("file.csv"))", "undo"]
    let one = try Self.run(scripts, in: streamed, streaming: true)
    let other = try Self.run(scripts, in: held, streaming: false)
    #expect(one.runs == (streams ? 1 : 0), "\(log)")
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

  /// After a streamed import the log is read from its file by the next command, and a second
  /// import of the same file finds every weight present.
  @Test func theLogIsReadFromItsFileAfterTheImport() throws {
    let files = TemporaryStoreDirectory()
    let store = TemporaryStoreDirectory()
    defer { [files, store].forEach { $0.remove() } }
    Files.write(Files.withings(Array(0..<40_000)), named: "up.csv", in: files)
    let path = files.file("up.csv")
    let (printed, _, entries, runs) = try Self.run(
      [
        """
        log 70kg at 2014-06-01 08:00
        import \(path)
        expect entries == 40001
        list last 1
        import \(path)
        """
      ], in: store, streaming: true)
    #expect(runs == 1)
    #expect(!printed.contains("error"), "\(printed)")
    #expect(printed.contains("#40001"), "\(printed)")
    #expect(printed.contains("imported 0, already present 40000, rejected 0"), "\(printed)")
    #expect(entries.count == 40_001)
    #expect(Store.check(.directory(store.path), tables: Session.storeTables).isEmpty)
  }

  /// A file whose new weights go back in time after blocks were streamed (weights found in
  /// the log are in order, the new ones are not: one later new weight, then earlier new
  /// ones): the stream is cut off and the file read again, with the same store as held.
  @Test func newWeightsOutOfOrderLateAreReadAgain() throws {
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    let first = (0..<20_000).map { (minute: $0 * 2, kilograms: 60.0) }
    // Odd minutes are new; at minute 36,001 (past two blocks) a weight of minute 39,999
    // (new) comes first.
    var again: [(minute: Int, kilograms: Double)] = []
    for minute in 0..<40_000 where minute != 39_999 {
      again.append((minute, 60.0))
      if minute == 36_001 { again.append((39_999, 61.0)) }
    }
    Files.write(LogWalkTests.withings(first), named: "first.csv", in: files)
    Files.write(LogWalkTests.withings(again), named: "again.csv", in: files)
    let streamed = TemporaryStoreDirectory()
    let held = TemporaryStoreDirectory()
    defer { [streamed, held].forEach { $0.remove() } }
    for directory in [streamed, held] {
      _ = try Self.run(["import \(files.file("first.csv"))"], in: directory, streaming: true)
    }
    let script = ["import \(files.file("again.csv"))"]
    let one = try Self.run(script, in: streamed, streaming: true)
    let other = try Self.run(script, in: held, streaming: false)
    #expect(one.runs == 0)
    #expect(one.printed.contains("imported 20000, already present 20000"), "\(one.printed)")
    #expect(one.printed == other.printed)
    #expect(one.files == other.files)
    #expect(streamed.bytes("entries.json.tmp") == nil)
  }
}
