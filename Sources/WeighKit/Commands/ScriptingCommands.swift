import Foundation

extension CommandTable {
  static let scriptingCommands: [CommandSpec] = [
    CommandSpec(
      name: "echo", group: .scripting, usage: ["echo <string>"], summary: "print a line",
      example: "echo \"weekly check\"",
      parse: { cursor throws(Diagnostic) in
        let rest = cursor.rest
        guard let first = rest.first, let last = rest.last else { return EchoCommand(text: "") }
        if rest.count == 1, first.kind == .string { return EchoCommand(text: first.text) }
        let utf8 = Array(cursor.context.text.utf8)
        return EchoCommand(text: String(decoding: utf8[first.start..<last.end], as: UTF8.self))
      }),
    CommandSpec(
      name: "try", group: .scripting, usage: ["try <command>"],
      summary: "run a command; if it fails, its error is shown as a note and recorded, not counted",
      example: "try delete #99",
      parse: { cursor throws(Diagnostic) in
        let inner = Array(cursor.rest)
        guard !inner.isEmpty else {
          throw cursor.error("expected a command after try, such as try delete #3", at: nil)
        }
        // Each try parses the rest anew: the limit keeps `try try …` from exhausting the stack.
        let tries = inner.prefix { $0.isWord("try") }.count
        if tries >= ScriptLimits.tryDepth {
          throw cursor.error(
            "more than \(ScriptLimits.tryDepth) try in a row; one try is enough",
            at: inner[ScriptLimits.tryDepth - 1])
        }
        let word = cursor.span(inner[0])
        do throws(Diagnostic) {
          return TryCommand(
            inner: .success(try CommandTable.parse(inner, context: cursor.context)), span: word)
        } catch {
          return TryCommand(inner: .failure(error), span: word)
        }
      }),
    CommandSpec(
      name: "repeat", group: .scripting, usage: ["repeat <n> {", "  <commands>", "}"],
      summary: "run the enclosed lines n times", example: "repeat 3 {\n  log 70kg\n  advance 1d\n}",
      parse: { cursor throws(Diagnostic) in
        throw cursor.error(
          "repeat needs a block: write repeat <n> { at the end of the line, the commands, then }",
          at: cursor.tokens.last)
      }),
    CommandSpec(
      name: "expect", group: .scripting,
      usage: ["expect <fact> ==|!=|<|<=|>|>=|contains <value> [± <tolerance>]"],
      summary: "an assertion; a failed expect is an error",
      example: "expect latest == 151.2lb ± 0.1lb",
      parse: { cursor throws(Diagnostic) in try ExpectCommand.parse(&cursor) }),
    CommandSpec(
      name: "include", group: .scripting, usage: ["include <file.wcfg>"],
      summary: "run another script here (paths relative to the including script)",
      example: "include setup.wcfg",
      parse: { cursor throws(Diagnostic) in
        let token = cursor.peek()
        let path = try cursor.readPath(
          "a script path such as setup.wcfg", extensions: ["wcfg"])
        try cursor.expectEnd(after: "the path")
        return IncludeCommand(path: path, span: cursor.span(token))
      }),
    CommandSpec(
      name: "help", group: .scripting, usage: ["help [<command>|all]"],
      summary:
        "the commands by group; with a command, its syntax and an example; with all, every command",
      example: "help log",
      parse: { cursor throws(Diagnostic) in
        CompletionProbe.offer(.command, if: cursor.peek())
        guard let token = cursor.peek() else { return HelpCommand(topic: "") }
        if cursor.take("all") {
          try cursor.expectEnd(after: "all")
          return HelpCommand(topic: "all")
        }
        guard token.kind == .word, CommandTable.spec(named: token.text) != nil else {
          if case .failure(let error) = CommandHelp.text(for: token.text) {
            throw cursor.error(error.message, at: token)
          }
          throw cursor.error("expected a command name such as log, \(cursor.got(token))", at: token)
        }
        _ = cursor.next()
        try cursor.expectEnd(after: "the command name")
        return HelpCommand(topic: token.text)
      }),
    CommandSpec(
      name: "quit", aliases: ["exit"], group: .scripting, usage: ["quit", "exit"],
      summary: "leave the REPL (Ctrl-D too)", example: "quit",
      parse: { cursor throws(Diagnostic) in
        try cursor.expectEnd(after: "quit")
        return QuitCommand()
      }),
  ]
}

/// `echo <string>`
struct EchoCommand: Executable {
  var text: String
  func execute(in session: Session) throws(Diagnostic) -> CommandResult { .message(text) }
}

/// `try <command>`
struct TryCommand: Executable {
  var inner: Result<any Executable, Diagnostic>
  /// The tried command's word, where errors without a position point.
  var span: SourceSpan

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result: CommandResult
    do {
      result = try session.perform(inner.get())
    } catch is IncludeStop {
      // The included script reported its failure; `try` goes on after it.
      return .empty
    } catch {
      result = CommandResult()
      result.failure = Diagnostic(error)
    }
    guard let failure = result.failure else { return result }
    result.failure = nil
    // The tried command's values are shown before its error, as when it runs alone.
    session.show(result)
    let word = SourceSpan(
      file: span.file, line: span.line, text: span.text, start: span.start, end: span.end)
    // A failure `try` tolerates is worth knowing but is no error: it is shown as a note.
    var tolerated = failure.located(at: word)
    tolerated.severity = .note
    tolerated.message += " (tolerated by try)"
    session.report(tolerated)
    // A failed `expect` is no command's error: the next `expect` reads the one before it.
    if Session.factsLeft(by: self) != .all { session.memory.error = failure.message }
    return .empty
  }
}

/// `include <file.wcfg>`
struct IncludeCommand: Executable {
  static let nestingLimit = ScriptLimits.includeDepth
  var path: String
  var span: SourceSpan

  func execute(in session: Session) throws -> CommandResult {
    guard session.script.sources.count < Self.nestingLimit else {
      throw Diagnostic(
        "includes nest deeper than \(Self.nestingLimit); check for a script that includes itself",
        at: span)
    }
    let current = session.script.sources.last
    let fullPath = session.resolvePath(path)
    let shown: String
    if path.hasPrefix("/") {
      shown = path
    } else if let current, current.display.contains("/") {
      shown = ((current.display as NSString).deletingLastPathComponent as NSString)
        .appendingPathComponent(path)
    } else {
      shown = path
    }
    let text: String
    do throws(Diagnostic) {
      text = try ScriptFile.read(fullPath, shownAs: shown)
    } catch {
      // A compiler crash (Swift 6.3.1) forbids `catch where` here, in a throwing function.
      guard error.span == nil else { throw error }
      let hint =
        error.message.hasSuffix("no such file")
        ? "; check the path (it is relative to the including script)" : ""
      throw Diagnostic(error.message + hint, at: span, kind: .unreadableInput)
    }
    if !session.run(
      script: text, display: shown, directory: (fullPath as NSString).deletingLastPathComponent)
    {
      throw IncludeStop()
    }
    return .empty
  }
}

/// An included script stopped (a failure it already reported, or `quit`): the including
/// script stops too, without a second report.
struct IncludeStop: Error {}

/// `help [<command>|all]`: the text `weigh help` prints too (``CommandHelp``).
struct HelpCommand: Executable {
  /// Empty for the index, `all`, or a command name.
  var topic: String

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    guard case .success(let lines) = CommandHelp.text(for: topic) else { return .empty }
    // Every command at once is longer than a screen: a terminal shows it in the pager.
    if topic == "all", session.page(lines) { return .empty }
    var result = CommandResult()
    for line in lines { result.say(line) }
    return result
  }
}

/// `quit`, `exit`
struct QuitCommand: Executable {
  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    session.quitRequested = true
    return .empty
  }
}

/// Short descriptions of file errors for messages, in weigh's own words.
enum FileProblem {
  static func describe(_ error: Error) -> String {
    ZipProblem.describe(error) ?? SystemProblem.describe(error)
  }
}
