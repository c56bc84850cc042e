/// A parsed command, ready to apply to a session.
public protocol Executable {
  /// Applies the command completely and returns what it produced, or throws and changes
  /// nothing.
  ///
  /// - Throws: a ``Diagnostic``, or ``IncludeStop`` when an included script stopped after
  ///   reporting its own failure.
  func execute(in session: Session) throws -> CommandResult
}

/// The families `help` groups commands under, in the order it lists them.
public enum CommandGroup: String, CaseIterable, Sendable {
  case settings = "settings and profile"
  case log = "the app's weight log"
  case analysis = "analysis"
  case health = "the simulated Health store"
  case sync = "sync between the app and Health"
  case life = "observers, background delivery and the app's life"
  case devices = "simulated devices and apps"
  case other = "other health data"
  case files = "files"
  case clock = "the clock"
  case scripting = "scripting"
}

/// One command of the language: its grammar for humans, its help, and its parser (which
/// completion also reads: see `Completion`).
public struct CommandSpec: Sendable {
  public var name: String
  public var aliases: [String] = []
  public var group: CommandGroup
  /// Usage lines, e.g. `log <weight> [at <when>] [note <string>]`.
  public var usage: [String]
  /// One line saying what the command does.
  public var summary: String
  /// One example line.
  public var example: String
  /// Reads the tokens after the command word.
  public var parse: @Sendable (inout ArgumentCursor) throws(Diagnostic) -> any Executable
}

/// Every command, in one table read by the parser, `help`, completion and hints.
public enum CommandTable {
  /// The commands in the order `help` lists them.
  public static let all: [CommandSpec] =
    settingsCommands + logCommands + analysisCommands + healthCommands + syncCommands
    + deviceCommands + otherHealthCommands + fileCommands + clockCommands
    + scriptingCommands

  private static let byName: [String: CommandSpec] = {
    var table: [String: CommandSpec] = [:]
    for spec in all {
      table[spec.name] = spec
      for alias in spec.aliases { table[alias] = spec }
    }
    return table
  }()

  /// Every command word, aliases included.
  public static var names: [String] { all.flatMap { [$0.name] + $0.aliases } }

  /// The command named `word` (case-insensitive).
  public static func spec(named word: String) -> CommandSpec? { byName[word.lowercased()] }

  /// Parses a whole command line.
  public static func parse(_ tokens: [Token], context: ParseContext) throws(Diagnostic)
    -> any Executable
  {
    var cursor = ArgumentCursor(tokens: tokens, context: context)
    let first = cursor.peek()
    CompletionProbe.offer(.command, if: first)
    guard let first, first.kind == .word else {
      if first?.kind == .closeBrace {
        throw cursor.error("unexpected }: no repeat block is open", at: first)
      }
      throw cursor.error("expected a command such as log or help, \(cursor.got(first))", at: first)
    }
    guard let spec = spec(named: first.text) else {
      var message = "unknown command \"\(first.text)\""
      if let guess = Suggestion.closest(to: first.text.lowercased(), among: names) {
        message += "; did you mean \"\(guess)\"?"
      } else {
        message += "; type help for the list of commands"
      }
      throw cursor.error(message, at: first)
    }
    _ = cursor.next()
    return try spec.parse(&cursor)
  }
}
