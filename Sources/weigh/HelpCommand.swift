import ArgumentParser
import Foundation
import WeighKit

/// `weigh help [TOPIC]`: the language's help, the same text `help TOPIC` prints in a
/// session; `weigh help run|test|check|completion` for a subcommand's options;
/// `weigh help --man` for the man page.
struct Help: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "help",
    abstract: "Show the commands of the language, one of them, all of them, or a subcommand.")

  @Argument(
    help: ArgumentHelp(
      "A command of the language (log, list, …), all, or a subcommand.", valueName: "topic"))
  var topic: [String] = []

  @Flag(help: "Print the man page (roff), as docs/weigh.1 holds it.")
  var man = false

  func run() throws {
    if man {
      print(ManPage.render(CommandLineReference.current), terminator: "")
      return
    }
    let name = topic.joined(separator: " ")
    if let subcommand = Self.subcommands.first(where: {
      $0._commandName == name.lowercased()
    }) {
      print(Weigh.helpMessage(for: subcommand))
      return
    }
    switch CommandHelp.text(for: name, helpCommand: "weigh help") {
    case .success(let lines):
      let text = lines.map { TerminalText.escaped($0) + "\n" }.joined()
      if name.lowercased() == "all", Pager.show(text) { return }
      print(text, terminator: "")
    case .failure(let error):
      FileHandle.standardError.write(Data("weigh: error: \(error.message)\n".utf8))
      throw ExitCode(ExitStatus.usage)
    }
  }

  /// The subcommands `weigh help NAME` describes with their options.
  static let subcommands: [ParsableCommand.Type] = [
    Run.self, Test.self, Check.self, CompletionScript.self,
  ]
}
