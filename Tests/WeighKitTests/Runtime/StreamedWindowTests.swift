import Foundation
import Testing

@testable import WeighKit

/// A file whose instants go back a little (the hour summer time skips, read in a zone that
/// has one) streams through `ImportStream`'s window: its entries are numbered as the plan
/// numbers them (by instant, then line), so the store, the printed text and the undo are
/// byte for byte those of the import that holds its entries (the same session with the
/// streams off), into a new store and into a log with entries.
@Suite struct StreamedWindowTests {
  typealias Files = StreamedImportTests

  /// How the log is made before the import.
  enum Log: CaseIterable {
    /// No entry: a new store.
    case empty
    /// One entry logged before the file's weights (in the journal alone).
    case loggedBefore
    /// An import of some of the file's weights (in the table's file), in the same zone.
    case imported
  }

  /// The minutes after 2015-01-01 00:00 of the hours summer time skips in 2015: 02:00–02:59
  /// on 03-08 in New York, on 03-29 in Rome (read an hour later, so the next rows' instants
  /// go back an hour).
  static let skipped = [
    (66 * 1440 + 120)..<(66 * 1440 + 180), (87 * 1440 + 120)..<(87 * 1440 + 180),
  ]

  /// Runs `scripts` one after the other in one session on the store in `directory`, with
  /// every stream on or off; returns what was printed, the store's files after each script,
  /// and how many runs the store streamed.
  static func run(
    _ scripts: [String], in directory: TemporaryStoreDirectory, streaming: Bool
  ) throws -> (printed: String, files: [[String: [UInt8]]], runs: Int) {
    let output = CapturedOutput()
    let session = try HealthOpenTests.session(directory.path, output: output)
    defer { session.close() }
    session.store.streamsRunsAfterRows = streaming
    session.store.streamsRunsIntoEmptyTables = streaming
    var files: [[String: [UInt8]]] = []
    for script in scripts {
      session.run(script: script, display: "test", directory: ".")
      files.append(Files.files(directory))
    }
    return (output.text, files, session.store.streamedRunsCommitted)
  }

  /// Random Withings files (several weights a minute around the skipped hours and at
  /// random elsewhere, a repeat, another weight at a minute already seen, a row after the
  /// clock), the skipped hours at random places in the reader's blocks of 16,384, read in
  /// UTC, Europe/Rome and America/New_York: streamed (one run), with the held import's
  /// output, files, and its undo's.
  @Test(arguments: [
    (1, Log.empty, "Europe/Rome"), (2, Log.empty, "America/New_York"), (3, Log.empty, "UTC"),
    (4, Log.loggedBefore, "Europe/Rome"), (5, Log.loggedBefore, "America/New_York"),
    (6, Log.imported, "Europe/Rome"), (7, Log.imported, "America/New_York"),
    (8, Log.imported, "UTC"), (9, Log.empty, "Europe/Rome"), (10, Log.loggedBefore, "UTC"),
  ])
  func aFileThatGoesBackAnHourStreamsAsTheHeldImportNumbersIt(
    seed: Int, log: Log, zone: String
  ) throws {
    var random = ByteCursorTests.Numbers(state: UInt64(seed))
    var rows: [(minute: Int, kilograms: Double)] = []
    // From 0 to 9 days before the year's start in minutes: the skipped hours fall anywhere
    // in the first or second block.
    var minute = -Int(random.next() % 13_000)
    let step = 6 + Int(random.next() % 10)
    while rows.count < 40_000 || minute < 90 * 1440 {
      let near = Self.skipped.contains { ($0.lowerBound - 240)..<($0.upperBound + 240) ~= minute }
      minute += near ? Int(random.next() % 3) : Int(random.next() % UInt64(step))
      rows.append((minute, 50 + Double(random.next() % 5000) / 100))
    }
    #expect(Self.skipped.allSatisfy { hour in rows.filter { hour ~= $0.minute }.count > 20 })
    var file = rows
    file.insert(rows[20_000], at: 20_001)
    file.insert((rows[30_000].minute, 7.5), at: 30_001)
    let prior = rows.filter { _ in random.next() % 5 < 2 }
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    let future = "\"2027-01-01 00:00:00\",70.00,15.10,3.10,52.40,39.80,\n"
    Files.write(LogWalkTests.withings(file) + future, named: "file.csv", in: files)
    Files.write(LogWalkTests.withings(prior), named: "prior.csv", in: files)
    let setUp: String? =
      switch log {
      case .empty: nil
      case .loggedBefore: "log 70kg at 2014-06-01 08:00"
      case .imported: "set tz \(zone)\nimport \(files.file("prior.csv"))"
      }
    let streamed = TemporaryStoreDirectory()
    let held = TemporaryStoreDirectory()
    defer { [streamed, held].forEach { $0.remove() } }
    if let setUp {
      for directory in [streamed, held] {
        let (printed, _, _) = try Self.run([setUp], in: directory, streaming: true)
        #expect(!printed.contains("error"), "\(printed)")
      }
    }
    let scripts = ["set tz \(zone)\nimport \(files.file("file.csv"))", "list last 5", "undo"]
    let one = try Self.run(scripts, in: streamed, streaming: true)
    let other = try Self.run(scripts, in: held, streaming: false)
    #expect(one.runs == 1, "\(log) \(zone)")
    #expect(other.runs == 0)
    #expect(one.printed.contains("rejected 1"), "\(one.printed)")
    #expect(one.printed.contains("undid import"), "\(one.printed)")
    #expect(one.printed == other.printed)
    #expect(one.files[0] == other.files[0], "the import's files")
    #expect(one.files[2] == other.files[2], "the undo's files")
    #expect(Store.check(.directory(streamed.path), tables: Session.storeTables).isEmpty)
  }

  /// The entries of a file that goes back an hour, as numbered: in time order, the rows at
  /// one instant by line (a row of the skipped hour comes after the earlier row of the
  /// next hour that reads as the same instant).
  @Test func theEntriesAreInTimeOrderThenByLine() throws {
    let files = TemporaryStoreDirectory()
    let store = TemporaryStoreDirectory()
    defer { [files, store].forEach { $0.remove() } }
    // Every minute of 2015-03-27 00:00 to 2015-04-15: 2015-03-29 02:30 and 03:30 in Rome are
    // one instant (01:30 UTC).
    let kilograms = { (minute: Int) in 60 + Double(minute % 97) / 10 }
    let rows = (85 * 1440..<104 * 1440).map { (minute: $0, kilograms: kilograms($0)) }
    Files.write(LogWalkTests.withings(rows), named: "file.csv", in: files)
    let (printed, _, runs) = try Self.run(
      ["set tz Europe/Rome\nimport \(files.file("file.csv"))"], in: store, streaming: true)
    #expect(runs == 1)
    #expect(printed.contains("imported \(rows.count), already present 0"), "\(printed)")
    let session = try HealthOpenTests.session(store.path)
    defer { session.close() }
    let entries = try session.entries()
    #expect(entries.map(\.id) == Array(1...rows.count))
    #expect(
      entries.indices.dropFirst().allSatisfy { entries[$0 - 1].instant <= entries[$0].instant })
    // 01:30 UTC: the row of 02:30 (the earlier line), then the row of 03:30.
    let half = Int64(1_427_592_600)  // 2015-03-29 01:30:00 UTC
    let atHalf = entries.filter { $0.instant == half }
    #expect(atHalf.count == 2)
    #expect(atHalf.map(\.kilograms) == [kilograms(87 * 1440 + 150), kilograms(87 * 1440 + 210)])
  }
}
