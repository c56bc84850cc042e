import Foundation

/// One word completion may put in place of the word being typed.
public struct CompletionCandidate: Equatable, Sendable {
  /// The word that replaces the one being typed.
  public var word: String
  /// What the word stands for, shown beside it (`2026-01-03 07:30  68.5 kg`); empty when
  /// the word says it all.
  public var detail: String

  public init(_ word: String, detail: String = "") {
    self.word = word
    self.detail = detail
  }
}

/// What completion offers beside the grammar's own words: the session's entries and
/// samples (read only when the grammar asks for them), its unit and clock, and the folder
/// file names are read from.
public struct CompletionData {
  /// `#N` for every entry, in numeric order, with its date and weight, then `last`.
  public var entries: () -> [CompletionCandidate] = { [] }
  /// A UUID prefix for every live Health sample, oldest first, with its type and value,
  /// then `last`.
  public var samples: () -> [CompletionCandidate] = { [] }
  public var unit: DisplayUnit = .kg
  public var clock = ZonedClock(zone: .gmt)
  public var now: Int64 = 0
  /// Where relative file names are read from.
  public var directory = "."

  public init() {}
}

/// Tab completion, read from the parser itself: the line before the cursor is parsed with
/// a probe token in place of the word being typed, and the readers that look at the probe
/// report what they would accept there (see ``CompletionProbe``).
public enum Completion {
  /// The candidates for `word`, the word being typed, after `lineBeforeWord`, in the
  /// grammar's order (units in the display unit first, entries in numeric order).
  public static func candidates(lineBeforeWord: String, word: String, data: CompletionData)
    -> [CompletionCandidate]
  {
    let statement = lastStatement(lineBeforeWord)
    guard var tokens = try? Lexer.tokenize(statement) else { return [] }
    let end = statement.utf8.count
    tokens.append(Token(.probe, "", start: end, end: end))
    let probe = CompletionProbe()
    CompletionProbe.$current.withValue(probe) {
      let context = ParseContext(
        file: "<completion>", line: 1, text: statement, clock: data.clock, now: data.now)
      _ = try? CommandTable.parse(tokens, context: context)
    }
    var seen: Set<String> = []
    var result: [CompletionCandidate] = []
    for nextWord in probe.nextWords {
      for candidate in offers(for: nextWord, word: word, data: data)
      where candidate.word.lowercased().hasPrefix(word.lowercased())
        && seen.insert(candidate.word).inserted
      {
        result.append(candidate)
      }
    }
    return result
  }

  /// The statement the cursor is in: the text after the last `;` outside a string.
  static func lastStatement(_ line: String) -> String {
    var start = line.startIndex
    var inString = false
    var escaped = false
    for index in line.indices {
      let character = line[index]
      if escaped {
        escaped = false
      } else if inString, character == "\\" {
        escaped = true
      } else if character == "\"" {
        inString.toggle()
      } else if character == ";", !inString {
        start = line.index(after: index)
      }
    }
    return String(line[start...])
  }

  private static func offers(for nextWord: NextWord, word: String, data: CompletionData)
    -> [CompletionCandidate]
  {
    switch nextWord {
    case .keyword(let keyword): return [CompletionCandidate(keyword)]
    case .command: return CommandTable.names.map { CompletionCandidate($0) }
    case .quantity(let kind):
      guard let number = NumberPrefix(word) else { return [] }
      let digits = String(word.dropLast(number.unit.count))
      return unitNames(kind, display: data.unit).map { CompletionCandidate(digits + $0) }
    case .unit(let kind):
      return unitNames(kind, display: data.unit).map { CompletionCandidate($0) }
    case .rate(let kind):
      guard let number = NumberPrefix(word) else { return [] }
      let digits = String(word.dropLast(number.unit.count))
      let units = unitNames(kind, display: data.unit).filter { $0 != "lbs" && $0 != "g" }
      return units.flatMap { unit in
        ["w", "d"].map { CompletionCandidate("\(digits)\(unit)/\($0)") }
      }
    case .integer, .time: return []
    case .instant:
      return [CompletionCandidate("now", detail: data.clock.minuteText(data.now))]
        + days(data)
    case .date: return days(data)
    case .entry: return data.entries()
    case .sample: return data.samples()
    case .file(let extensions): return files(word, extensions: extensions, in: data.directory)
    case .timeZone:
      return (["UTC"] + TimeZone.knownTimeZoneIdentifiers).map { CompletionCandidate($0) }
    }
  }

  /// `today`, `yesterday` and their dates.
  private static func days(_ data: CompletionData) -> [CompletionCandidate] {
    let today = data.clock.local(data.now).date
    let yesterday = CivilDate(daysSinceEpoch: today.daysSinceEpoch - 1)
    return [
      CompletionCandidate("today", detail: "\(today)"),
      CompletionCandidate("yesterday", detail: "\(yesterday)"),
      CompletionCandidate("\(today)", detail: "today"),
      CompletionCandidate("\(yesterday)", detail: "yesterday"),
    ]
  }

  /// The unit words of `kind` as they are best written, the display unit first for masses.
  static func unitNames(_ kind: QuantityKind, display: DisplayUnit) -> [String] {
    switch kind {
    case .mass:
      let all = ["kg", "lb", "st", "lbs", "g"]
      return [display.rawValue] + all.filter { $0 != display.rawValue }
    case .length: return ["cm", "m", "ft", "in", "mm"]
    case .glucose: return ["mg/dL", "mmol/L"]
    case .count: return ["steps"]
    case .energy: return ["kcal"]
    case .time: return ["d", "w", "h", "min", "s"]
    }
  }

  /// Files and folders whose names start with what is typed; files only when they end in
  /// one of `extensions` (any file when there are none). Folders end in `/`.
  static func files(_ word: String, extensions: [String], in directory: String)
    -> [CompletionCandidate]
  {
    let slash = word.lastIndex(of: "/")
    let folderPart = slash.map { String(word[...$0]) } ?? ""
    let namePrefix = slash.map { String(word[word.index(after: $0)...]) } ?? word
    let expanded =
      folderPart.hasPrefix("~/")
      ? NSHomeDirectory() + folderPart.dropFirst() : folderPart
    let folder =
      expanded.hasPrefix("/")
      ? expanded : (directory as NSString).appendingPathComponent(expanded)
    guard
      let names = try? FileManager.default.contentsOfDirectory(
        atPath: folder.isEmpty ? "." : folder)
    else { return [] }
    var candidates: [CompletionCandidate] = []
    for name in names.sorted()
    where name.hasPrefix(namePrefix) && (!name.hasPrefix(".") || namePrefix.hasPrefix(".")) {
      var isFolder: ObjCBool = false
      let path = (folder as NSString).appendingPathComponent(name)
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
      if isFolder.boolValue {
        candidates.append(CompletionCandidate(folderPart + name + "/"))
      } else if extensions.isEmpty
        || extensions.contains((name as NSString).pathExtension.lowercased())
      {
        candidates.append(CompletionCandidate(folderPart + name))
      }
    }
    return candidates
  }
}
