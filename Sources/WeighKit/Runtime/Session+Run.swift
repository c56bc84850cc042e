import Foundation

extension Session {
  /// Runs a whole script text under the name `file`; returns false when the session must
  /// stop (a failure without `--keep-going`, or `quit`).
  @discardableResult
  public func run(script text: String, display file: String, directory: String) -> Bool {
    run(lines: ScriptLines(text), display: file, directory: directory)
  }

  /// Runs the lines of a script as they arrive; returns false when the session must stop
  /// (a failure without `--keep-going`, or `quit`).
  @discardableResult
  public func run<Lines: Sequence<String>>(lines: Lines, display file: String, directory: String)
    -> Bool
  {
    script.sources.append((file, directory))
    defer { script.sources.removeLast() }
    var reader = StatementReader()
    var number = 0
    for line in lines {
      number += 1
      guard feed(line, number: number, file: file, to: &reader) else { return false }
    }
    if let unfinished = reader.finish() { return fail(unfinished) }
    return true
  }

  /// Runs lines given as bytes (stdin), each checked to be UTF-8: a line that is not fails
  /// with its line number and byte offset (exit 66) and is skipped.
  @discardableResult
  public func run<Lines: Sequence<[UInt8]>>(
    byteLines lines: Lines, display file: String, directory: String
  ) -> Bool {
    script.sources.append((file, directory))
    defer { script.sources.removeLast() }
    var reader = StatementReader()
    var number = 0
    for bytes in lines {
      number += 1
      guard let line = String(validating: bytes, as: UTF8.self) else {
        let offset = ScriptFile.firstInvalidOffset(bytes[...]) ?? 0
        if !fail(ScriptFile.invalidUTF8(bytes, at: offset, file: file, line: number)) {
          return false
        }
        continue
      }
      guard feed(line, number: number, file: file, to: &reader) else { return false }
    }
    if let unfinished = reader.finish() { return fail(unfinished) }
    return true
  }

  /// Feeds one line to `reader` and runs what it completes; false when the session must stop.
  private func feed(_ line: String, number: Int, file: String, to reader: inout StatementReader)
    -> Bool
  {
    for statement in reader.feed(line, file: file, number: number) where !execute(statement) {
      return false
    }
    return true
  }

  /// Runs one statement; returns false when the session must stop.
  public func execute(_ statement: Statement) -> Bool {
    switch statement {
    case .invalid(let line, let error):
      return fail(
        Diagnostic(
          error.message,
          at: SourceSpan(
            file: line.file, line: line.number, text: line.text, start: error.start,
            end: error.end)))
    case .line(let line, let tokens):
      if let goesOn = takeRepeatStep() { return goesOn }
      echo(line, tokens)
      return runCommand(line, tokens)
    case .block(let header, let tokens, let body):
      echo(header, tokens)
      let context = context(file: header.file, line: header.number, text: header.text)
      var cursor = ArgumentCursor(tokens: Array(tokens.dropLast()), context: context, index: 1)
      let count: Int
      do throws(Diagnostic) {
        count = try cursor.readInteger("a repeat count such as 3", range: 0...1_000_000)
        try cursor.expectEnd(after: "the repeat count")
      } catch {
        return fail(error)
      }
      let outermost = script.repeatWork == nil
      if outermost {
        let span = SourceSpan(
          file: header.file, line: header.number, text: header.text, start: tokens[1].start,
          end: tokens[1].end)
        let steps = RepeatWork.steps(of: [statement])
        guard steps <= ScriptLimits.repeatSteps else {
          return fail(RepeatWork.tooMuch(steps, at: span))
        }
        script.repeatWork = RepeatWork(remaining: ScriptLimits.repeatSteps, header: span)
      }
      defer { if outermost { script.repeatWork = nil } }
      for _ in 0..<count {
        if let goesOn = takeRepeatStep() { return goesOn }
        for inner in body where !execute(inner) { return false }
        if let goesOn = script.repeatWork?.spent { return goesOn }
      }
      return true
    }
  }

  /// With `--echo`, prints the statement's text (one part of a line split by `;`) before
  /// its output, as sqlite3's `.echo on` does.
  private func echo(_ line: SourceLine, _ tokens: [Token]) {
    guard options.echo, let first = tokens.first, let last = tokens.last else { return }
    let utf8 = Array(line.text.utf8)
    let end = min(last.end, utf8.count)
    let text = String(decoding: utf8[min(first.start, end)..<end], as: UTF8.self)
    sink.write(TerminalText.escaped(text) + "\n", to: .standardOutput)
  }

  /// Counts one step of the running `repeat` block, if any: nil to go on, or, once the
  /// block's steps are spent, whether the session goes on after the error (reported once).
  private func takeRepeatStep() -> Bool? {
    guard var work = script.repeatWork else { return nil }
    if let goesOn = work.spent { return goesOn }
    guard work.remaining > 0 else {
      work.spent = fail(RepeatWork.spentError(at: work.header))
      script.repeatWork = work
      return work.spent
    }
    work.remaining -= 1
    script.repeatWork = work
    return nil
  }

  private func runCommand(_ line: SourceLine, _ tokens: [Token]) -> Bool {
    let context = context(file: line.file, line: line.number, text: line.text)
    // An included script's commands run inside `include`: its collection waits meanwhile.
    let outer = collected
    collected = CommandResult()
    defer { collected = outer }
    defer { flushAfterCommand() }
    var result: CommandResult
    var failure: Diagnostic?
    // One durable commit for the command and the Health events it runs (docs/store.md);
    // an enclosing `include` goes on in a transaction of its own after it.
    let enclosed = store.isBatching
    defer { if enclosed { store.beginBatch() } }
    do throws(Diagnostic) { try beginCommandTransaction() } catch { return fail(error) }
    // An included script that stopped has reported its own failure.
    var includeStopped = false
    // `expect` reads the facts and leaves them; so does `include` for the output, which is
    // its last command's.
    var leaves: FactsLeft = .none
    do {
      let command = try CommandTable.parse(tokens, context: context)
      leaves = Self.factsLeft(by: command)
      let own = try perform(command)
      failure = own.failure
      // What the session produced meanwhile (Health catching up) comes first.
      result = collected.map { $0.isEmpty ? own : $0.appending(own) } ?? own
    } catch is IncludeStop {
      includeStopped = true
      result = collected ?? CommandResult()
    } catch {
      failure = Diagnostic(error)
      result = collected ?? CommandResult()
      if tokens.first?.isWord("expect") == true { leaves = .all }
    }
    result.failure = nil
    let shownIn = renderContext
    // Health's events that fell due (all of `advance`'s) run before the command's
    // transaction is written; what they produce is shown after the command and its error.
    var settled: CommandResult?
    var settleProblems: [(problem: Diagnostic, fails: Bool)] = []
    if healthLink != nil {
      collected = CommandResult()
      settleProblems = settleHealth()
      settled = collected
    }
    do throws(Diagnostic) { try endCommandTransaction() } catch {
      // Nothing the command did was kept: what it would have printed is not true.
      result = CommandResult()
      (settled, settleProblems, failure) = (nil, [], error)
    }
    show(result, in: shownIn)
    var goesOn = !quitRequested && !includeStopped
    if let failure {
      // Errors from deeper down (the store, Health) point at the command word.
      let word = SourceSpan(
        file: line.file, line: line.number, text: line.text, start: tokens[0].start,
        end: tokens[0].end)
      goesOn = fail(failure.located(at: word), remembered: leaves != .all)
    }
    for (problem, fails) in settleProblems {
      if fails { fail(problem) } else { report(problem) }
    }
    if let settled, !settled.isEmpty {
      show(settled)
      result.append(contentsOf: settled)
    }
    if leaves == .none { memory.remember(result, in: shownIn) }
    return goesOn
  }

  /// Which facts a command leaves as they were.
  enum FactsLeft { case none, output, all }

  /// Which facts `command` leaves: `expect` all of them, passing or failing, under `try`
  /// too; `include` the output, which is its last command's.
  static func factsLeft(by command: any Executable) -> FactsLeft {
    switch command {
    case is ExpectCommand: .all
    case is IncludeCommand: .output
    case let tried as TryCommand: (try? tried.inner.get()).map { factsLeft(by: $0) } ?? .none
    default: .none
    }
  }

  /// With a store on disk, what a command printed is written out before the next command
  /// runs: a committed change's report ("imported 1") must not wait in a buffer that a
  /// crash or kill would lose. In memory nothing outlives the process, so output stays
  /// buffered (a 100,000-line script makes 100,000 fewer system calls).
  private func flushAfterCommand() {
    if case .directory = options.store { sink.flush() }
  }

  /// Reports a failure; returns false when the session must stop because of it.
  ///
  /// The failure becomes the `error` fact unless `remembered` is false (`expect` fails).
  @discardableResult
  func fail(_ diagnostic: Diagnostic, remembered: Bool = true) -> Bool {
    report(diagnostic)
    if remembered { memory.error = diagnostic.message }
    outcome.record(diagnostic.kind)
    return options.interactive || options.keepGoing
  }

  /// The exit status of the session so far (``ExitStatus``).
  public var exitStatus: ExitStatus { outcome.exitStatus }
}
