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
    _ weights: [ImportedWeight], into session: Session
  ) throws -> (checked: ImportPlan, usual: ImportPlan, wasChecked: Bool, compact: Bool) {
    func read() -> WeightImportResult {
      var result = WeightImportResult(format: .withingsCSV)
      var seen = WeightKeySet()
      for weight in weights { result.add(weight, seen: &seen) }
      return result
    }
    let check = try #require(ReimportCheck(session: session, format: .withingsCSV))
    let compact = check.readsTheLogFromItsFile
    var checked: ImportPlan
    var wasChecked = false
    switch try check.read(read) {
    case .checked(var result, let present):
      wasChecked = true
      #expect(result.read.count + present <= weights.count)
      checked = check.plan(&result, checked: present, session: session)
    case .usual(var result):
      checked = check.plan(&result, checked: nil, session: session)
    case .again:
      var result = read()
      checked = ImportPlan(&result, into: try session.entries(), session: session)
    }
    var result = read()
    let usual = ImportPlan(&result, into: try session.entries(), session: session)
    return (checked, usual, wasChecked, compact)
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
    let first = try HealthOpenTests.session(store.path)
    first.run(script: "import \(files.file("log.csv"))", display: "test", directory: ".")
    let existing = try first.entries()
    first.close()
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
    #expect(ReimportCheck(session: edited, format: .weighCSV) == nil)
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

extension ReimportCheckTests {
  /// The compact log's entry stays at 32 bytes (half an `Entry`).
  @Test func aCompactEntryTakes32Bytes() {
    #expect(MemoryLayout<CompactLog.Row>.stride == 32)
  }
}
