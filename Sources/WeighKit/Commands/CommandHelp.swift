/// The help texts, all generated from ``CommandTable``: `help` and `weigh help` print them,
/// and the man page (`weigh help --man`) is made from them.
public enum CommandHelp {
  /// `help`: one line per group with its commands, short enough for one screen.
  public static var index: [String] {
    var lines = ["commands, by what they act on (help <command> shows one, help all every one):"]
    for group in CommandGroup.allCases {
      let names = CommandTable.all.filter { $0.group == group }.map(\.name)
      guard !names.isEmpty else { continue }
      lines.append("  \(group.rawValue): \(names.joined(separator: ", "))")
    }
    lines.append("for example: help log")
    return lines
  }

  /// `help <command>`: its usage, what it does, and its example.
  public static func topic(_ spec: CommandSpec) -> [String] {
    var lines = spec.usage
    lines.append("  \(spec.summary)")
    let example = spec.example.split(separator: "\n", omittingEmptySubsequences: false)
    lines.append("  example: \(example[0])")
    for line in example.dropFirst() { lines.append("           \(line)") }
    return lines
  }

  /// `help all`: every command's usage and example, by group.
  public static var all: [String] {
    var lines: [String] = []
    for group in CommandGroup.allCases {
      let specs = CommandTable.all.filter { $0.group == group }
      guard !specs.isEmpty else { continue }
      lines.append("\(group.rawValue):")
      for spec in specs {
        for line in spec.usage { lines.append("  \(line)") }
        let example = spec.example.split(separator: "\n").joined(separator: " ⏎ ")
        lines.append("      e.g. \(example)")
      }
    }
    lines.append("type help <command> for what a command does")
    return lines
  }

  /// The help for `topic` (empty: the index; `all`: everything; else a command), or an
  /// error message naming the closest command, or else `helpCommand`, which lists them
  /// (`weigh help` on the command line).
  public static func text(for topic: String, helpCommand: String = "help") -> Result<
    [String], HelpTopicError
  > {
    if topic.isEmpty { return .success(index) }
    if topic.lowercased() == "all" { return .success(all) }
    guard let spec = CommandTable.spec(named: topic) else {
      var message = "no command \"\(topic)\""
      if let guess = Suggestion.closest(to: topic.lowercased(), among: CommandTable.names + ["all"])
      {
        message += "; did you mean \"\(guess)\"?"
      } else {
        message += "; type \(helpCommand) for the list"
      }
      return .failure(HelpTopicError(message: message))
    }
    return .success(Self.topic(spec))
  }
}

/// A help topic that names no command.
public struct HelpTopicError: Error, Sendable {
  public var message: String
}
