import Foundation
import Testing

@testable import WeighKit

/// `import … types …` saves Health's samples a batch at a time as the file is read
/// (`HealthImportPlan`): what it holds does not grow with the file, and what it prints and
/// keeps is the same whatever the batch size, on a memory store and a directory store.
@Suite struct HealthImportBatchTests {
  static let goldenFiles = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "golden/files")

  /// Where a session keeps its store.
  enum Kind: CaseIterable, CustomStringConvertible {
    case memory, directory
    var description: String { self == .memory ? "memory" : "directory" }
  }

  /// A session importing `batch` samples at a time, on a store of `kind` (a directory store
  /// in `folder`), running scripts from `directory`.
  final class Run {
    let output = CapturedOutput()
    let session: Session
    let directory: String

    init(_ kind: Kind, batch: Int? = nil, folder: URL, directory: String) throws {
      var options = SessionOptions.golden
      if kind == .directory { options.store = .directory(folder.appending(path: "store").path) }
      if let batch { options.healthImportBatchSize = batch }
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      session = try Session(options: options, output: output)
      self.directory = directory
    }

    /// What `script` printed.
    @discardableResult
    func run(_ script: String) -> String {
      let start = output.text.endIndex
      _ = session.run(script: script, display: "batch.wcfg", directory: directory)
      return String(output.text[start...])
    }
  }

  /// The opening of an export.xml: apple-types.xml up to its first record.
  static func header() throws -> String {
    let text = try String(
      contentsOf: goldenFiles.appending(path: "apple-types.xml"), encoding: .utf8)
    let cut = try #require(text.range(of: " <Record"))
    return String(text[..<cut.lowerBound])
  }

  /// A step-count record `minute` minutes after 2025-11-01 00:00 UTC (within 60 days).
  static func steps(_ minute: Int, value: Int? = nil, source: String = "Phone") -> String {
    func date(_ minute: Int) -> String {
      let day = minute / 1440
      let (month, dayOfMonth) = day < 30 ? (11, day + 1) : (12, day - 29)
      let time = minute % 1440
      return String(
        format: "2025-%02d-%02d %02d:%02d:00 +0000", month, dayOfMonth, time / 60, time % 60)
    }
    return
      "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(source)\" unit=\"count\" startDate=\"\(date(minute))\" endDate=\"\(date(minute + 1))\" value=\"\(value ?? 100 + minute % 37)\"/>"
  }

  /// Writes an export.xml of `records` to `folder`; returns its name.
  static func write(_ records: [String], _ name: String, in folder: URL, truncated: Bool = false)
    throws -> String
  {
    var text = try header() + records.joined(separator: "\n") + "\n</HealthData>\n"
    if truncated { text = String(text.dropLast(30)) }
    try text.write(to: folder.appending(path: name), atomically: true, encoding: .utf8)
    return name
  }

  /// The golden scripts of `import … types …` print the same, byte for byte, with one sample
  /// a batch, a few, or the whole file in one (the golden tests' own run), on both stores:
  /// repeats within the file across batches, samples Health already has, samples after the
  /// clock, refused records, repairs and broken files alike.
  @Test(arguments: ["import-types", "import-types-errors", "apple-ios8-repairs"])
  func goldenScriptsPrintTheSameWhateverTheBatch(_ name: String) throws {
    let script = try String(
      contentsOf: Self.goldenFiles.appending(path: name + ".wcfg"), encoding: .utf8)
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = try Run(.memory, folder: folder, directory: Self.goldenFiles.path).run(script)
    for kind in Kind.allCases {
      for batch in [1, 2, 3, 7] {
        let run = try Run(
          kind, batch: batch, folder: folder.appending(path: "\(kind)-\(batch)"),
          directory: Self.goldenFiles.path)
        #expect(run.run(script) == whole, "\(name), \(kind) store, batches of \(batch)")
        run.session.close()
      }
    }
  }

  /// The most samples held at once is the batch size, however long the file; one batch
  /// holds the whole file.
  @Test func heldSamplesDoNotGrowWithTheFile() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    for count in [250, 1000, 3000] {
      let file = try Self.write(
        (0..<count).map { Self.steps($0) }, "steps-\(count).xml", in: folder)
      for kind in Kind.allCases {
        let run = try Run(
          kind, batch: 100, folder: folder.appending(path: "\(kind)-\(count)"),
          directory: folder.path)
        let said = run.run("import \(file) types steps")
        #expect(
          said.contains("Health: imported \(count) (steps \(count)), already present 0, rejected 0")
        )
        let held = try #require(run.session.lastHealthImport)
        #expect(held.mostHeld == 100, "\(count) samples, \(kind) store")
        #expect(held.batches == (count + 99) / 100)
        run.session.close()
      }
    }
    // The counter counts: in one batch, the whole file is held.
    let file = try Self.write((0..<3000).map { Self.steps($0) }, "one.xml", in: folder)
    let run = try Run(.memory, folder: folder, directory: folder.path)
    run.run("import \(file) types steps")
    #expect(run.session.lastHealthImport?.mostHeld == 3000)
    #expect(run.session.lastHealthImport?.batches == 1)
  }

  /// Repeats are found across batch boundaries (within the file, and against what Health
  /// had before: `health add` and an earlier import), another source or value is a new
  /// sample, and importing again adds nothing.
  /// Once health.sqlite exists (after the first batch of a new store), an import that saves
  /// new samples into a `record` table that had rows lets SQLite keep 64 MiB of its pages,
  /// not the default 2 MiB, for the rest of the command (docs/performance.md, "The all-types
  /// import: a larger page cache"); a one-batch import into a new store leaves the default.
  /// (A new store's first Health command writes a file built aside, whose connection its
  /// commit closes: the import runs after a `health add` to look at the cache of the
  /// connection it widened.)
  @Test func theImportWidensHealthsPageCache() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try Self.write((0..<300).map { Self.steps($0) }, "steps.xml", in: folder)
    let small = try Run(.directory, folder: folder.appending(path: "one"), directory: folder.path)
    small.run("import \(file) types steps")
    let defaultSize = try #require(small.session.healthSQLite).pageCacheKibibytes()
    #expect(defaultSize < HealthImportPlan.pageCacheMebibytes * 1024)
    small.session.close()
    let run = try Run(
      .directory, batch: 100, folder: folder.appending(path: "three"), directory: folder.path)
    _ = run.run("health add 70kg at 2020-01-01 08:00 source A")
    #expect(run.run("import \(file) types steps").contains("Health: imported 300 (steps 300)"))
    let sqlite = try #require(run.session.healthSQLite)
    #expect(try sqlite.pageCacheKibibytes() == HealthImportPlan.pageCacheMebibytes * 1024)
    #expect(run.session.lastHealthImportPageCache == HealthImportPlan.pageCacheMebibytes)
    run.session.close()
  }

  /// A new store's import in several batches fills an empty `record` table, whose inserts
  /// land at right edges: from its second batch it keeps `fillingPageCacheMebibytes` of
  /// health.sqlite's pages, not 64 MiB (hread21: the 64 MiB cache was what grew with a large
  /// export). The same file again, every sample present, leaves SQLite's default cache on the
  /// connection it reads, and so does one more with nothing new after a `health add`; a file
  /// with new samples then widens it to 64 MiB. The samples kept are the same as in one batch.
  @Test func aNewStoresImportKeepsASmallPageCache() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try Self.write((0..<300).map { Self.steps($0) }, "steps.xml", in: folder)
    let run = try Run(
      .directory, batch: 100, folder: folder.appending(path: "batches"), directory: folder.path)
    #expect(run.run("import \(file) types steps").contains("Health: imported 300 (steps 300)"))
    #expect(HealthImportPlan.fillingPageCacheMebibytes < HealthImportPlan.pageCacheMebibytes)
    #expect(run.session.lastHealthImportPageCache == HealthImportPlan.fillingPageCacheMebibytes)
    let again = run.run("import \(file) types steps")
    #expect(again.contains("Health: imported 0, already present 300, rejected 0"))
    #expect(run.session.lastHealthImportPageCache == nil)
    let sqlite = try #require(run.session.healthSQLite)
    #expect(try sqlite.pageCacheKibibytes() < HealthImportPlan.fillingPageCacheMebibytes * 1024)
    run.run("health add 70kg at 2020-01-01 08:00 source A")
    run.run("import \(file) types steps")
    #expect(run.session.lastHealthImportPageCache == nil)
    let more = try Self.write((300..<500).map { Self.steps($0) }, "more.xml", in: folder)
    #expect(run.run("import \(more) types steps").contains("Health: imported 200 (steps 200)"))
    #expect(run.session.lastHealthImportPageCache == HealthImportPlan.pageCacheMebibytes)
    let batched = run.run("health list steps")
    run.session.close()
    let whole = try Run(.directory, folder: folder.appending(path: "whole"), directory: folder.path)
    whole.run("import \(file) types steps")
    whole.run("health add 70kg at 2020-01-01 08:00 source A")
    whole.run("import \(more) types steps")
    #expect(whole.run("health list steps") == batched)
    whole.session.close()
  }

  @Test(arguments: Kind.allCases) func duplicatesAcrossBatchesAndWithHealth(_ kind: Kind) throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // 300 samples, then the first 150 again (in later batches of 100), then the first 10
    // from another source, then 10 with a value one step higher: 20 new.
    var records = (0..<300).map { Self.steps($0) }
    records += (0..<150).map { Self.steps($0) }
    records += (0..<10).map { Self.steps($0, source: "Watch") }
    records += (0..<10).map { Self.steps($0 + 200, value: 100 + ($0 + 200) % 37 + 1) }
    let file = try Self.write(records, "repeats.xml", in: folder)
    // An earlier import has samples 250..<260; `health add` has sample 270 (same source, start
    // and value) and one at 271 with another value.
    let earlier = try Self.write((250..<260).map { Self.steps($0) }, "earlier.xml", in: folder)
    let run = try Run(kind, batch: 100, folder: folder, directory: folder.path)
    #expect(
      run.run("import \(earlier) types steps").contains(
        "Health: imported 10 (steps 10), already present 0, rejected 0"))
    run.run("health add \(100 + 270 % 37)steps at 2025-11-01 04:30 source Phone")
    run.run("health add 5steps at 2025-11-01 04:31 source Phone")
    // 470 records: 300 - 11 already there, 20 new; 150 + 11 repeats.
    #expect(
      run.run("import \(file) types steps").contains(
        "Health: imported 309 (steps 309), already present 161, rejected 0"))
    #expect(run.session.lastHealthImport?.batches == 5)
    #expect(
      run.run("import \(file) types steps").contains(
        "Health: imported 0, already present 470, rejected 0"))
    #expect(run.run("expect health.samples.steps == 321").isEmpty)
    run.session.close()
  }

  /// Samples of one type, source and start second with other values are new, each of them;
  /// a repeat of any of the values is already present, in the same batch or a later one
  /// (`HealthImportPlan.Values` holds the first value alone and the others in an array).
  @Test(arguments: Kind.allCases) func severalValuesAtOneStart(_ kind: Kind) throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let values = [5, 6, 7, 6, 7, 5, 8]
    // Batches of 4: values 5, 6, 7 and a repeat of 6, then repeats of 7 and 5 and a new 8.
    let records = values.map { Self.steps(0, value: $0) } + [Self.steps(1)]
    let file = try Self.write(records, "values.xml", in: folder)
    let run = try Run(kind, batch: 4, folder: folder, directory: folder.path)
    #expect(
      run.run("import \(file) types steps").contains(
        "Health: imported 5 (steps 5), already present 3, rejected 0"))
    #expect(run.run("expect health.samples.steps == 5").isEmpty)
    #expect(
      run.run("import \(file) types steps").contains(
        "Health: imported 0, already present 8, rejected 0"))
    run.session.close()
  }

  /// A file found broken in its last batch, after earlier batches were saved, imports
  /// nothing: Health is as before, also when the store is opened again.
  @Test(arguments: Kind.allCases) func aBrokenLastBatchLeavesHealthAsBefore(_ kind: Kind) throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let before = try Self.write((0..<50).map { Self.steps($0 * 7) }, "before.xml", in: folder)
    let broken = try Self.write(
      (0..<350).map { Self.steps($0) }, "broken.xml", in: folder, truncated: true)
    let run = try Run(kind, batch: 100, folder: folder, directory: folder.path)
    run.run("import \(before) types steps")
    let listed = run.run("health list steps")
    #expect(listed.split(separator: "\n").count == 50)
    let said = run.run("import \(broken) types steps")
    #expect(said.contains("nothing was imported"))
    // Three batches were saved before the file's end was found missing, and rolled back.
    #expect(run.session.lastHealthImport?.batches == 3)
    #expect(run.run("health list steps") == listed)
    // The same batches with the file whole are kept.
    let whole = try Self.write((0..<350).map { Self.steps($0) }, "whole.xml", in: folder)
    #expect(run.run("import \(whole) types steps").contains("imported 300 (steps 300)"))
    run.session.close()
    if kind == .directory {
      let again = try Run(kind, batch: 100, folder: folder, directory: folder.path)
      #expect(again.run("health list steps").split(separator: "\n").count == 350)
      again.session.close()
    }
  }

  /// A batch's starts of a type are read from Health only when Health's newest sample of
  /// the type starts at the batch's first start or later (`nothingStarts`): a sample at that
  /// very second, or later in the batch's span, is found; one a second earlier is not in it.
  @Test(arguments: Kind.allCases) func theNewestSampleDecidesWhetherABatchIsRead(_ kind: Kind)
    throws
  {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try Self.write((5..<10).map { Self.steps($0) }, "late.xml", in: folder)
    /// Imports `file` into a new store holding steps at `minutes` past midnight (each with
    /// the value the file has then) and returns what the import said.
    func imported(after minutes: [Int], in name: String) throws -> String {
      let run = try Run(
        kind, batch: 100, folder: folder.appending(path: name), directory: folder.path)
      defer { run.session.close() }
      for minute in minutes {
        run.run("health add \(100 + minute % 37)steps at 2025-11-01 00:0\(minute) source Phone")
      }
      let said = run.run("import \(file) types steps")
      // The file's five, and those added before the file's first minute.
      let kept = 5 + minutes.count { $0 < 5 }
      #expect(run.run("expect health.samples.steps == \(kept)").isEmpty)
      return said
    }
    // Health's newest at the first start (00:05) and with the same value: already present.
    #expect(
      try imported(after: [5], in: "a").contains(
        "Health: imported 4 (steps 4), already present 1, rejected 0"))
    // Newest in the batch's span, after an older one: both found.
    #expect(
      try imported(after: [6, 8], in: "b").contains(
        "Health: imported 3 (steps 3), already present 2, rejected 0"))
    // Newest a minute before the batch: nothing of the batch is there.
    #expect(
      try imported(after: [4], in: "c").contains(
        "Health: imported 5 (steps 5), already present 0, rejected 0"))
  }
}
