import Foundation

/// Entry points for fuzzing: each takes arbitrary bytes and runs one part of weigh on them.
///
/// Errors are expected and swallowed; only a crash (a trap, a sanitizer report, a hang) is
/// a finding. Nothing outside a private temporary directory is read or written. The libFuzzer
/// executables in `Fuzz/` and the corpus replay in `FuzzCorpusTests` both call `run`.
///
/// Some inputs are skipped (see `FuzzTargets.Target.skips`) only to keep a run at thousands
/// of executions per second and inside the temporary directory; the product's own limits
/// are not changed by them.
public enum FuzzTargets {
  /// One fuzz target: what its bytes are fed to.
  public enum Target: String, CaseIterable, Sendable {
    /// One line of the language in a fresh in-memory session.
    case interpreterLine = "interpreter-line"
    /// A whole script in a fresh in-memory session.
    case interpreterScript = "interpreter-script"
    /// Apple Health `export.xml` through the streaming parser, then `import`.
    case appleXML = "apple-xml"
    /// Apple Health `export.zip` from a temporary file, then `import`.
    case appleZip = "apple-zip"
    /// Withings `weight.csv`.
    case withingsCSV = "withings-csv"
    /// openScale CSV (2.x and 3.x).
    case openScaleCSV = "openscale-csv"
    /// Fitbit `weight-*.json`.
    case fitbitJSON = "fitbit-json"
    /// weigh's own CSV export.
    case weighCSV = "weigh-csv"
    /// weigh's own JSON export.
    case weighJSON = "weigh-json"
    /// Any CSV through format detection, then the reader detection picks (Renpho, Google
    /// Fit, Samsung Health, Garmin, Libra, MyFitnessPal, Fitbit's account CSV, a CSV of the
    /// user's own, and the vendors above).
    case csvAny = "csv-any"
    /// A CSV of the user's own read with options: the first line is what follows
    /// `import data.csv as csv`, the rest is the file.
    case genericCSV = "generic-csv"
    /// A store directory made of the input: the files of `storeFiles`, separated by NUL bytes.
    case storeLoader = "store-loader"

    /// The longest input worth running; libFuzzer's `-max_len` is set from it.
    public var maximumLength: Int {
      switch self {
      case .interpreterLine: 256
      case .interpreterScript: 2048
      case .storeLoader: 8192
      default: 16384
      }
    }
  }

  /// The files a `storeLoader` input is split into, in order, at NUL bytes; a missing or
  /// empty part leaves its file out.
  public static let storeFiles = [
    "weigh.json", "journal.jsonl", "entries.json", "health.json", "health-sync.json",
  ]

  /// The commands `storeLoader` runs on the store once it opened.
  static let storeCommands = """
    list
    health list
    health list all
    stats
    summary
    trend
    chart
    sync all
    log 70kg
    edit last 71kg
    undo
    list
    """

  /// What an importer target runs after importing the file named `file`: the analyses, and
  /// edits of the entries numbered `entries` (weigh's own files keep their numbers).
  /// `options` follow the file name (`unit kg`, `as csv date Day`).
  static func importScript(
    _ file: String, types: Bool, entries: [Int] = [1], options: String = ""
  ) -> String {
    let edits = entries.map { "edit #\($0) 72kg\n" }.joined()
    let typeList = types ? " types weight,glucose,steps,energy,exercise,workouts" : ""
    return """
      import \(file)\(typeList)\(options.isEmpty ? "" : " " + options)
      list
      stats
      summary
      edit last 72kg
      \(edits)undo
      health list all
      sync all
      list

      """
  }

  /// Runs `target` on `bytes`; returns only if weigh survived them, true unless the input
  /// was skipped (too long, naming paths outside the scratch directory, or too expensive).
  @discardableResult
  public static func run(_ target: Target, _ bytes: [UInt8]) -> Bool {
    guard bytes.count <= target.maximumLength else { return false }
    switch target {
    case .interpreterLine:
      // One line: everything after the first line break is ignored.
      let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
      return interpret(Array(line))
    case .interpreterScript: return interpret(bytes)
    case .appleXML: appleXML(bytes)
    case .appleZip: appleZip(bytes)
    case .withingsCSV:
      parseThenImport(bytes, file: "weight.csv") {
        try WithingsCSVImporter.importWeights($0, zone: .utc)
      }
    case .openScaleCSV:
      parseThenImport(bytes, file: "openscale.csv") {
        try OpenScaleCSVImporter.importWeights($0, zone: .utc, unit: .kg)
      }
    case .fitbitJSON:
      FuzzWindowCheck.check(bytes, streaming: .document, keys: FitbitJSONImporter.keys)
      parseThenImport(bytes, file: "weight-2025-12-01.json") {
        try FitbitJSONImporter.importWeights($0, zone: .utc, unit: .kg)
      }
    case .weighCSV:
      parseThenImport(bytes, file: "entries.csv") { try WeighCSVImporter.importWeights($0) }
    case .weighJSON:
      FuzzWindowCheck.check(bytes, streaming: .member("entries"), keys: WeighJSONImporter.keys)
      parseThenImport(bytes, file: "entries.json") { try WeighJSONImporter.importWeights($0) }
    case .csvAny: csvAny(bytes)
    case .genericCSV: return genericCSV(bytes)
    case .storeLoader: storeLoader(bytes)
    }
    return true
  }

  // MARK: Interpreter

  /// Runs `bytes` as a script in a fresh in-memory golden session whose folder is the
  /// scratch directory.
  static func interpret(_ bytes: [UInt8]) -> Bool {
    // Invalid UTF-8 becomes U+FFFD: the interpreter only ever sees text (reading files is
    // the caller's part).
    let text = String(decoding: bytes, as: UTF8.self)
    guard !leavesScratch(text), !isExpensive(text) else { return false }
    let directory = scratch()
    defer { clear(directory) }
    runScript(text, options: .golden, directory: directory)
    return true
  }

  /// Whether the text names a path that could lead outside the scratch directory (absolute,
  /// home-relative or with `..`), which a fuzzer must not read or write.
  static func leavesScratch(_ text: String) -> Bool {
    if text.contains("..") || text.contains("~") || text.contains("\\") { return true }
    var previous: Character = " "
    for character in text {
      if character == "/", !(previous.isLetter || previous.isNumber) { return true }
      previous = character
    }
    return false
  }

  /// Whether the text asks for work that takes seconds by design (long repeats, long
  /// simulated time), which would only slow the fuzzer down.
  static func isExpensive(_ text: String) -> Bool {
    let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "{" })
    var repeats = 0
    for (index, word) in words.enumerated() {
      let lowered = word.lowercased()
      if lowered == "repeat" {
        repeats += 1
        // A repeat inside a repeat multiplies; two levels of 50 are plenty.
        if repeats > 2 { return true }
        // checked: parses text
        if index + 1 < words.count, let count = Int(words[index + 1]), count > 50 { return true }
      }
      if lowered == "advance" || lowered == "every" || lowered == "older-than" {
        // Simulations and observers do work per step of simulated time; keep it short.
        if index + 1 < words.count, let amount = Double(words[index + 1].prefix { $0.isNumber }),
          amount > 400
        {
          return true
        }
      }
    }
    return false
  }

  /// Runs a script, swallowing every error (they are reported into a buffer).
  static func runScript(_ text: String, options: SessionOptions, directory: String) {
    let output = CapturedOutput()
    guard let session = try? Session(options: options, output: output) else { return }
    session.run(script: text, display: "fuzz.wcfg", directory: directory)
    session.close()
  }

  // MARK: Importers

  /// Reads `bytes` with `parse`; when that found weights, imports the same bytes as the
  /// file `file` in a fresh session and uses them.
  static func parseThenImport(
    _ bytes: [UInt8], file: String, parse: ([UInt8]) throws -> WeightImportResult
  ) {
    guard let result = try? parse(bytes), !result.weights.isEmpty else { return }
    let numbers = Set(result.weights.compactMap(\.number)).union([1]).sorted()
    importInSession(bytes, file: file, types: false, entries: Array(numbers.prefix(5)))
  }

  /// Detects the format of a CSV as `import` does and reads it with the reader detection
  /// picks; when that yields weights, imports the file in a session (with `unit kg`, which
  /// MyFitnessPal's export needs) and uses them. Files detection gives to another family
  /// (JSON, Apple Health) are left to their own targets.
  static func csvAny(_ bytes: [UInt8]) {
    let file = "data.csv"
    guard let format = ImportFormat.detect(fileName: file, firstBytes: Array(bytes.prefix(4096))),
      format.family == .csv,
      let result = try? WeightImporter.importWeights(
        bytes, format: format, zone: .utc, unit: .kg, csv: GenericCSVOptions()),
      !result.weights.isEmpty
    else { return }
    importInSession(bytes, file: file, types: false, options: "unit kg")
  }

  /// Splits off the first line as the options of `import data.csv as csv …` and imports the
  /// rest as that file in a session; false when the options leave the scratch directory
  /// or ask for expensive work (they are language text like any line).
  static func genericCSV(_ bytes: [UInt8]) -> Bool {
    let cut = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
    let options = String(decoding: bytes[..<cut].filter { $0 != 0x0D }, as: UTF8.self)
    guard !leavesScratch(options), !isExpensive(options) else { return false }
    let file = Array(bytes[min(cut + 1, bytes.endIndex)...])
    importInSession(file, file: "data.csv", types: false, options: "as csv " + options)
    return true
  }

  /// Feeds an `export.xml` to the parser in two chunks (split where the first byte says, so
  /// tokens cross chunk boundaries), converting what it hands over as `import` does.
  static func appleXML(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let body = Array(bytes.dropFirst())
    let split = body.isEmpty ? 0 : Int(first) % (body.count + 1)  // checked: a byte widens
    var handed = 0
    var plan = HealthImportPlan(types: Set(ImportDataType.allCases))
    let types = Set(ImportDataType.allCases.map(\.sampleType.identifier))
    let parser = AppleHealthExportParser(recordTypes: types.union([healthBodyMassType])) {
      item, line in
      handed += 1
      if case .record(let record) = item, record.type == healthBodyMassType {
        _ = try? AppleHealthWeightImporter.weight(of: record, line: line)
      } else {
        plan.take(item, line: line)
      }
    }
    do {
      try parser.feed(Array(body[..<split]))
      try parser.feed(Array(body[split...]))
      try parser.finish()
    } catch {
      return
    }
    if handed > 0 { importInSession(body, file: "export.xml", types: true) }
  }

  /// Reads an `export.zip` from a temporary file, then imports it in a fresh session.
  static func appleZip(_ bytes: [UInt8]) {
    let directory = scratch()
    defer { clear(directory) }
    let url = URL(fileURLWithPath: directory).appendingPathComponent("export.zip")
    guard (try? Data(bytes).write(to: url)) != nil else { return }
    let result = try? AppleHealthWeightImporter.read(
      url, alsoReading: Set(ImportDataType.allCases.map(\.sampleType.identifier)), workouts: true
    ) { _, _ in }
    guard result != nil else { return }
    runScript(importScript("export.zip", types: true), options: .golden, directory: directory)
  }

  /// Writes `bytes` to `file` in the scratch directory and runs `importScript` on it.
  static func importInSession(
    _ bytes: [UInt8], file: String, types: Bool, entries: [Int] = [1], options: String = ""
  ) {
    let directory = scratch()
    defer { clear(directory) }
    let url = URL(fileURLWithPath: directory).appendingPathComponent(file)
    guard (try? Data(bytes).write(to: url)) != nil else { return }
    runScript(
      importScript(file, types: types, entries: entries, options: options), options: .golden,
      directory: directory)
  }

  // MARK: Store

  /// Builds a store directory from `bytes`, checks it as `weigh check` does, opens it and
  /// reads every table, then runs `storeCommands` in a session on it.
  static func storeLoader(_ bytes: [UInt8]) {
    let directory = scratch()
    defer { clear(directory) }
    let store = directory + "/store"
    guard
      (try? FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: false))
        != nil
    else { return }
    let parts = bytes.split(separator: 0, omittingEmptySubsequences: false)
    for (name, part) in zip(storeFiles, parts) where !part.isEmpty {
      try? Data(part).write(to: URL(fileURLWithPath: store + "/" + name))
    }
    let location = StoreLocation.directory(store)
    _ = StoreCheck.run(location)
    let tables: [any StoreTableCodec.Type] = [HealthRecordCodec.self, HealthSyncIndexCodec.self]
    if let opened = try? Store.open(location, tables: tables, lockTimeout: .zero) {
      _ = try? opened.entries()
      _ = try? opened.rows(HealthRecordCodec.self)
      _ = try? opened.rows(HealthSyncIndexCodec.self)
      _ = opened.nextID()
      opened.close()
    }
    var options = SessionOptions.golden
    options.store = location
    options.lockTimeout = 0
    runScript(storeCommands, options: options, directory: directory)
  }

  // MARK: Scratch directory

  /// This process's scratch directory, made on first use.
  static func scratch() -> String {
    scratchDirectory
  }

  private static let scratchDirectory: String = {
    let path = NSTemporaryDirectory() + "weigh-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    // Gone when the process ends normally; scripts/fuzz.sh removes what crashed runs leave.
    atexit { try? FileManager.default.removeItem(atPath: FuzzTargets.scratchDirectory) }
    return path
  }()

  /// Empties the scratch directory, so no run sees what an earlier one wrote.
  static func clear(_ directory: String) {
    let files = FileManager.default
    for name in (try? files.contentsOfDirectory(atPath: directory)) ?? [] {
      try? files.removeItem(atPath: directory + "/" + name)
    }
  }
}
