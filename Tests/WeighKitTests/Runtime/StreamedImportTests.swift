import Foundation
import Testing

@testable import WeighKit

/// An import into a log without entries streams its weights into the store as the file is
/// read (`ImportStream`, `Store.streamRun`): the store it leaves is byte for byte the one the
/// usual import (every weight held, then the plan, then the commit) leaves for the same
/// weights, and whatever cannot be streamed (a file out of time order, a broken file) is
/// read the usual way or leaves the store as it was.
@Suite struct StreamedImportTests {
  /// A Withings CSV of `minutes` (one weight each, minutes after 2015-01-01 00:00), in order.
  static func withings(_ minutes: [Int]) -> String {
    var text =
      "Date,\"Weight (kg)\",\"Fat mass (kg)\",\"Bone mass (kg)\",\"Muscle mass (kg)\",\"Hydration (kg)\",Comments\n"
    let start = 1_420_070_400
    for minute in minutes {
      let date = Date(timeIntervalSince1970: TimeInterval(start + minute * 60))
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC")!
      let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
      let stamp = String(
        format: "%04d-%02d-%02d %02d:%02d:00", c.year!, c.month!, c.day!, c.hour!, c.minute!)
      let kilograms = String(format: "%.2f", 60 + Double(minute * 37 % 4000) / 100)
      text += "\"\(stamp)\",\(kilograms),15.10,3.10,52.40,39.80,\n"
    }
    return text
  }

  /// Weigh's own CSV or JSON of entries numbered as `rows` says, each at its minute after
  /// 2015-01-01 00:00 (within January), the one numbered `linked` with a Health UUID.
  static func weigh(_ rows: [(id: Int, minute: Int)], json: Bool, linked: Int) -> String {
    var text =
      json
      ? "{\"format\": \"weigh\", \"version\": 1, \"entries\": [\n"
      : WeighCSVExporter.header + "\n"
    for (index, (id, minute)) in rows.enumerated() {
      let instant = String(
        format: "2015-01-%02dT%02d:%02d:00Z", 1 + minute / 1440, minute % 1440 / 60, minute % 60)
      let kilograms = String(format: "%.2f", 60 + Double(minute * 37 % 4000) / 100)
      let uuid = id == linked ? "0B1E5F0A-3C4D-4E5F-8A9B-0C1D2E3F4A5B" : nil
      if json {
        let link = uuid.map { "\"\($0)\"" } ?? "null"
        text +=
          (index == 0 ? "" : ",\n")
          + "{\"id\": \(id), \"instant\": \"\(instant)\", \"kilograms\": \(kilograms), "
          + "\"origin\": \"import\", \"source\": \"Withings\", \"note\": null, \"revision\": 1, "
          + "\"healthUUID\": \(link), \"pushedUUID\": null, \"pushedRevision\": null}"
      } else {
        text += "\(id),\(instant),\(kilograms),import,\"Withings\",,1,\(uuid ?? ""),,\n"
      }
    }
    return json ? text + "\n]}\n" : text
  }

  /// An Apple Health export.xml of a body mass at each of `minutes` (after 2015-01-01 00:00,
  /// within January), in kg, with a step count between each two.
  static func appleExport(_ minutes: [Int]) -> String {
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <HealthData locale="en_US">
       <ExportDate value="2026-01-01 00:00:00 +0100"/>

      """
    for minute in minutes {
      let date = String(
        format: "2015-01-%02d %02d:%02d:00 +0100", 1 + minute / 1440, minute % 1440 / 60,
        minute % 60)
      let kilograms = String(format: "%.2f", 60 + Double(minute * 37 % 4000) / 100)
      text +=
        " <Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"Health Mate\" "
        + "unit=\"kg\" creationDate=\"\(date)\" startDate=\"\(date)\" endDate=\"\(date)\" "
        + "value=\"\(kilograms)\"/>\n"
        + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\" "
        + "unit=\"count\" startDate=\"\(date)\" endDate=\"\(date)\" value=\"12\"/>\n"
    }
    return text + "</HealthData>\n"
  }

  /// Runs `script` in a session on the store in `directory`; returns what it printed and
  /// how many runs its store streamed.
  static func run(_ script: String, in directory: String) throws -> (String, Int) {
    let output = CapturedOutput()
    let session = try HealthOpenTests.session(directory, output: output)
    defer { session.close() }
    session.run(script: script, display: "test", directory: ".")
    return (output.text, session.store.streamedRunsCommitted)
  }

  /// The store's files that an import writes, by name (`weigh.json` holds the table file's
  /// modification time, so it is left out).
  static func files(_ directory: TemporaryStoreDirectory) -> [String: [UInt8]] {
    directory.snapshot().filter {
      ["entries.json", "journal.jsonl", "journal.ack"].contains($0.key)
    }
  }

  /// Expects `streamed` to hold the files of `usual` (`files`) and to check clean.
  static func expectSameStore(
    _ streamed: TemporaryStoreDirectory, as usual: TemporaryStoreDirectory,
    _ comment: Comment? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let sameFiles = files(streamed) == files(usual)
    #expect(sameFiles, comment, sourceLocation: sourceLocation)
    #expect(
      Store.check(.directory(streamed.path), tables: Session.storeTables).isEmpty,
      sourceLocation: sourceLocation)
  }

  /// `weigh.json`'s documents and next entry number (its table's stamp aside), as JSON.
  static func documents(_ directory: TemporaryStoreDirectory) throws -> String {
    let bytes = directory.bytes("weigh.json") ?? []
    let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    let tables = object?["tables"] as? [String: Any]
    let entries = tables?["entries"] as? [String: Any]
    let kept: [String: Any] = [
      "documents": object?["documents"] ?? [:], "nextID": entries?["nextID"] ?? 0,
    ]
    let data = try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }

  static func write(_ text: String, named name: String, in directory: TemporaryStoreDirectory) {
    directory.write(name, Array(text.utf8))
  }

  @Test func aFileInTimeOrderIsStreamedAndLeavesTheStoreTheUsualImportLeaves() throws {
    let files = TemporaryStoreDirectory()
    let streamed = TemporaryStoreDirectory()
    let usual = TemporaryStoreDirectory()
    defer { [files, streamed, usual].forEach { $0.remove() } }
    let minutes = Array(0..<40_000)
    Self.write(Self.withings(minutes), named: "up.csv", in: files)
    // The same weights, newest first: read the usual way, numbered in time order all the same.
    Self.write(Self.withings(minutes.reversed()), named: "dn.csv", in: files)
    let (printed, runs) = try Self.run("import \(files.file("up.csv"))", in: streamed.path)
    let (printedUsual, runsUsual) = try Self.run("import \(files.file("dn.csv"))", in: usual.path)
    #expect(runs == 1)
    #expect(runsUsual == 0)
    #expect(printed.contains("imported 40000, already present 0, rejected 0"))
    #expect(
      printed.replacingOccurrences(of: "up.csv", with: "dn.csv")
        == printedUsual)
    #expect(streamed.bytes("entries.json.tmp") == nil)
    #expect(Self.files(streamed) == Self.files(usual))
    #expect(Store.check(.directory(streamed.path), tables: Session.storeTables).isEmpty)
  }

  @Test func theLogIsReadFromItsFileAfterTheImportAndTheImportUndoes() throws {
    let files = TemporaryStoreDirectory()
    let store = TemporaryStoreDirectory()
    defer { [files, store].forEach { $0.remove() } }
    Self.write(Self.withings(Array(0..<40_000)), named: "up.csv", in: files)
    let path = files.file("up.csv")
    let (printed, runs) = try Self.run(
      """
      import \(path)
      expect entries == 40000
      import \(path)
      undo
      expect entries == 0
      import \(path)
      expect entries == 40000
      """, in: store.path)
    #expect(runs == 1, "the third import goes into a log with a file: not streamed")
    #expect(!printed.contains("error"), "\(printed)")
    #expect(printed.contains("imported 0, already present 40000, rejected 0"))
    #expect(Store.check(.directory(store.path), tables: Session.storeTables).isEmpty)
  }

  /// A weight out of time order after blocks were streamed: the stream is cut off and the
  /// file read again the usual way, with the same store as a file read the usual way.
  @Test func aFileOutOfOrderLateIsReadAgainTheUsualWay() throws {
    let files = TemporaryStoreDirectory()
    let late = TemporaryStoreDirectory()
    let usual = TemporaryStoreDirectory()
    defer { [files, late, usual].forEach { $0.remove() } }
    let minutes = Array(10..<50_000) + [5, 50_001]
    Self.write(Self.withings(minutes), named: "late.csv", in: files)
    Self.write(Self.withings(minutes.reversed()), named: "down.csv", in: files)
    let (printed, runs) = try Self.run("import \(files.file("late.csv"))", in: late.path)
    let (printedUsual, _) = try Self.run("import \(files.file("down.csv"))", in: usual.path)
    #expect(runs == 0)
    #expect(printed.contains("imported 49992, already present 0, rejected 0"))
    #expect(printed.replacingOccurrences(of: "late.csv", with: "down.csv") == printedUsual)
    #expect(late.bytes("entries.json.tmp") == nil)
    #expect(Self.files(late) == Self.files(usual))
  }

  /// Duplicates in the file, rows after the clock and rejected rows while streaming: the
  /// same counts, lines and store as the usual way.
  @Test func duplicatesAndRejectionsCountAsTheUsualImportCountsThem() throws {
    let files = TemporaryStoreDirectory()
    let streamed = TemporaryStoreDirectory()
    let usual = TemporaryStoreDirectory()
    defer { [files, streamed, usual].forEach { $0.remove() } }
    var lines = Self.withings(Array(0..<40_000)).split(separator: "\n").map(String.init)
    lines.insert(lines[20_000], at: 20_001)
    lines.insert("\"2015-02-01 00:00:00\",7000,15.10,3.10,52.40,39.80,", at: 30_000)
    // After the golden clock (2026-01-01).
    let future = "\"2027-01-01 00:00:00\",70.00,15.10,3.10,52.40,39.80,"
    let text = lines.joined(separator: "\n") + "\n" + future + "\n"
    let reversed = ([lines[0], future] + lines.dropFirst().reversed()).joined(separator: "\n")
    Self.write(text, named: "up.csv", in: files)
    Self.write(future + "\n", named: "future.csv", in: files)
    Self.write(reversed + "\n", named: "down.csv", in: files)
    let (printed, runs) = try Self.run("import \(files.file("up.csv"))", in: streamed.path)
    let (printedUsual, _) = try Self.run("import \(files.file("down.csv"))", in: usual.path)
    #expect(runs == 1)
    #expect(printed.contains("imported 40000, already present 1, rejected 2"), "\(printed)")
    #expect(printedUsual.contains("imported 40000, already present 1, rejected 2"))
    #expect(Self.files(streamed) == Self.files(usual))
  }

  /// A file found broken after blocks were streamed: nothing imported, nothing left of the
  /// stream in the store's files, and the store takes the next import.
  @Test func aBrokenFileAfterStreamedBlocksLeavesTheStoreAsItWas() throws {
    let files = TemporaryStoreDirectory()
    let store = TemporaryStoreDirectory()
    defer { [files, store].forEach { $0.remove() } }
    var text = "["
    for minute in 0..<40_000 {
      let (day, hour, min) = (1 + minute / 1440, (minute % 1440) / 60, minute % 60)
      text +=
        "{\"logId\":\(minute + 1),\"weight\":150.0,\"bmi\":23.4,\"fat\":21.5,"
        + "\"date\":\"01/\(String(format: "%02d", day))/15\","
        + "\"time\":\"\(String(format: "%02d:%02d:00", hour, min))\",\"source\":\"Aria\"},\n"
    }
    text += "{\"logId\":0,\"weight\":"
    Self.write(text, named: "weight-broken.json", in: files)
    Self.write(Self.withings(Array(0..<20_000)), named: "up.csv", in: files)
    _ = try Self.run("", in: store.path)
    let before = Self.files(store)
    let (printed, runs) = try Self.run(
      "import \(files.file("weight-broken.json"))", in: store.path)
    #expect(runs == 0)
    #expect(printed.contains("nothing was imported"), "\(printed)")
    #expect(Self.files(store) == before)
    #expect(store.bytes("entries.json.tmp") == nil)
    let (again, runsAgain) = try Self.run("import \(files.file("up.csv"))", in: store.path)
    #expect(runsAgain == 1)
    #expect(again.contains("imported 20000"))
    #expect(Store.check(.directory(store.path), tables: Session.storeTables).isEmpty)
  }

  /// Weigh's own files keep their numbers: streamed when each is greater than the one
  /// before, with gaps or without (with a Health link, which the import records), else read
  /// the usual way, and the store is byte for byte the one the usual import leaves (of the
  /// same rows, last first, which is never streamed), with the same next number.
  @Test func weighFilesStreamWhenTheirNumbersIncrease() throws {
    let files = TemporaryStoreDirectory()
    defer { files.remove() }
    // In order; going back after two blocks (read again); skipping one at the start; every
    // 7th deleted (an export after deletions, gaps in every block and across blocks' ends);
    // going back at the start (read the usual way at once). One a minute in file order: in
    // time order whatever the numbers.
    let cases: [(ids: [Int], streams: Bool, json: Bool)] = [
      (Array(1...40_000), true, false),
      (Array(1...40_000), true, true),
      (Array(1...35_000) + [35_002, 35_001] + Array(35_003...40_000), false, false),
      ([1, 3] + Array(4...40_000), true, true),
      ((1...46_000).filter { $0 % 7 != 0 } + [46_010], true, false),
      ((1...46_000).filter { $0 % 7 != 0 }, true, true),
      ([2, 1] + Array(3...40_000), false, false),
    ]
    for (number, (ids, streams, json)) in cases.enumerated() {
      let (up, down) = (
        "up\(number).\(json ? "json" : "csv")", "dn\(number).\(json ? "json" : "csv")"
      )
      let rows = ids.enumerated().map { (id: $0.element, minute: $0.offset) }
      Self.write(Self.weigh(rows, json: json, linked: 20_000), named: up, in: files)
      Self.write(Self.weigh(rows.reversed(), json: json, linked: 20_000), named: down, in: files)
      let streamed = TemporaryStoreDirectory()
      let usual = TemporaryStoreDirectory()
      defer { [streamed, usual].forEach { $0.remove() } }
      let (printed, runs) = try Self.run("import \(files.file(up))", in: streamed.path)
      let (printedUsual, runsUsual) = try Self.run("import \(files.file(down))", in: usual.path)
      #expect(runs == (streams ? 1 : 0), "\(up)")
      #expect(runsUsual == 0)
      #expect(
        printed.contains("imported \(ids.count), already present 0, rejected 0"), "\(printed)")
      #expect(printed.replacingOccurrences(of: up, with: down) == printedUsual)
      #expect(streamed.bytes("entries.json.tmp") == nil)
      let sameFiles = Self.files(streamed) == Self.files(usual)
      #expect(sameFiles, "\(up)")
      let documents = try Self.documents(streamed)
      #expect(documents == (try Self.documents(usual)))
      #expect(documents.contains("linked_through"), "\(documents)")
      #expect(documents.contains("\"nextID\":\(ids.max()! + 1)"), "\(documents)")
      #expect(Store.check(.directory(streamed.path), tables: Session.storeTables).isEmpty)
      guard number == 4 else { continue }
      // A streamed import with gaps undoes whole: each of its runs of numbers is removed.
      let undone = TemporaryStoreDirectory()
      defer { undone.remove() }
      let (printedUndo, runsUndo) = try Self.run(
        "import \(files.file(up))\nundo\nexpect entries == 0\nlog 70kg\nlist", in: undone.path)
      #expect(runsUndo == 1)
      #expect(printedUndo.contains("undid import"), "\(printedUndo)")
      #expect(!printedUndo.contains("error"), "\(printedUndo)")
      #expect(printedUndo.contains("#\(ids.max()! + 1)"), "the next number stays past the undone")
    }
  }

  /// An Apple Health export's weights (`import FILE`, weights only) stream as a vendor's
  /// file does: the same store as the same records read the usual way (last first).
  @Test func anAppleHealthExportsWeightsStream() throws {
    let files = TemporaryStoreDirectory()
    let streamed = TemporaryStoreDirectory()
    let usual = TemporaryStoreDirectory()
    defer { [files, streamed, usual].forEach { $0.remove() } }
    let minutes = Array(0..<40_000)
    Self.write(Self.appleExport(minutes), named: "up.xml", in: files)
    Self.write(Self.appleExport(minutes.reversed()), named: "dn.xml", in: files)
    let (printed, runs) = try Self.run("import \(files.file("up.xml"))", in: streamed.path)
    let (printedUsual, runsUsual) = try Self.run(
      "import \(files.file("dn.xml"))", in: usual.path)
    #expect(runs == 1)
    #expect(runsUsual == 0)
    #expect(printed.contains("imported 40000, already present 0, rejected 0"), "\(printed)")
    #expect(printed.replacingOccurrences(of: "up.xml", with: "dn.xml") == printedUsual)
    Self.expectSameStore(streamed, as: usual)
  }

  /// A `Date,Weight` file of your own names dates only: 300 rows a date, one date's run across
  /// a block boundary repeating its first row at its end. Streamed, with the repeat found, and
  /// the same store as the same dates last first (each date's rows in their order: the same
  /// entries, in time then line order), which is read the usual way.
  @Test func longRunsOfOneDateStream() throws {
    let files = TemporaryStoreDirectory()
    let streamed = TemporaryStoreDirectory()
    let usual = TemporaryStoreDirectory()
    defer { [files, streamed, usual].forEach { $0.remove() } }
    var dates: [[String]] = []
    for day in 0..<134 {
      let date = Date(timeIntervalSince1970: TimeInterval(1_420_070_400 + day * 86_400))
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC")!
      let c = calendar.dateComponents([.year, .month, .day], from: date)
      let text = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
      var rows = (0..<300).map { "\(text),\(String(format: "%.1f", 40 + Double($0) / 10))" }
      // Date 54 holds rows 16,201 to 16,500: its first again, after the block's end.
      if day == 54 { rows.append(rows[0]) }
      dates.append(rows)
    }
    let header = "Date,Weight\n"
    Self.write(
      header + dates.joined().joined(separator: "\n") + "\n", named: "up.csv", in: files)
    Self.write(
      header + dates.reversed().joined().joined(separator: "\n") + "\n", named: "dn.csv",
      in: files)
    let (printed, runs) = try Self.run(
      "import \(files.file("up.csv")) unit kg", in: streamed.path)
    let (printedUsual, runsUsual) = try Self.run(
      "import \(files.file("dn.csv")) unit kg", in: usual.path)
    #expect(runs == 1)
    #expect(runsUsual == 0)
    #expect(printed.contains("imported 40200, already present 1, rejected 0"), "\(printed)")
    #expect(printed.replacingOccurrences(of: "up.csv", with: "dn.csv") == printedUsual)
    Self.expectSameStore(streamed, as: usual)
  }
}
