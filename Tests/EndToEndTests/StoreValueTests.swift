import Foundation
import Testing

/// Values in a store's files are checked when they are read, by loading and by `weigh check`
/// alike: a hand-edited store with a number out of its range or a value of the wrong type
/// makes every command exit 65 with the file, line and column of the value, and nothing in
/// the store changes.
@Suite struct StoreValueTests {
  /// A store with an entry, settings, a sync, a Health sample, an observer and a
  /// simulation, as weigh writes them.
  static func makeStore() throws -> String {
    let store = WeighProcess.temporaryDirectory() + "/store"
    let made = try WeighProcess.run(
      baseArguments(store) + [
        "--seed", "1", "-e", "log 70kg at 2026-01-09 07:00", "-e", "set height 180cm", "-e",
        "health add 70.6kg at 2026-01-09 06:00 source Other", "-e", "sync all", "-e",
        "observe on", "-e", "simulate scale every 1d start 70kg", "-e", "set backoff 2min",
      ])
    try #require(made.status == 0, "\(made.standardError)")
    return store
  }

  static func baseArguments(_ store: String) -> [String] {
    ["--store", store, "--tz", "UTC", "--clock", "2026-01-10T08:00Z"]
  }

  /// Every file of the store and its bytes.
  static func snapshot(_ store: String) -> [String: Data] {
    var files: [String: Data] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: store)) ?? []
    where name != "weigh.lock" {
      files[name] = FileManager.default.contents(atPath: store + "/" + name)
    }
    return files
  }

  /// The 1-based line and column of the byte `offset` in `text`, counting columns in
  /// Unicode scalars as weigh does.
  /// The CRC-32 (IEEE, as zip and the store use it) of `bytes`.
  static func crc32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  /// `text` with the checksum of every line that ends in `,"crc":"…"}` computed again.
  static func sealed(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      guard line.hasSuffix("\"}"), let suffix = line.range(of: ",\"crc\":\"", options: .backwards)
      else { return String(line) }
      let crc = String(crc32(Array(line[..<suffix.lowerBound].utf8)), radix: 16)
      let padded = String(repeating: "0", count: 8 - crc.count) + crc
      return line[..<suffix.lowerBound] + ",\"crc\":\"" + padded + "\"}"
    }.joined(separator: "\n")
  }

  /// Makes `journal.ack` acknowledge the journal's whole length again.
  static func acknowledge(_ store: String) throws {
    let path = store + "/journal.ack"
    let ack = try String(contentsOfFile: path, encoding: .utf8)
    let length =
      try FileManager.default.attributesOfItem(atPath: store + "/journal.jsonl")[
        .size] as! Int
    let body = ack.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(
      of: #""length":[0-9]+"#, with: "\"length\":\(length)", options: .regularExpression)
    var line = sealed(body)
    let padding = ack.count - line.count - 1
    if padding > 0 { line += String(repeating: " ", count: padding) }
    try (line + "\n").write(toFile: path, atomically: false, encoding: .utf8)
  }

  static func position(of offset: String.Index, in text: String) -> (line: Int, column: Int) {
    let before = text[..<offset]
    let line = before.filter { $0 == "\n" }.count + 1
    let lineStart = before.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
    return (line, text[lineStart..<offset].unicodeScalars.count + 1)
  }

  struct Damage: CustomStringConvertible, Sendable {
    var file = "journal.jsonl"
    var member: String
    var original: String
    var replacement: String
    var message: String
    var description: String { "\(member): \(original) → \(replacement)" }
  }

  /// Health's sample and state are in `health.sqlite` (docs/store.md), not in these JSON
  /// files: their values go through the same codecs there (`HealthRecordCodec`,
  /// `HealthStateDocument`), checked by `Tests/WeighKitTests/Store/HealthSQLite*Tests.swift`.
  static let damages: [Damage] = [
    Damage(
      member: "\"kg\":", original: "70.0", replacement: "1e19",
      message: #""kg" is 1e19, out of range: a weight is more than 0 and at most 1000 kg"#),
    Damage(
      member: "\"kg\":", original: "70.0", replacement: "1e308",
      message: #""kg" is 1e308, out of range: a weight is more than 0 and at most 1000 kg"#),
    Damage(
      member: "\"rev\":", original: "1", replacement: "9223372036854775807",
      message:
        #""rev" is 9223372036854775807, out of range: a revision is a whole number from 1 to 2147483647"#
    ),
    Damage(
      member: "\"height_m\":", original: "1.8", replacement: "\"tall\"",
      message:
        #"in document "settings": "height_m" must be a number (a height is 0.3 to 3 m), not a string"#
    ),
    Damage(
      member: "\"unit\":", original: "\"kg\"", replacement: "\"parsec\"",
      message: #"in document "settings": "unit" must be one of "kg", "lb", "st", not "parsec""#),
    Damage(
      member: "\"anchor\":", original: "1", replacement: "1e20",
      message:
        #"in document "app": "anchor" is 1e+20, out of range: an anchor is a whole number from 0 to 9007199254740991"#
    ),
    Damage(
      member: "\"tz\":", original: "\"Etc/UTC\"", replacement: "\"Mars/Base\"",
      message:
        #"in document "settings": "tz" is "Mars/Base", which is not a time zone name such as "Europe/Paris""#
    ),
  ]

  @Test(arguments: damages)
  func aDamagedValueStopsEveryCommandWithItsPositionAndChangesNothing(damage: Damage) throws {
    let store = try Self.makeStore()
    defer {
      try? FileManager.default.removeItem(atPath: (store as NSString).deletingLastPathComponent)
    }
    let path = store + "/" + damage.file
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let target = damage.member + damage.original
    try #require(text.contains(target), "the store no longer holds \(target)")
    let damaged = text.replacingOccurrences(of: target, with: damage.member + damage.replacement)
    // The damage is sealed with fresh checksums (and the acknowledged length), as a program
    // that rewrote the record would leave it, so that the value check is what finds it.
    try Self.sealed(damaged).write(toFile: path, atomically: false, encoding: .utf8)
    if damage.file == "journal.jsonl" { try Self.acknowledge(store) }
    // Lines are read in order, so the first damaged value is the one reported.
    let first = damaged.range(of: damage.member + damage.replacement)!
    let (line, column) = Self.position(
      of: damaged.index(first.lowerBound, offsetBy: damage.member.count), in: damaged)
    let location = "\(path):\(line):\(column): "
    let before = Self.snapshot(store)

    for command in ["list", "stats weekly", "chart", "health list", "sync all", "log 71kg"] {
      let run = try WeighProcess.run(Self.baseArguments(store) + ["-e", command])
      #expect(run.status == 65, "\(command): \(run.standardError)")
      #expect(
        run.standardError.contains(location + "error: cannot read the store: " + damage.message),
        "\(command): \(run.standardError)")
      #expect(run.standardOutput.isEmpty, "\(command)")
    }
    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.status == 65, "\(check.standardOutput)\(check.standardError)")
    #expect(
      check.standardOutput.contains(location + "error: " + damage.message),
      "\(check.standardOutput)")
    #expect(Self.snapshot(store) == before, "a command wrote to the damaged store")
  }

  @Test func aDocumentInWeighJsonIsCheckedToo() throws {
    let store = try Self.makeStore()
    defer {
      try? FileManager.default.removeItem(atPath: (store as NSString).deletingLastPathComponent)
    }
    let path = store + "/weigh.json"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let damaged = text.replacingOccurrences(
      of: "\"documents\": {}", with: "\"documents\": {\n    \"app\": {\"sync_count\": \"3\"}\n  }")
    try #require(damaged != text, "weigh.json no longer has empty documents: \(text)")
    try damaged.write(toFile: path, atomically: false, encoding: .utf8)
    let (line, column) = Self.position(of: damaged.range(of: "\"3\"")!.lowerBound, in: damaged)
    let location = "\(path):\(line):\(column): "
    let before = Self.snapshot(store)
    let message =
      #"in document "app": "sync_count" must be a number (a count is a whole number from 0 to 9007199254740991), not a string"#

    let run = try WeighProcess.run(Self.baseArguments(store) + ["-e", "list"])
    #expect(run.status == 65)
    #expect(
      run.standardError.contains(location + "error: cannot read the store: " + message),
      "\(run.standardError)")
    // The store's line is shown with a caret under the value, as a script's would be.
    let shownLine = damaged.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
    let caret = String(repeating: " ", count: column - 1) + "^"
    #expect(run.standardError.contains("\n\(shownLine)\n\(caret)\n"), "\(run.standardError)")
    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.status == 65)
    #expect(
      check.standardOutput.contains(location + "error: " + message), "\(check.standardOutput)")
    #expect(Self.snapshot(store) == before)
  }

  @Test func aRowInACompactedTableIsCheckedWhenTheFileChanged() throws {
    let store = WeighProcess.temporaryDirectory() + "/store"
    defer {
      try? FileManager.default.removeItem(atPath: (store as NSString).deletingLastPathComponent)
    }
    // Long notes make the journal outgrow its limit, so compaction writes entries.json.
    let note = String(repeating: "x", count: 8_000)
    let script = (0..<140).map {
      "log 70.\($0 % 10)kg at 2026-01-0\($0 % 9 + 1) 07:\(String(format: "%02d", $0 % 60)) note \"\(note)\"\n"
    }
    let made = try WeighProcess.run(Self.baseArguments(store), input: script.joined())
    try #require(made.status == 0, "\(made.standardError)")
    let path = store + "/entries.json"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try #require(text.contains("\"kg\":70.0,"), "compaction wrote no entries.json")
    let damaged = text.replacingOccurrences(of: "\"kg\":70.0,", with: "\"kg\":1e19,")
    try damaged.write(toFile: path, atomically: false, encoding: .utf8)
    // The row's checksum finds the change before its value is read (the value check itself
    // is covered by EntryCodecTests): the position is the row's line.
    let (line, _) = Self.position(of: damaged.range(of: "\"kg\":1e19")!.lowerBound, in: damaged)
    let location = "\(path):\(line):1: "
    let message = "the row does not match its checksum"
    let before = Self.snapshot(store)

    for command in ["list", "log 71kg"] {
      let run = try WeighProcess.run(Self.baseArguments(store) + ["-e", command])
      #expect(run.status == 65, "\(command): \(run.standardError)")
      #expect(
        run.standardError.contains(location + "error: cannot read the store: " + message),
        "\(run.standardError)")
    }
    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.status == 65)
    #expect(
      check.standardOutput.contains(location + "error: " + message), "\(check.standardOutput)")
    #expect(Self.snapshot(store) == before)
  }

  @Test func anUndamagedStoreChecksAndLoads() throws {
    let store = try Self.makeStore()
    defer {
      try? FileManager.default.removeItem(atPath: (store as NSString).deletingLastPathComponent)
    }
    let check = try WeighProcess.run(["check", "--store", store])
    #expect(check.status == 0, "\(check.standardOutput)")
    let list = try WeighProcess.run(Self.baseArguments(store) + ["-e", "list"])
    #expect(list.status == 0, "\(list.standardError)")
    #expect(list.standardOutput.contains("70.6 kg"))
  }
}
