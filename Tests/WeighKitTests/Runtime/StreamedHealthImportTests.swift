import Foundation
import Testing

@testable import WeighKit

/// An Apple Health export imported with `types` (`HealthImportPlan`, read on a thread of its
/// own) hands its weights over as they are read: into a log without entries they stream into
/// the store (`ImportStream`), into a log with entries they are checked as read
/// (`ReimportCheck`). The store, the counts and the notes are those of the same export read
/// the usual way (its records last first, whose weights are out of time order and so held).
@Suite struct StreamedHealthImportTests {
  /// An export.xml of a body mass at each half minute of `halves` (after 2015-01-01 00:00,
  /// within January) with a step count after each, and the records of `extra` after the
  /// record of the half minute `at`.
  static func export(_ halves: [Int], extra: String = "", at: Int = -1) -> String {
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <HealthData locale="en_US">
       <ExportDate value="2026-01-01 00:00:00 +0100"/>

      """
    for half in halves {
      let (minute, second) = (half / 2, half % 2 * 30)
      let date = String(
        format: "2015-01-%02d %02d:%02d:%02d +0100", 1 + minute / 1440, minute % 1440 / 60,
        minute % 60, second)
      let kilograms = String(format: "%.2f", 60 + Double(minute * 37 % 4000) / 100)
      text +=
        " <Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"Health Mate\" "
        + "unit=\"kg\" creationDate=\"\(date)\" startDate=\"\(date)\" endDate=\"\(date)\" "
        + "value=\"\(kilograms)\"/>\n"
        + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\" "
        + "unit=\"count\" startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(10 + minute % 90)\"/>\n"
      if half == at { text += extra }
    }
    return text + "</HealthData>\n"
  }

  /// A body mass in no mass unit and a step count that is no number, each rejected on the
  /// line of its type.
  static let rejected =
    " <Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"Health Mate\" "
    + "unit=\"furlong\" startDate=\"2015-01-06 00:00:10 +0100\" "
    + "endDate=\"2015-01-06 00:00:10 +0100\" value=\"70\"/>\n"
    + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\" "
    + "unit=\"count\" startDate=\"2015-01-06 00:00:10 +0100\" "
    + "endDate=\"2015-01-06 00:00:10 +0100\" value=\"many\"/>\n"

  /// Three blocks of weights and a bit (`ImportedWeights.blockSize` each), in time order.
  static let halves = Array(0..<(ImportedWeights.blockSize * 3 + 5))

  /// What `script` printed in a session on `directory`, with `from` named as `to`, and how
  /// many runs the store streamed.
  static func run(_ script: String, in directory: TemporaryStoreDirectory) throws -> (
    String, Int
  ) {
    try StreamedImportTests.run(script, in: directory.path)
  }

  @Test func anExportWithTypesStreamsItsWeightsAndLeavesTheStoreTheUsualImportLeaves() throws {
    let files = TemporaryStoreDirectory()
    let streamed = TemporaryStoreDirectory()
    let usual = TemporaryStoreDirectory()
    defer { [files, streamed, usual].forEach { $0.remove() } }
    // After the weight of January 6th, 00:00 (the 17,281st): in the second block.
    let at = 5 * 2880
    StreamedImportTests.write(
      Self.export(Self.halves, extra: Self.rejected, at: at), named: "up.xml", in: files)
    StreamedImportTests.write(
      Self.export(Self.halves.reversed(), extra: Self.rejected, at: at), named: "dn.xml",
      in: files)
    let script = "import FILE types weight,steps\nexpect entries == \(Self.halves.count)"
    let (printed, runs) = try Self.run(
      script.replacingOccurrences(of: "FILE", with: files.file("up.xml")), in: streamed)
    let (printedUsual, runsUsual) = try Self.run(
      script.replacingOccurrences(of: "FILE", with: files.file("dn.xml")), in: usual)
    #expect(runs == 1)
    #expect(runsUsual == 0)
    let count = Self.halves.count
    #expect(printed.contains("imported \(count), already present 0, rejected 1"), "\(printed)")
    #expect(
      printed.contains("Health: imported \(count) (steps \(count)), already present 0, rejected 1"),
      "\(printed)")
    #expect(printed.contains("furlong"), "the weight's rejection is the first note")
    #expect(printed.contains("many"), "the step's rejection is Health's first note")
    #expect(!printed.contains("error"), "\(printed)")
    // The same records, the same rejections on the same lines in the other file's order:
    // only the lines differ, and the counts do not.
    #expect(
      printedUsual.contains("imported \(count), already present 0, rejected 1"), "\(printedUsual)")
    #expect(streamed.bytes("entries.json.tmp") == nil)
    #expect(
      streamed.bytes("entries.json") == usual.bytes("entries.json"),
      "the same entries, numbered in time order")
    StreamedImportTests.expectSameStore(streamed, as: usual)
  }

  /// Weights that go back in time after blocks were streamed: the file is read again for its
  /// weights only (Health's samples were taken once), with the store and the counts of the
  /// usual import.
  @Test func weightsOutOfOrderLateAreReadAgainAndHealthIsReadOnce() throws {
    let files = TemporaryStoreDirectory()
    let late = TemporaryStoreDirectory()
    let usual = TemporaryStoreDirectory()
    defer { [files, late, usual].forEach { $0.remove() } }
    let halves = Array(10..<40_000) + [5]
    StreamedImportTests.write(Self.export(halves), named: "late.xml", in: files)
    StreamedImportTests.write(Self.export(halves.reversed()), named: "dn.xml", in: files)
    let (printed, runs) = try Self.run(
      "import \(files.file("late.xml")) types weight,steps", in: late)
    let (printedUsual, _) = try Self.run(
      "import \(files.file("dn.xml")) types weight,steps", in: usual)
    #expect(runs == 0)
    #expect(printed.contains("imported 39991, already present 0, rejected 0"), "\(printed)")
    #expect(
      printed.contains("Health: imported 39991 (steps 39991), already present 0, rejected 0"),
      "\(printed)")
    #expect(printed.replacingOccurrences(of: "late.xml", with: "dn.xml") == printedUsual)
    #expect(late.bytes("entries.json.tmp") == nil)
    #expect(late.bytes("entries.json") == usual.bytes("entries.json"))
  }

  /// A re-import checks the weights as read: the same counts as a re-import of the usual
  /// file, nothing new; a log with one entry changed gets that weight back, and the import
  /// undoes.
  @Test func aReimportWithTypesChecksItsWeightsAsReadAndTheImportUndoes() throws {
    let files = TemporaryStoreDirectory()
    let store = TemporaryStoreDirectory()
    let usual = TemporaryStoreDirectory()
    defer { [files, store, usual].forEach { $0.remove() } }
    StreamedImportTests.write(
      Self.export(Self.halves, extra: Self.rejected, at: 100), named: "up.xml", in: files)
    StreamedImportTests.write(
      Self.export(Self.halves.reversed(), extra: Self.rejected, at: 100), named: "dn.xml",
      in: files)
    let count = Self.halves.count
    let script = """
      import FILE types weight,steps
      import FILE types weight,steps
      expect entries == \(count)
      """
    let (printed, _) = try Self.run(
      script.replacingOccurrences(of: "FILE", with: files.file("up.xml")), in: store)
    let (printedUsual, _) = try Self.run(
      script.replacingOccurrences(of: "FILE", with: files.file("dn.xml")), in: usual)
    #expect(printed.contains("imported 0, already present \(count), rejected 1"), "\(printed)")
    #expect(
      printed.contains("Health: imported 0, already present \(count), rejected 1"), "\(printed)")
    #expect(printedUsual.contains("imported 0, already present \(count), rejected 1"))
    #expect(!printed.contains("error"), "\(printed)")
    #expect(
      store.bytes("entries.json") == usual.bytes("entries.json"),
      "the same entries after the re-import")
    // A log with one entry changed: the re-import finds every other weight, adds that one.
    let (again, _) = try Self.run(
      """
      edit #20000 200kg
      import \(files.file("up.xml")) types weight,steps
      expect entries == \(count + 1)
      undo
      expect entries == \(count)
      """, in: store)
    #expect(
      again.contains("imported 1, already present \(count - 1), rejected 1"), "\(again)")
    #expect(!again.contains("error"), "\(again)")
    #expect(Store.check(.directory(store.path), tables: Session.storeTables).isEmpty)
  }

  /// An export found broken after blocks of weights were streamed and batches of steps saved:
  /// nothing imported, into the log or Health (the next import finds none of its steps
  /// present), and the store takes the next import.
  @Test func aBrokenExportAfterStreamedBlocksImportsNothing() throws {
    let files = TemporaryStoreDirectory()
    let store = TemporaryStoreDirectory()
    defer { [files, store].forEach { $0.remove() } }
    var broken = Self.export(Self.halves)
    broken.removeLast("</HealthData>\n".utf8.count)
    broken += " <Record type=\"HKQuantityTypeIdentifierBodyMass\" value=\"7"
    StreamedImportTests.write(broken, named: "broken.xml", in: files)
    StreamedImportTests.write(Self.export(Array(0..<100)), named: "small.xml", in: files)
    _ = try Self.run("", in: store)
    let before = StreamedImportTests.files(store)
    let (printed, runs) = try Self.run(
      """
      import \(files.file("broken.xml")) types weight,steps
      expect entries == 0
      """, in: store)
    #expect(runs == 0)
    #expect(printed.contains("nothing was imported"), "\(printed)")
    #expect(!printed.contains("expect"), "\(printed)")
    #expect(StreamedImportTests.files(store) == before)
    #expect(store.bytes("entries.json.tmp") == nil)
    let (again, _) = try Self.run(
      "import \(files.file("small.xml")) types weight,steps", in: store)
    #expect(again.contains("imported 100, already present 0, rejected 0"), "\(again)")
    // Steps of the broken file's first batches would be present.
    #expect(again.contains("Health: imported 100 (steps 100), already present 0"), "\(again)")
    #expect(Store.check(.directory(store.path), tables: Session.storeTables).isEmpty)
  }
}

/// A kill at each write of the app's store during a new store's import with `types` whose
/// weights stream into the journal: the store holds every weight and step or none, and a
/// kill after health.sqlite's `COMMIT` (its pending record larger than a piece of the read
/// that appends it, `HealthSQLiteStorage.pendingPieceBytes`) is finished by the next open.
/// Both layouts of the pending row: the record written whole, and written in pieces from the
/// journal's head (`HealthSQLiteStorage.pendingWriting`, made small enough for this record).
@Suite struct StreamedHealthImportCrashTests {
  @Test(arguments: [false, true])
  func aCrashAtEveryWriteKeepsTheWholeImportOrNone(inPieces: Bool) throws {
    let writing = HealthSQLiteStorage.PendingWriting(
      fromBytes: inPieces ? 0 : .max, pieceBytes: inPieces ? 4_093 : 1 << 20)
    try HealthSQLiteStorage.$pendingWriting.withValue(writing) {
      try crashAtEveryWrite(inPieces: inPieces)
    }
  }

  func crashAtEveryWrite(inPieces: Bool) throws {
    let files = TemporaryStoreDirectory()
    let base = TemporaryStoreDirectory()
    let whole = TemporaryStoreDirectory()
    defer { [files, base, whole].forEach { $0.remove() } }
    let halves = Array(0..<(ImportedWeights.blockSize + 5))
    StreamedImportTests.write(
      StreamedHealthImportTests.export(halves), named: "up.xml", in: files)
    let script = "import \(files.file("up.xml")) types weight,steps"
    CommandTransactionTests.run("", in: base.path)
    let before = try CommandTransactionTests.state(of: base.path)
    #expect(before.entries.isEmpty)

    base.copy(to: whole)
    let counter = WriteFaultInjector()
    let (_, runs) = try WriteFaultInjector.$current.withValue(counter) {
      try StreamedImportTests.run(script, in: whole.path)
    }
    #expect(runs == 1, "the weights streamed")
    let after = try CommandTransactionTests.state(of: whole.path)
    #expect(after.entries.count == halves.count)
    #expect(after.health.count == halves.count)
    let pending = try HealthSQLiteStorage(
      path: whole.file(HealthSQLiteStorage.fileName), creating: false)
    let record = try #require(try pending.pendingRecordSummary().record)
    let kept = try pending.queue.inDatabase { db in
      try Int64.fetchOne(db, sql: "SELECT count(*) FROM meta WHERE key = 'pending_crc'")
    }
    #expect(kept == (inPieces ? 1 : 0), "the layout of the pending row")
    try? pending.close()
    #expect(record.byteCount > HealthSQLiteStorage.pendingPieceBytes, "read in pieces")

    var finishedByTheOpen = 0
    for crashAt in 0..<counter.count {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      base.copy(to: directory)
      let injector = WriteFaultInjector(remaining: crashAt)
      let printed = WriteFaultInjector.$current.withValue(injector) {
        CommandTransactionTests.run(script, in: directory.path)
      }
      #expect(injector.crashed, "call \(crashAt) of \(counter.count) was not reached")
      if printed.contains("the command is saved (health.sqlite committed it)") {
        finishedByTheOpen += 1
      }
      let state = try CommandTransactionTests.state(of: directory.path)
      let none = state.entries == before.entries && state.health == before.health
      let all = state.entries == after.entries && state.health == after.health
      #expect(
        none || all,
        "crash at call \(crashAt): \(state.entries.count) entries, \(state.health.count) samples")
      let errors = Store.check(.directory(directory.path), tables: Session.storeTables).filter {
        $0.severity == .error
      }
      #expect(errors.isEmpty, "crash at call \(crashAt): \(errors)")
      #expect(StoreCheck.run(.directory(directory.path)).ok, "crash at call \(crashAt)")
    }
    // The append's write and its sync.
    #expect(finishedByTheOpen >= 1, "a kill falls between the COMMIT and the journal's append")
  }
}
