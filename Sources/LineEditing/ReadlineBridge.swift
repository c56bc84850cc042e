@preconcurrency import CReadline
import Glibc

/// The state readline's C callbacks reach, and the callbacks themselves.
///
/// Readline stores bare C function pointers, which cannot capture context, so the active
/// editor's completer and the line handed back by the callback interface live here.
enum ReadlineBridge {
  /// Readline's `rl_vcpfunc_t`: receives the finished line, or nil at end of input.
  typealias LineHandler = @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
  /// Readline's `rl_completion_func_t`: word, its start and end offsets, to a match list.
  typealias CompletionFunction =
    @convention(c) (UnsafePointer<CChar>?, Int32, Int32) ->
    UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  /// Readline's `rl_compentry_func_t`: called with state 0, 1, 2… until it returns nil.
  typealias CandidateGenerator =
    @convention(c) (UnsafePointer<CChar>?, Int32) ->
    UnsafeMutablePointer<CChar>?
  /// Readline's `rl_compdisp_func_t`: the match list (substitution first), its count and
  /// the longest match's length.
  typealias MatchDisplay =
    @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int32, Int32) -> Void

  /// At most this many candidates are listed with their details; the rest are counted.
  static let listedLimit = 100

  // The only unchecked state in the package: readline calls these callbacks synchronously,
  // from inside `rl_callback_read_char`, on the thread that drives `LineEditor`, which is
  // confined to the main thread. Nothing else reads or writes them.
  nonisolated(unsafe) static var completer: ((String, String) -> [LineCompletion])?
  nonisolated(unsafe) static var pendingCandidates: [String] = []
  nonisolated(unsafe) static var details: [String: String] = [:]
  nonisolated(unsafe) static var acceptedLine: String??

  /// Readline's `rl_getc_func_t`, the type of `rl_getc_function`.
  typealias KeyReader = @convention(c) (UnsafeMutablePointer<FILE>?) -> Int32

  /// The terminal opened a second time, for `readKey`, so that its reads never block.
  nonisolated(unsafe) static var keyDescriptor: Int32 = -1

  /// Reads one key for readline from `keyDescriptor`, waiting for it in `poll` and never in
  /// `read`.
  ///
  /// Readline's own reader waits for the terminal to be readable, then reads, blocking. A
  /// Ctrl-C between the two empties the terminal's input queue and raises SIGINT before the
  /// read begins: the read then waited for a key that nobody typed (ReplTests saw it under
  /// load: the half-typed text not echoed, the REPL asleep in the terminal's read). Here an
  /// emptied queue is a read that would block; then a pending SIGINT ends the wait with a
  /// NUL key (readline's set-mark: it changes no text), and `LineEditor.read` drops the line
  /// for it at once.
  static let readKey: KeyReader = { _ in
    while true {
      var byte: UInt8 = 0
      let count = read(keyDescriptor, &byte, 1)
      if count == 1 { return Int32(byte) }  // checked: a byte widens
      guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
        return EOF
      }
      if TerminalSignals.isPending(SIGINT) { return 0 }
      var descriptors = [
        // checked: a poll flag constant
        pollfd(fd: keyDescriptor, events: Int16(POLLIN), revents: 0),
        // checked: a poll flag constant
        pollfd(fd: TerminalSignals.wakeDescriptor, events: Int16(POLLIN), revents: 0),
      ]
      _ = poll(&descriptors, 2, -1)
      if descriptors[1].revents != 0 { TerminalSignals.drainWakePipe() }
    }
  }

  /// Handles a finished line (or end of input, as nil) from readline's callback interface.
  static let lineHandler: LineHandler = { raw in
    if let raw {
      acceptedLine = .some(String(cString: raw))
      free(raw)  // readline allocates with malloc
    } else {
      acceptedLine = .some(nil)
    }
    // Removing the handler here stops readline from printing the next prompt itself.
    rl_callback_handler_remove()
  }

  /// Asks the completer for the word at the cursor; never falls back to file names.
  static let attemptCompletion: CompletionFunction = { text, _, end in
    rl_attempted_completion_over = 1
    guard let completer, let text else { return nil }
    // checked: a line offset; Int32 to Int widens
    let candidates = completer(lineBeforeCursor(end: Int(end)), String(cString: text))
    guard !candidates.isEmpty else { return nil }
    // The grammar's order (entries by number, the display unit first) is the order shown.
    rl_sort_completion_matches = 0
    // A folder is completed without a space, so its files can follow.
    rl_completion_suppress_append =
      candidates.count == 1 && candidates[0].word.hasSuffix("/") ? 1 : 0
    pendingCandidates = candidates.map(\.word).reversed()
    details = Dictionary(
      candidates.map { ($0.word, $0.detail) }, uniquingKeysWith: { first, _ in first })
    rl_completion_display_matches_hook =
      candidates.contains { !$0.detail.isEmpty } ? displayWithDetails : nil
    return rl_completion_matches(text, nextCandidate)
  }

  /// Hands readline the precomputed candidates one by one, as malloc'ed copies it will free.
  static let nextCandidate: CandidateGenerator = { _, _ in
    guard let next = pendingCandidates.popLast() else { return nil }
    return strdup(next)
  }

  /// Lists the matches one a line with their details (`#3  2026-01-03 07:30  68.5 kg`),
  /// then redraws the prompt and the line.
  static let displayWithDetails: MatchDisplay = { matches, count, _ in
    guard let matches, count > 0 else { return }
    var words: [String] = []
    // checked: readline's match count; Int32 to Int widens
    for index in 1...Int(count) {
      if let match = matches[index] { words.append(String(cString: match)) }
    }
    let width = words.map(\.count).max() ?? 0
    var text = "\n"
    for word in words.prefix(listedLimit) {
      let detail = details[word] ?? ""
      let padding = String(repeating: " ", count: width - word.count)
      text += detail.isEmpty ? "\(word)\n" : "\(word)\(padding)  \(detail)\n"
    }
    if words.count > listedLimit { text += "… and \(words.count - listedLimit) more\n" }
    fputs(text, stdout)
    fflush(stdout)
    rl_forced_update_display()
  }

  /// The bytes of readline's buffer before byte offset `end`, decoded as UTF-8.
  static func lineBeforeCursor(end: Int) -> String {
    guard let buffer = rl_line_buffer, end > 0 else { return "" }
    // checked: a line offset; Int32 to Int widens
    let bytes = UnsafeRawBufferPointer(start: buffer, count: min(end, Int(rl_end)))
    return String(decoding: bytes, as: UTF8.self)
  }
}
