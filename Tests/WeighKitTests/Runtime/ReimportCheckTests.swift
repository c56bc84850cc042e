import Foundation
import Testing

@testable import WeighKit

/// A re-import looks each block of the file's weights up in the log as the reader hands it
/// on (`ReimportCheck`), keeping only the new ones: the same answers as the plan that looks
/// up every weight held at once, whatever order its claims fall in across blocks.
@Suite struct ReimportCheckTests {
  typealias Files = StreamedImportTests

  /// The plan of `weights` read through a check (block by block) and the usual way, and
  /// whether the check looked the log up as read from its file (`CompactLog`).
  static func plans(
    _ weights: [ImportedWeight], format: ImportFormat = .withingsCSV, into session: Session
  ) throws -> (checked: ImportPlan, usual: ImportPlan, wasChecked: Bool, compact: Bool) {
    let check = try #require(ReimportCheck(session: session, format: format))
    let compact = check.readsTheLogFromItsFile
    let plans = try Self.plans(weights, format: format, through: check, session: session)
    return (plans.checked, plans.usual, plans.present != nil, compact)
  }

  /// The plans of `weights` (read as a file of `format`'s) through `check` and the usual
  /// way: `present` the weights the check found as the file was read (nil when it read the
  /// file the usual way), `walked` whether it walked the log, as it was after the read.
  static func plans(
    _ weights: [ImportedWeight], format: ImportFormat, through check: ReimportCheck,
    session: Session
  ) throws -> (checked: ImportPlan, usual: ImportPlan, present: Int?, walked: Bool) {
    func read() -> WeightImportResult {
      var result = WeightImportResult(format: format)
      var seen = WeightKeySet()
      for weight in weights { result.add(weight, seen: &seen) }
      return result
    }
    var checked: ImportPlan
    var found: Int?
    var walked = false
    switch try check.read(read) {
    case .checked(var result, let present):
      (found, walked) = (present, check.walksTheLog)
      #expect(result.read.count + present <= weights.count)
      checked = check.plan(&result, checked: present, session: session)
    case .usual(var result):
      walked = check.walksTheLog
      checked = check.plan(&result, checked: nil, session: session)
    case .again:
      var result = read()
      checked = ImportPlan(&result, into: try session.entries(), session: session)
    case .streamed:
      // Only inside a command's transaction, which these sessions do not begin.
      Issue.record("a check outside a command streamed its entries")
      var result = read()
      checked = ImportPlan(&result, into: try session.entries(), session: session)
    }
    var result = read()
    let usual = ImportPlan(&result, into: try session.entries(), session: session)
    return (checked, usual, found, walked)
  }

  /// The entries of `store` after a session of its own imported `file` into it.
  static func entries(importing file: String, into store: TemporaryStoreDirectory) throws
    -> [Entry]
  {
    let first = try HealthOpenTests.session(store.path)
    defer { first.close() }
    first.run(script: "import \(file)", display: "test", directory: ".")
    return try first.entries()
  }

  static func weight(_ minute: Int, _ kilograms: Double, line: Int, source: String = "Withings")
    -> ImportedWeight
  {
    let instant = Int64(1_420_070_400 + minute * 60)
    return ImportedWeight(
      instant: instant, kilograms: kilograms, source: source, line: line, fileTime: instant)
  }

  /// Weights that match one entry twice (within 1e-9 kg, distinct in the file), repeats of
  /// earlier rows, and new weights, placed across the boundaries of the reader's blocks:
  /// the first in file order claims the entry, as when every weight is held.
  @Test func claimsAcrossBlockBoundariesAreThoseOfThePlanThatHoldsEveryWeight() throws {
    let files = TemporaryStoreDirectory()
    let store = TemporaryStoreDirectory()
    defer { [files, store].forEach { $0.remove() } }
    let block = ImportedWeights.blockSize
    let minutes = Array(0..<(3 * block))
    Files.write(Files.withings(minutes), named: "log.csv", in: files)
    let existing = try Self.entries(importing: files.file("log.csv"), into: store)
    #expect(existing.count == minutes.count)
    let session = try HealthOpenTests.session(store.path)
    defer { session.close() }
    var weights: [ImportedWeight] = []
    var line = 2
    for entry in existing {
      let minute = Int(entry.instant - 1_420_070_400) / 60
      // Around each boundary: the entry's weight, a repeat of it (an in-file duplicate), a
      // second weight 1e-12 kg off (the same entry, claimed already: new), another source.
      let nearBoundary = (minute + 2) % block < 4
      weights.append(Self.weight(minute, entry.kilograms, line: line))
      line += 1
      if nearBoundary || minute % 997 == 0 {
        weights.append(Self.weight(minute, entry.kilograms, line: line))
        weights.append(Self.weight(minute, entry.kilograms + 1e-12, line: line + 1))
        weights.append(Self.weight(minute, entry.kilograms, line: line + 2, source: "Scale"))
        line += 3
      }
    }
    // New weights, at the end, and one after the clock.
    weights.append(Self.weight(3 * block + 5, 70, line: line))
    weights.append(Self.weight(600_000_000, 70, line: line + 1))
    let (checked, usual, wasChecked, compact) = try Self.plans(weights, into: session)
    #expect(wasChecked)
    #expect(compact, "the log, streamed into its file, was not read: looked up from the file")
    #expect(checked.alreadyPresent == usual.alreadyPresent)
    #expect(checked.entries == usual.entries)
    #expect(checked.rejections == usual.rejections)
    #expect(usual.alreadyPresent > existing.count)
    #expect(usual.entries.count > 1)
    #expect(usual.rejections.count == 1)
  }

  /// A file read through the check leaves the store a file read the usual way (out of
  /// order in its first block, so every weight is held) leaves, with the same report.
  @Test func aReimportWithNewRowsLeavesTheStoreTheUsualReimportLeaves() throws {
    let files = TemporaryStoreDirectory()
    let checked = TemporaryStoreDirectory()
    let usual = TemporaryStoreDirectory()
    defer { [files, checked, usual].forEach { $0.remove() } }
    let first = Array(0..<40_000)
    let again = Array(0..<40_000).filter { $0 % 3 != 0 } + Array(40_000..<41_000)
    Files.write(Files.withings(first), named: "first.csv", in: files)
    Files.write(Files.withings(again), named: "up.csv", in: files)
    Files.write(Files.withings(again.reversed()), named: "dn.csv", in: files)
    let script = { (name: String) in
      """
      import \(files.file("first.csv"))
      edit #8 99.5
      import \(files.file(name))
      expect entries == 41001
      """
    }
    let (printed, _) = try Files.run(script("up.csv"), in: checked.path)
    let (printedUsual, _) = try Files.run(script("dn.csv"), in: usual.path)
    #expect(printed.contains("imported 1001, already present 26665, rejected 0"), "\(printed)")
    #expect(printed.replacingOccurrences(of: "up.csv", with: "dn.csv") == printedUsual)
    #expect(Files.files(checked) == Files.files(usual))
    #expect(Store.check(.directory(checked.path), tables: Session.storeTables).isEmpty)
  }

  /// The same file again under another zone: its wall-clock times match, nothing is added.
  @Test func aReimportUnderAnotherZoneAddsNothing() throws {
    let files = TemporaryStoreDirectory()
    let store = TemporaryStoreDirectory()
    defer { [files, store].forEach { $0.remove() } }
    Files.write(Files.withings(Array(0..<40_000)), named: "up.csv", in: files)
    let path = files.file("up.csv")
    let (printed, _) = try Files.run(
      """
      import \(path)
      set tz Europe/Rome
      import \(path)
      expect entries == 40000
      """, in: store.path)
    #expect(printed.contains("imported 0, already present 40000, rejected 0"), "\(printed)")
  }

  /// A log changed in the journal since its file was written (an edit, kept in the journal
  /// by the next session): the look-up reads the entries as the session has them, and
  /// finds the edited entry changed.
  @Test func aLogWithJournalChangesIsLookedUpAsTheSessionReadsIt() throws {
    let files = TemporaryStoreDirectory()
    let store = TemporaryStoreDirectory()
    defer { [files, store].forEach { $0.remove() } }
    Files.write(Files.withings(Array(0..<40_000)), named: "up.csv", in: files)
    let path = files.file("up.csv")
    _ = try Files.run("import \(path)", in: store.path)
    let clean = try HealthOpenTests.session(store.path)
    #expect(ReimportCheck(session: clean, format: .withingsCSV)?.readsTheLogFromItsFile == true)
    clean.close()
    _ = try Files.run("edit #8 99.5", in: store.path)
    let edited = try HealthOpenTests.session(store.path)
    let check = ReimportCheck(session: edited, format: .withingsCSV)
    #expect(
      check?.readsTheLogFromItsFile == false, "the edit is in the journal, past the table file")
    #expect(ReimportCheck(session: edited, format: .weighCSV) != nil)
    #expect(ReimportCheck(session: edited, format: .appleHealthZip) != nil)
    edited.close()
    let (printed, _) = try Files.run(
      """
      import \(path)
      expect entries == 40001
      """, in: store.path)
    #expect(printed.contains("imported 1, already present 39999, rejected 0"), "\(printed)")
    #expect(Store.check(.directory(store.path), tables: Session.storeTables).isEmpty)
  }

  /// A re-import with new rows looked up from the table file adds them without reading the
  /// log; the next command reads it from the store, new entries included, and undo takes
  /// them away again.
  @Test func theLogIsReadFromTheStoreAfterACompactReimport() throws {
    let files = TemporaryStoreDirectory()
    let store = TemporaryStoreDirectory()
    defer { [files, store].forEach { $0.remove() } }
    Files.write(Files.withings(Array(0..<40_000)), named: "first.csv", in: files)
    Files.write(Files.withings(Array(39_000..<41_000)), named: "more.csv", in: files)
    _ = try Files.run("import \(files.file("first.csv"))", in: store.path)
    let (printed, _) = try Files.run(
      """
      import \(files.file("more.csv"))
      expect entries == 41000
      undo
      expect entries == 40000
      import \(files.file("more.csv"))
      expect entries == 41000
      """, in: store.path)
    #expect(!printed.contains("error"), "\(printed)")
    #expect(printed.contains("imported 1000, already present 1000, rejected 0"), "\(printed)")
    #expect(Store.check(.directory(store.path), tables: Session.storeTables).isEmpty)
  }
}

/// Weigh's own files: a block's weights claim the entries of their numbers as they come, and
/// the plan looks the rest up after the file is read.
extension ReimportCheckTests {
  /// A row of weigh's own file numbered `number`, at `minute` after 2015-01-01 00:00 UTC.
  static func weighRow(_ number: Int, _ minute: Int, _ kilograms: Double, line: Int)
    -> ImportedWeight
  {
    ImportedWeight(
      weighEntry: number, instant: Int64(1_420_070_400 + minute * 60), kilograms: kilograms,
      origin: .import, source: "Withings", note: nil, revision: 1, healthUUID: nil,
      pushedUUID: nil, pushedRevision: nil, line: line)
  }

  /// Around each boundary of the reader's blocks, two weights of one entry's moment and
  /// weight: the first (before the boundary) numbered for no entry, or the entry's own
  /// number 1e-12 kg off; the second (after it) with the entry's number. The plan claims by
  /// number first: the second claims the entry in the first case, the first in the other.
  /// Elsewhere, weights that carry a neighbour's number (claimed by moment after the file is
  /// read), a number past the log's, and new weights with a number in use or not.
  @Test(arguments: [ImportFormat.weighCSV, .weighJSON])
  func weighFilesClaimByNumberFirstAsThePlanThatHoldsEveryWeight(format: ImportFormat) throws {
    let files = TemporaryStoreDirectory()
    let store = TemporaryStoreDirectory()
    defer { [files, store].forEach { $0.remove() } }
    let block = ImportedWeights.blockSize
    // Within January (`Files.weigh`), across three blocks.
    let rows = (0..<(2 * block + 8_000)).map { (id: $0 + 1, minute: $0) }
    Files.write(
      Files.weigh(rows, json: format == .weighJSON, linked: 0), named: "log.txt", in: files)
    let existing = try Self.entries(importing: files.file("log.txt"), into: store)
    #expect(existing.count == rows.count)
    let session = try HealthOpenTests.session(store.path)
    defer { session.close() }
    var weights: [ImportedWeight] = []
    var boundaries = 0
    func add(_ number: Int, _ minute: Int, _ kilograms: Double) {
      weights.append(Self.weighRow(number, minute, kilograms, line: weights.count + 2))
    }
    for (index, entry) in existing.enumerated() {
      let minute = Int(entry.instant - 1_420_070_400) / 60
      if weights.count % block == block - 1 {
        boundaries += 1
        if boundaries % 2 == 1 {
          add(9_000_000 + minute, minute, entry.kilograms)
        } else {
          add(entry.id, minute, entry.kilograms + 1e-12)
        }
        add(entry.id, minute, entry.kilograms)
      } else if minute % 997 == 5, index + 1 < existing.count {
        // The next entry's number, and then the next entry's weight with this one's.
        add(existing[index + 1].id, minute, entry.kilograms)
      } else if minute % 997 == 6 {
        add(existing[index - 1].id, minute, entry.kilograms)
      } else if minute % 991 == 0 {
        add(0, minute, entry.kilograms)
      } else {
        add(entry.id, minute, entry.kilograms)
      }
    }
    let largest = existing.map(\.id).max() ?? 0
    add(largest + 10, 3 * block + 5, 70)
    add(7, 3 * block + 6, 71)
    add(largest + 20, 600_000_000, 70)
    #expect(boundaries >= 2)
    let (checked, usual, wasChecked, compact) = try Self.plans(
      weights, format: format, into: session)
    #expect(wasChecked)
    #expect(compact)
    #expect(checked.alreadyPresent == usual.alreadyPresent)
    #expect(checked.entries == usual.entries)
    #expect(checked.rejections == usual.rejections)
    #expect(checked.passesHighestNumber == usual.passesHighestNumber)
    // Each boundary adds one entry (one of its two weights finds its entry claimed), and
    // the two new weights: the one numbered past the log keeps its number, 7 gets a new one.
    #expect(usual.entries.count == boundaries + 2)
    #expect(usual.entries.contains { $0.id == largest + 10 && $0.kilograms == 70 })
    #expect(!usual.entries.contains { $0.id == 7 })
    #expect(usual.rejections.count == 1)
    // The weight numbered for no entry, before the first boundary, is the new one there,
    // and keeps its number.
    #expect(usual.entries.contains { $0.id >= 9_000_000 })
  }

  /// Weigh's own CSV and JSON and an Apple export, imported again after some entries were
  /// deleted (and one deleted and brought back by undo), or in another zone: the store and
  /// report are those of the same file read the usual way (newest first, so every weight is
  /// held).
  @Test(arguments: ["csv", "json", "xml"])
  func aReimportOfWeighsFilesAndAppleWeightsLeavesTheStoreTheUsualLeaves(kind: String) throws {
    let files = TemporaryStoreDirectory()
    let checked = TemporaryStoreDirectory()
    let usual = TemporaryStoreDirectory()
    defer { [files, checked, usual].forEach { $0.remove() } }
    let rows = (0..<40_000).map { (id: $0 + 1, minute: $0) }
    // One number twice: the file's first row of it is found, the second is new.
    let again = rows + [(id: 40_000, minute: 40_500)]
    func text(_ rows: [(id: Int, minute: Int)]) -> String {
      kind == "xml"
        ? Files.appleExport(rows.map(\.minute))
        : Files.weigh(rows, json: kind == "json", linked: 17)
    }
    Files.write(text(rows), named: "first.\(kind)", in: files)
    Files.write(text(again), named: "up.\(kind)", in: files)
    Files.write(text(again.reversed()), named: "dn.\(kind)", in: files)
    let script = { (name: String) in
      """
      import \(files.file("first.\(kind)"))
      delete #8
      delete #9
      undo
      delete #30000
      import \(files.file(name))
      expect entries == 40001
      set tz Europe/Rome
      import \(files.file(name))
      expect entries == 40001
      """
    }
    let (printed, _) = try Files.run(script("up.\(kind)"), in: checked.path)
    let (printedUsual, _) = try Files.run(script("dn.\(kind)"), in: usual.path)
    #expect(printed.contains("imported 3, already present 39998, rejected 0"), "\(printed)")
    #expect(printed.contains("imported 0, already present 40001, rejected 0"), "\(printed)")
    #expect(printed.replacingOccurrences(of: "up.\(kind)", with: "dn.\(kind)") == printedUsual)
    #expect(Files.files(checked) == Files.files(usual))
    #expect(try Files.documents(checked) == Files.documents(usual))
    #expect(Store.check(.directory(checked.path), tables: Session.storeTables).isEmpty)
  }
}

extension ReimportCheckTests {
  /// The compact log's entry stays at 32 bytes (half an `Entry`).
  @Test func aCompactEntryTakes32Bytes() {
    #expect(MemoryLayout<CompactLog.Row>.stride == 32)
  }
}
