import Foundation
import Testing

@testable import WeighKit

/// A re-import of weigh's own file walks the log beside the file's numbers
/// (`NumberedLogWalk`), holding only the entries no number claimed: its plans are those of
/// the look-up of the whole log, and where the file's numbers go back the log is held from
/// there on, with the same answers.
@Suite struct NumberedLogWalkTests {
  typealias Files = StreamedImportTests

  /// The weight `Files.weigh` writes at `minute`, as the store reads it back.
  static func kilograms(_ minute: Int) -> Double {
    Double(String(format: "%.2f", 60 + Double(minute * 37 % 4000) / 100))!
  }

  /// A weigh row numbered `number` (0: none) at `minute`.
  static func row(_ number: Int, _ minute: Int, _ kilograms: Double, line: Int) -> ImportedWeight {
    ReimportCheckTests.weighRow(number, minute, kilograms, line: line)
  }

  /// `weight` numbered `number`.
  static func row(_ number: Int, _ weight: ImportedWeight, line: Int) -> ImportedWeight {
    ReimportCheckTests.weighRow(
      // checked: Int64 to Int, one width
      number, Int(weight.instant - 1_420_070_400) / 60, weight.kilograms, line: line)
  }

  /// A store whose log is the weigh file of `count` rows (numbers 1..., a minute apart),
  /// then `script`, written into its table file.
  static func store(rows count: Int, json: Bool = false, then script: String) throws
    -> TemporaryStoreDirectory
  {
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    let rows = (0..<count).map { (id: $0 + 1, minute: $0) }
    Files.write(Files.weigh(rows, json: json, linked: 0), named: "log.txt", in: files)
    return try LogWalkTests.store("import \(files.file("log.txt"))\n\(script)")
  }

  /// The plans of `weights` re-imported as weigh's CSV into `store`, through the check and
  /// the usual way; whether the check walked the log to the end.
  static func plans(_ weights: [ImportedWeight], into store: TemporaryStoreDirectory) throws
    -> (checked: ImportPlan, usual: ImportPlan, walked: Bool)
  {
    let session = try HealthOpenTests.session(store.path)
    defer { session.close() }
    let check = try #require(ReimportCheck(session: session, format: .weighCSV))
    #expect(check.walksTheLog, "a log only in its table file is walked")
    let plans = try ReimportCheckTests.plans(
      weights, format: .weighCSV, through: check, session: session)
    return (plans.checked, plans.usual, plans.present != nil && plans.walked)
  }

  static func expectSame(
    _ checked: ImportPlan, _ usual: ImportPlan,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    #expect(checked.alreadyPresent == usual.alreadyPresent, sourceLocation: sourceLocation)
    #expect(checked.entries == usual.entries, sourceLocation: sourceLocation)
    #expect(checked.rejections == usual.rejections, sourceLocation: sourceLocation)
    #expect(
      checked.passesHighestNumber == usual.passesHighestNumber, sourceLocation: sourceLocation)
  }

  /// Random files of a log of three blocks' entries, some edited and some deleted since the
  /// export: rows of the entries as exported, numbers with other content (an entry's number
  /// on another weight), a number twice, rows without a number (0, or a vendor's row) that
  /// claim by moment after the file, numbers of deleted entries, rows left out, and new rows
  /// numbered past the log or not at all; in number order (walked), or with neighbours
  /// swapped (the walk hands over to the held log where the first goes back).
  @Test(arguments: [(1, false), (2, false), (3, true), (4, true)])
  func randomWeighFilesAreAnsweredAsTheWholeLogsLookUp(seed: Int, swapped: Bool) throws {
    var random = ByteCursorTests.Numbers(state: UInt64(seed))
    let count = 2 * ImportedWeights.blockSize + 5_000
    let deleted: Set<Int> = [10, 11, 20_000, count]
    let edited = [5: 99.5, 30_000: 88.0]
    var script = deleted.sorted().map { "delete #\($0)" }
    script += edited.sorted { $0.key < $1.key }.map { "edit #\($0.key) \($0.value)" }
    let store = try Self.store(rows: count, then: script.joined(separator: "\n"))
    defer { store.remove() }
    var weights: [ImportedWeight] = []
    func add(_ number: Int, _ minute: Int, _ kilograms: Double) {
      weights.append(Self.row(number, minute, kilograms, line: weights.count + 2))
    }
    for number in 1...count {
      let minute = number - 1
      let kilograms = Self.kilograms(minute)
      // The deleted and edited entries' rows are always in the file.
      let choice = deleted.contains(number) || edited[number] != nil ? 99 : random.below(24)
      switch choice {
      case 0: continue
      case 1: add(number, minute, kilograms + 0.5)
      case 2:
        add(number, minute, kilograms)
        add(number, minute, kilograms + 1e-12)
      case 3: add(0, minute, kilograms)
      case 4:
        weights.append(
          ImportedWeight(
            instant: Int64(1_420_070_400 + minute * 60), kilograms: kilograms,
            source: "Withings", line: weights.count + 2))
      case 5:
        // This entry's content under the next one's number: claimed by moment after the
        // file, the next entry by its own row.
        add(number + 1, minute, kilograms)
      default: add(number, minute, kilograms)
      }
      // Two rows' numbers exchanged, their moments in order (else the file would be read
      // as a file out of order is): both are looked up by moment after the file.
      if swapped, weights.count > 2, random.below(500) == 0 {
        let (a, b) = (weights[weights.count - 2], weights[weights.count - 1])
        if let first = a.number, let second = b.number, first < second {
          weights.removeLast(2)
          weights.append(Self.row(second, a, line: a.line))
          weights.append(Self.row(first, b, line: b.line))
        }
      }
    }
    for extra in 0..<300 {
      add(extra % 3 == 0 ? 0 : count + 10 + extra, count + 100 + extra, 70 + Double(extra) / 10)
    }
    add(count + 1_000, 600_000_000, 70)
    let (checked, usual, walked) = try Self.plans(weights, into: store)
    #expect(walked == !swapped)
    Self.expectSame(checked, usual)
    #expect(usual.alreadyPresent > count / 2)
    #expect(usual.entries.count > 300)
    #expect(usual.rejections.count == 1)
    // A deleted entry's number is kept; an edited one's is not.
    #expect(usual.entries.contains { $0.id == 11 })
    #expect(!usual.entries.contains { $0.id == 5 })
  }

  /// The file exported, read again: every weight claims its entry by number, none is kept,
  /// and the plan adds nothing.
  @Test func theExportedFileAgainClaimsEveryEntryByNumber() throws {
    let count = ImportedWeights.blockSize + 100
    let store = try Self.store(rows: count, then: "")
    defer { store.remove() }
    let weights = (1...count).map { Self.row($0, $0 - 1, Self.kilograms($0 - 1), line: $0 + 1) }
    let (checked, usual, walked) = try Self.plans(weights, into: store)
    #expect(walked)
    Self.expectSame(checked, usual)
    #expect(usual.alreadyPresent == count)
    #expect(usual.entries.isEmpty)
  }

  /// A number that goes back in the first block, and one past the log's largest before
  /// it (the cursor at the log's end): the log is held from there, the claims made so far
  /// kept, and the answers are the held look-up's.
  @Test(arguments: [0, 1])
  func aNumberThatGoesBackHandsTheLogOver(where at: Int) throws {
    let count = 2 * ImportedWeights.blockSize
    let store = try Self.store(rows: count, then: "edit #3 71.25")
    defer { store.remove() }
    var weights: [ImportedWeight] = []
    func add(_ number: Int, _ minute: Int, _ kilograms: Double) {
      weights.append(Self.row(number, minute, kilograms, line: weights.count + 2))
    }
    let turn = at == 0 ? 100 : ImportedWeights.blockSize + 50
    for number in 1...count {
      add(number, number - 1, Self.kilograms(number - 1))
      if number == turn {
        add(count + 5, number - 1, 70)
        add(3, number - 1, Self.kilograms(2))
      }
    }
    let (checked, usual, walked) = try Self.plans(weights, into: store)
    #expect(!walked)
    Self.expectSame(checked, usual)
    #expect(usual.entries.contains { $0.id == count + 5 })
  }

  /// The command: weigh's CSV and JSON with new rows (numbered past the log, or 0), a number
  /// of an entry edited since, read walked and read the usual way (newest first): the same
  /// report and store; under another zone, nothing more.
  @Test(arguments: ["csv", "json"])
  func aWalkedReimportLeavesTheStoreTheUsualOneLeaves(kind: String) throws {
    let files = TemporaryStoreDirectory()
    let walked = TemporaryStoreDirectory()
    let usual = TemporaryStoreDirectory()
    defer { [files, walked, usual].forEach { $0.remove() } }
    let rows = (0..<40_000).map { (id: $0 + 1, minute: $0) }
    let again =
      rows.filter { $0.id % 11 != 0 }
      + (0..<1_000).map { (id: $0 % 2 == 0 ? 0 : 40_100 + $0, minute: 40_100 + $0) }
    let json = kind == "json"
    Files.write(Files.weigh(rows, json: json, linked: 17), named: "first.\(kind)", in: files)
    Files.write(Files.weigh(again, json: json, linked: 17), named: "up.\(kind)", in: files)
    Files.write(
      Files.weigh(again.reversed(), json: json, linked: 17), named: "dn.\(kind)", in: files)
    let script = { (name: String) in
      """
      import \(files.file(name))
      expect entries == 41001
      set tz Europe/Rome
      import \(files.file(name))
      expect entries == 41001
      """
    }
    for store in [walked, usual] {
      _ = try Files.run("import \(files.file("first.\(kind)"))\nedit #7 99.5", in: store.path)
      let session = try HealthOpenTests.session(store.path)
      try session.store.compact()
      session.close()
    }
    let session = try HealthOpenTests.session(walked.path)
    #expect(ReimportCheck(session: session, format: .weighCSV)?.walksTheLog == true)
    session.close()
    let (printed, _) = try Files.run(script("up.\(kind)"), in: walked.path)
    let (printedUsual, _) = try Files.run(script("dn.\(kind)"), in: usual.path)
    #expect(printed.contains("imported 1001, already present 36363, rejected 0"), "\(printed)")
    #expect(printed.replacingOccurrences(of: "up.\(kind)", with: "dn.\(kind)") == printedUsual)
    #expect(Files.files(walked) == Files.files(usual))
    #expect(try Files.documents(walked) == Files.documents(usual))
    #expect(Store.check(.directory(walked.path), tables: Session.storeTables).isEmpty)
  }
}
