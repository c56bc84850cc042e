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
}
