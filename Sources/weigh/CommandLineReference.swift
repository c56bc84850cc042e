import ArgumentParser
import Foundation

/// The command line as swift-argument-parser knows it (subcommands, options, their help),
/// read once from its JSON description, so the completion scripts and the man page never
/// repeat what the option declarations say.
struct CommandLineReference: Decodable {
  struct Name: Decodable {
    var kind: String
    var name: String

    /// `--store`, `-e`.
    var flag: String { kind == "long" ? "--\(name)" : "-\(name)" }
  }

  struct Argument: Decodable {
    var kind: String
    var names: [Name]?
    var valueName: String?
    var abstract: String?
    var shouldDisplay: Bool
    var allValueStrings: [String]?

    /// Whether the option is followed by a value.
    var takesValue: Bool { kind == "option" }
    var isPositional: Bool { kind == "positional" }
    var flags: [String] { (names ?? []).map(\.flag) }
  }

  struct Command: Decodable {
    var commandName: String
    var abstract: String?
    var discussion: String?
    var shouldDisplay: Bool
    var subcommands: [Command]?
    var arguments: [Argument]?

    /// The options and flags shown in help (not `--help` and `--version`, added by the
    /// parser to every command).
    var options: [Argument] {
      (arguments ?? []).filter {
        !$0.isPositional && $0.shouldDisplay
          && !$0.flags.contains("--help") && !$0.flags.contains("--version")
      }
    }
  }

  private struct Tool: Decodable {
    var command: Command
  }

  var root: Command

  /// The subcommands shown in help, once each (the parser adds its own `help`; weigh's wins).
  var subcommands: [Command] {
    var seen: Set<String> = []
    return (root.subcommands ?? []).filter {
      $0.shouldDisplay && seen.insert($0.commandName).inserted
    }
  }

  /// The subcommand named `name`.
  func subcommand(_ name: String) -> Command? { subcommands.first { $0.commandName == name } }

  /// weigh's command line, from swift-argument-parser's description of `Weigh`.
  static var current: CommandLineReference {
    // `_dumpHelp` is the JSON `--experimental-dump-help` prints (ArgumentParserToolInfo's
    // ToolInfoV0); only the fields above are read.
    let json = Data(Weigh._dumpHelp().utf8)
    guard let tool = try? JSONDecoder().decode(Tool.self, from: json) else {
      return CommandLineReference(
        root: Command(commandName: "weigh", shouldDisplay: true))
    }
    return CommandLineReference(root: tool.command)
  }

  /// Every option of the default subcommand and the others, each once, in order.
  var allOptions: [Argument] {
    var seen: Set<String> = []
    return subcommands.flatMap(\.options).filter { seen.insert($0.flags.joined()).inserted }
  }
}
