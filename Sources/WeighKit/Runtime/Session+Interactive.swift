/// What a line editor hands the REPL.
public enum LineInput: Equatable, Sendable {
  case line(String)
  /// Ctrl-C: the line was dropped.
  case interrupted
  /// Ctrl-D on an empty line.
  case end
}

/// Where the REPL reads lines from (readline on a terminal, in the front end).
public protocol LineReader {
  /// Shows `prompt` and reads one line.
  func read(prompt: String) -> LineInput
}

extension Session {
  /// The REPL's main prompt.
  public static let prompt = "weigh> "
  /// The prompt inside an unfinished statement (`repeat … {`, a `\` continuation).
  public static let continuationPrompt = "...> "

  /// Runs the REPL until `quit` or Ctrl-D. An error never ends it.
  ///
  /// The store's lock is held only while a statement runs: between lines the store is
  /// closed, so other processes can use it, and each statement opens it again and sees
  /// what they committed.
  public func runInteractive(_ reader: LineReader, directory: String) {
    script.sources.append(("<stdin>", directory))
    defer { script.sources.removeLast() }
    releaseStore()
    var statements = StatementReader()
    var number = 0
    while !quitRequested {
      sink.flush()
      let prompt = statements.needsMore ? Self.continuationPrompt : Self.prompt
      switch reader.read(prompt: prompt) {
      case .end:
        return
      case .interrupted:
        statements.reset()
      case .line(let text):
        number += 1
        renderer.interactivePromptWidth = prompt.count
        script.interactiveLine = number
        for statement in statements.feed(text, file: "<stdin>", number: number) {
          do throws(Diagnostic) { try acquireStore() } catch {
            fail(error)
            break
          }
          loadLiveHealth()
          _ = execute(statement)
          releaseStore()
          if quitRequested { break }
        }
      }
    }
    sink.flush()
  }
}
