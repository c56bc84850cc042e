import Foundation
import Testing

@testable import WeighKit

/// A re-import of vendor rows walks the log beside the file (`LogWalk`), holding only the
/// entries near each block's moments: its plans are those of the look-up of the whole log,
/// and where the log or the file is out of the walk's case, the whole log is looked up.
@Suite struct LogWalkTests {
  typealias Files = StreamedImportTests

  static let start: Int64 = 1_420_070_400

  /// A Withings CSV of `rows` (minutes after 2015-01-01 00:00 as written, weights), in the
  /// order given.
  static func withings(_ rows: [(minute: Int, kilograms: Double)]) -> String {
    var text =
      "Date,\"Weight (kg)\",\"Fat mass (kg)\",\"Bone mass (kg)\",\"Muscle mass (kg)\",\"Hydration (kg)\",Comments\n"
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    for row in rows {
      let date = Date(timeIntervalSince1970: TimeInterval(Int(start) + row.minute * 60))
      let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
      let stamp = String(
        format: "%04d-%02d-%02d %02d:%02d:00", c.year!, c.month!, c.day!, c.hour!, c.minute!)
      text += "\"\(stamp)\",\(String(format: "%.2f", row.kilograms)),15.10,3.10,52.40,39.80,\n"
    }
    return text
  }

  /// A store whose log is `script`'s, written into its table file (nothing in the journal).
  static func store(_ script: String) throws -> TemporaryStoreDirectory {
    let store = TemporaryStoreDirectory()
    let session = try HealthOpenTests.session(store.path)
    session.run(script: script, display: "test", directory: ".")
    try session.store.compact()
    session.close()
    return store
  }

  /// The plans of `weights` re-imported (as a Withings file's) into the log of `store`:
  /// through the check, and the usual way; and whether the check walked the log to the end.
  static func plans(_ weights: [ImportedWeight], into store: TemporaryStoreDirectory) throws
    -> (checked: ImportPlan, usual: ImportPlan, walked: Bool)
  {
    let session = try HealthOpenTests.session(store.path)
    defer { session.close() }
    let check = try #require(ReimportCheck(session: session, format: .withingsCSV))
    #expect(check.walksTheLog, "a log only in its table file is walked")
    let plans = try ReimportCheckTests.plans(
      weights, format: .withingsCSV, through: check, session: session)
    if plans.present == nil { #expect(!plans.walked) }
    return (plans.checked, plans.usual, plans.present != nil && plans.walked)
  }

  /// A vendor's weight written at `minute` (after 2015-01-01 00:00) and read `offset`
  /// minutes east of UTC.
  static func weight(
    _ minute: Int, _ kilograms: Double, line: Int, offset: Int = 0, source: String = "Withings"
  ) -> ImportedWeight {
    let fileTime = start + Int64(minute * 60)
    return ImportedWeight(
      instant: fileTime - Int64(offset * 60), kilograms: kilograms, source: source, line: line,
      fileTime: fileTime)
  }

  static func expectSame(_ checked: ImportPlan, _ usual: ImportPlan) {
    #expect(checked.alreadyPresent == usual.alreadyPresent)
    #expect(checked.entries == usual.entries)
    #expect(checked.rejections == usual.rejections)
  }

  /// Random logs (first imported in UTC or in Europe/Rome, so that file times and instants
  /// differ by a zone's offset, changing with summer time) and random files of their
  /// weights: repeats, weights 1e-12 kg off (two weights that may claim one entry), another
  /// source, several entries a minute, new weights, read in UTC or in Rome, across the
  /// boundaries of the reader's blocks. The walk answers, and as the whole log's look-up.
  @Test(arguments: [(1, "UTC", 0), (2, "Europe/Rome", 0), (3, "UTC", 60), (4, "Europe/Rome", 120)])
  func randomReimportsAreAnsweredAsTheWholeLogsLookUp(seed: Int, zone: String, offset: Int)
    throws
  {
    var random = ByteCursorTests.Numbers(state: UInt64(seed))
    var rows: [(minute: Int, kilograms: Double)] = []
    var minute = 0
    while rows.count < 3 * ImportedWeights.blockSize {
      // Summer time begins 2015-03-29: the log spans it.
      minute += Int(random.next() % 20)
      rows.append((minute, 50 + Double(random.next() % 5000) / 100))
    }
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    Files.write(Self.withings(rows), named: "log.csv", in: files)
    let store = try Self.store("set tz \(zone)\nimport \(files.file("log.csv"))")
    defer { store.remove() }
    var weights: [ImportedWeight] = []
    for row in rows {
      let choice = random.next() % 10
      let line = weights.count + 2
      switch choice {
      case 0: continue
      case 1:
        weights.append(Self.weight(row.minute, row.kilograms + 1e-12, line: line, offset: offset))
        weights.append(Self.weight(row.minute, row.kilograms, line: line + 1, offset: offset))
      case 2:
        weights.append(
          Self.weight(row.minute, row.kilograms, line: line, offset: offset, source: "Scale"))
      case 3:
        weights.append(Self.weight(row.minute, row.kilograms + 0.5, line: line, offset: offset))
      default:
        weights.append(Self.weight(row.minute, row.kilograms, line: line, offset: offset))
      }
    }
    weights.append(Self.weight(minute + 10, 70, line: weights.count + 2, offset: offset))
    let (checked, usual, walked) = try Self.plans(weights, into: store)
    #expect(walked)
    Self.expectSame(checked, usual)
    #expect(usual.alreadyPresent > rows.count / 2)
    #expect(usual.entries.count > 100)
  }

  /// The same file again under another zone at a block's edge: the first weight of a block
  /// claims by file time an entry whose instant lies an hour before the block's moments.
  @Test func anEntryAZoneAwayAtABlocksEdgeIsClaimed() throws {
    let block = ImportedWeights.blockSize
    let rows = (0..<(3 * block)).map { (minute: $0, kilograms: 60 + Double($0 % 100) / 10) }
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    Files.write(Self.withings(rows), named: "log.csv", in: files)
    let store = try Self.store("set tz Europe/Rome\nimport \(files.file("log.csv"))")
    defer { store.remove() }
    let weights = rows.enumerated().map { index, row in
      Self.weight(row.minute, row.kilograms, line: index + 2)
    }
    let (checked, usual, walked) = try Self.plans(weights, into: store)
    #expect(walked)
    Self.expectSame(checked, usual)
    #expect(usual.alreadyPresent == rows.count)
  }

  /// A log whose instants go back (a later file imported first, then an earlier one; an
  /// entry moved back by an edit): the walk finds it out of its case, and the whole log is
  /// looked up, with the same answers.
  @Test(arguments: [false, true])
  func aLogOutOfTimeOrderIsLookedUpWhole(edited: Bool) throws {
    let block = ImportedWeights.blockSize
    let early = (0..<(2 * block)).map { (minute: $0, kilograms: 60 + Double($0 % 90) / 10) }
    let late = (0..<(2 * block)).map {
      (minute: 4 * block + $0, kilograms: 61 + Double($0 % 70) / 10)
    }
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    Files.write(Self.withings(early), named: "early.csv", in: files)
    Files.write(Self.withings(late), named: "late.csv", in: files)
    let script =
      edited
      ? "import \(files.file("early.csv"))\nimport \(files.file("late.csv"))\nedit #40000 at 2015-01-01 00:30"
      : "import \(files.file("late.csv"))\nimport \(files.file("early.csv"))"
    let store = try Self.store(script)
    defer { store.remove() }
    var weights: [ImportedWeight] = []
    for row in early + late {
      weights.append(Self.weight(row.minute, row.kilograms, line: weights.count + 2))
    }
    let (checked, usual, walked) = try Self.plans(weights, into: store)
    #expect(!walked)
    Self.expectSame(checked, usual)
    #expect(usual.alreadyPresent >= early.count + late.count - 1)
  }

  /// A file newest first: out of the spill's order before any block, so every weight is
  /// held and the whole log looked up.
  @Test func aFileInDescendingOrderIsLookedUpWhole() throws {
    let block = ImportedWeights.blockSize
    let rows = (0..<(2 * block)).map { (minute: $0, kilograms: 60 + Double($0 % 90) / 10) }
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    Files.write(Self.withings(rows), named: "log.csv", in: files)
    let store = try Self.store("import \(files.file("log.csv"))")
    defer { store.remove() }
    let weights = rows.reversed().enumerated().map { index, row in
      Self.weight(row.minute, row.kilograms, line: index + 2)
    }
    let (checked, usual, walked) = try Self.plans(weights, into: store)
    #expect(!walked)
    Self.expectSame(checked, usual)
    #expect(usual.alreadyPresent == rows.count)
  }

  /// The command: a re-import with new rows, walked, prints and leaves what the usual
  /// import does (the file read newest first, looked up whole).
  @Test func aWalkedReimportLeavesTheStoreTheUsualOneLeaves() throws {
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    let first = (0..<40_000).map { (minute: $0 * 3, kilograms: 60 + Double($0 % 90) / 10) }
    let again =
      first.filter { $0.minute % 7 != 0 }
      + (0..<1_000).map {
        (minute: 120_000 + $0, kilograms: 70.0)
      }
    Files.write(Self.withings(first), named: "first.csv", in: files)
    Files.write(Self.withings(again), named: "up.csv", in: files)
    Files.write(Self.withings(again.reversed()), named: "dn.csv", in: files)
    let walked = try Self.store("import \(files.file("first.csv"))")
    let usual = try Self.store("import \(files.file("first.csv"))")
    defer { [walked, usual].forEach { $0.remove() } }
    let (printed, _) = try Files.run(
      "set tz Europe/Rome\nimport \(files.file("up.csv"))", in: walked.path)
    let (printedUsual, _) = try Files.run(
      "set tz Europe/Rome\nimport \(files.file("dn.csv"))", in: usual.path)
    #expect(printed.contains("imported 1000, already present 34285, rejected 0"), "\(printed)")
    #expect(printed.replacingOccurrences(of: "up.csv", with: "dn.csv") == printedUsual)
    #expect(Files.files(walked) == Files.files(usual))
    #expect(Store.check(.directory(walked.path), tables: Session.storeTables).isEmpty)
  }
}
