/// Tab completion for the REPL, read from the same command table as the parser.
public enum Completion {
  /// Candidates for `word`, the word being typed, given the line before it.
  public static func candidates(lineBeforeWord: String, word: String, entryNumbers: [Int])
    -> [String]
  {
    let previous = lineBeforeWord.split(whereSeparator: { $0 == " " || $0 == "\t" }).map {
      $0.lowercased()
    }
    let lowered = word.lowercased()
    var options: [String]
    if previous.isEmpty {
      options = CommandTable.names
    } else if previous.first == "help" {
      options = CommandTable.names
    } else if let spec = CommandTable.spec(named: previous[0]) {
      options = spec.keywords + ["last"]
      switch previous.last {
      case "unit": options = DisplayUnit.allCases.map(\.rawValue)
      case "daily": options = DailyPolicy.allCases.map(\.rawValue)
      case "set": options = SetCommand.names
      case "expect": options = Fact.names
      case "try": options = CommandTable.names
      default: break
      }
      if previous.count == 1, spec.name == "try" { options = CommandTable.names }
    } else {
      options = []
    }
    if word.hasPrefix("#") {
      options = entryNumbers.map { "#\($0)" }
    } else if let number = NumberPrefix(word),
      number.unit.isEmpty || !word.contains(where: \.isLetter)
    {
      options = UnitDefinition.massNames.map { word + $0 }
    } else if let number = NumberPrefix(word) {
      let stem = word.dropLast(number.unit.count)
      options = UnitDefinition.table.keys.sorted().map { String(stem) + $0 }
    }
    return Array(Set(options.filter { $0.lowercased().hasPrefix(lowered) })).sorted()
  }
}
