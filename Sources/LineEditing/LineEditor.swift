@preconcurrency import CReadline
import Glibc

/// Reads command lines with GNU readline: editing, history in a file, and tab completion.
///
/// Use one editor at a time, from the main thread only. When standard input is not a
/// terminal the editor never touches readline: `read(prompt:)` returns the piped lines
/// as they are, with no prompt, no echo and no history.
public final class LineEditor {
  /// Whether standard input is a terminal, that is whether a prompt and line editing make sense.
  public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

  /// The width of the terminal on standard output, or nil when standard output is not a terminal.
  public static func terminalColumns() -> Int? {
    var size = winsize()
    // checked: an ioctl request constant
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)  // checked: UInt16 to Int widens
  }

  /// Why the history file could not be read or written, if it could not; nil while all is well.
  ///
  /// The editor keeps working without the file; show this once so the user can fix the path.
  public private(set) var historyProblem: String?

  private let interactive: Bool
  private let history: HistoryFile?
  private var previousActions: [(signal: Int32, action: sigaction)] = []
  private var previousReadlineName: UnsafePointer<CChar>?
  private var previousKeyReader: ReadlineBridge.KeyReader?
  private var ownedCStrings: [UnsafeMutablePointer<CChar>] = []
  // Lines that arrived together in one accepted buffer (a bracketed paste), handed out one by one.
  private var queuedLines: [String] = []

  /// Prepares readline: `programName` selects `$if programName` blocks in `~/.inputrc`,
  /// `historyPath` (nil or empty for none) is loaded now and updated after every line, and
  /// `completer` gets the line up to the cursor and the word being completed and returns
  /// the words that may replace it.
  ///
  /// Words are separated by spaces only, so `2026-01-03`, `mg/dL` and `#12` are single words.
  /// A unique candidate is completed with a trailing space (a folder, ending in `/`, without
  /// one); candidates are listed in the order given, with their details when they have any;
  /// readline never offers file names of its own.
  public init(
    programName: String,
    historyPath: String?,
    completer:
      @escaping (_ lineBeforeCursor: String, _ wordBeingCompleted: String) ->
      [LineCompletion]
  ) {
    interactive = Self.isInteractive
    guard interactive else {
      history = nil
      return
    }
    if let historyPath, !historyPath.isEmpty {
      let (file, problem) = HistoryFile.open(path: historyPath)
      history = file
      historyProblem = problem
    } else {
      history = nil
    }
    ReadlineBridge.completer = completer
    previousReadlineName = rl_readline_name
    rl_readline_name = UnsafePointer(own(programName))
    rl_attempted_completion_function = ReadlineBridge.attemptCompletion
    rl_completer_word_break_characters = UnsafePointer(own(" "))
    rl_completer_quote_characters = nil
    rl_catch_signals = 0
    rl_catch_sigwinch = 0
    // Keys are read from the terminal opened again without blocking (`ReadlineBridge.readKey`);
    // where it cannot be opened, readline reads stdin itself.
    if let name = ttyname(STDIN_FILENO) {
      let descriptor = open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
      if descriptor >= 0 {
        ReadlineBridge.keyDescriptor = descriptor
        previousKeyReader = rl_getc_function
        rl_getc_function = ReadlineBridge.readKey
      }
    }
    // Readline would otherwise export LINES and COLUMNS, which the interpreter may read.
    rl_change_environment = 0
    for signal in TerminalSignals.watched {
      previousActions.append((signal, TerminalSignals.install(signal)))
    }
  }

  deinit {
    guard interactive else { return }
    for (signal, action) in previousActions.reversed() {
      TerminalSignals.restore(signal, to: action)
    }
    rl_attempted_completion_function = nil
    if ReadlineBridge.keyDescriptor >= 0 {
      rl_getc_function = previousKeyReader
      close(ReadlineBridge.keyDescriptor)
      ReadlineBridge.keyDescriptor = -1
    }
    rl_completer_word_break_characters = nil
    rl_readline_name = previousReadlineName
    ReadlineBridge.completer = nil
    ReadlineBridge.pendingCandidates = []
    ReadlineBridge.details = [:]
    rl_completion_display_matches_hook = nil
    for pointer in ownedCStrings { free(pointer) }
  }

  /// Shows `prompt` and waits for one line, Ctrl-C or Ctrl-D.
  ///
  /// Wrap invisible parts of a coloured prompt in `"\u{01}"` … `"\u{02}"` so readline
  /// measures its width correctly.
  ///
  /// Accepted non-blank lines go to the history file before this returns, so a killed
  /// process loses none. On Ctrl-C the edited text is dropped and the terminal is left
  /// on a fresh line, ready for the next prompt.
  public func read(prompt: String) -> LineInput {
    if !queuedLines.isEmpty { return .line(queuedLines.removeFirst()) }
    guard interactive else {
      guard let line = readLine(strippingNewline: true) else { return .end }
      return .line(line)
    }
    // Anything printed without a newline must reach the terminal before readline draws.
    fflush(nil)
    if TerminalSignals.take(SIGWINCH) { rl_reset_screen_size() }
    _ = TerminalSignals.take(SIGINT)
    TerminalSignals.drainWakePipe()
    let suspendAction = TerminalSignals.install(SIGTSTP)
    TerminalSignals.setPromptActive(true)
    defer {
      TerminalSignals.setPromptActive(false)
      TerminalSignals.restore(SIGTSTP, to: suspendAction)
    }

    ReadlineBridge.acceptedLine = nil
    rl_callback_handler_install(prompt, ReadlineBridge.lineHandler)
    while true {
      var descriptors = [
        // checked: a poll flag constant
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        // checked: a poll flag constant
        pollfd(fd: TerminalSignals.wakeDescriptor, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 2, -1)
      if ready < 0, errno != EINTR {
        abandonLine()
        return .end
      }
      if descriptors[1].revents != 0 { TerminalSignals.drainWakePipe() }
      if TerminalSignals.take(SIGINT) {
        abandonLine()
        return .interrupted
      }
      if TerminalSignals.take(SIGWINCH) { rl_resize_terminal() }
      if TerminalSignals.take(SIGTSTP) { suspend() }
      guard ready > 0, descriptors[0].revents != 0 else { continue }
      if descriptors[0].revents & Int16(POLLNVAL) != 0 {  // checked: a poll flag constant
        abandonLine()
        return .end
      }
      rl_callback_read_char()
      if let accepted = ReadlineBridge.acceptedLine {
        ReadlineBridge.acceptedLine = nil
        return finish(accepted)
      }
    }
  }

  /// Turns what the line handler received into the result, recording history.
  private func finish(_ accepted: String?) -> LineInput {
    guard let text = accepted else {
      // The shell's next prompt needs a fresh line. Readline 8.2 ends the line itself on EOF
      // only when it had bracketed paste switched on (not with TERM=dumb or when turned off).
      let readlineEndedLine =
        rl_variable_value("enable-bracketed-paste").map {
          String(cString: $0) == "on"
        } ?? false
      if !readlineEndedLine { writeToTerminal("\n") }
      return .end
    }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for line in lines where !line.allSatisfy(\.isWhitespace) {
      if let history, let problem = history.record(line) { historyProblem = problem }
    }
    let first = lines.removeFirst()
    queuedLines.append(contentsOf: lines)
    return .line(first)
  }

  /// Drops the line being edited after Ctrl-C and restores the terminal.
  private func abandonLine() {
    // Show the whole line, then ^C after it, as a shell does.
    rl_point = rl_end
    rl_redisplay()
    rl_echo_signal_char(SIGINT)
    rl_free_line_state()
    rl_callback_sigcleanup()
    rl_cleanup_after_signal()
    rl_callback_handler_remove()
    writeToTerminal("\n")
  }

  /// Stops the process for Ctrl-Z with the terminal restored, and redraws the line on return.
  private func suspend() {
    rl_cleanup_after_signal()
    writeToTerminal("\n")
    signal(SIGTSTP, SIG_DFL)
    raise(SIGTSTP)
    // Execution resumes here after `fg`; `read` restores the caller's action when it returns.
    _ = TerminalSignals.install(SIGTSTP)
    rl_reset_after_signal()
    rl_forced_update_display()
  }

  private func writeToTerminal(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(STDOUT_FILENO, &bytes, bytes.count)
  }

  private func own(_ text: String) -> UnsafeMutablePointer<CChar> {
    let pointer = strdup(text)!
    ownedCStrings.append(pointer)
    return pointer
  }
}
