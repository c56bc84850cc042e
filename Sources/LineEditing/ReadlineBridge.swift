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

  // The only unchecked state in the package: readline calls these callbacks synchronously,
  // from inside `rl_callback_read_char`, on the thread that drives `LineEditor`, which is
  // confined to the main thread. Nothing else reads or writes them.
  nonisolated(unsafe) static var completer: ((String, String) -> [String])?
  nonisolated(unsafe) static var pendingCandidates: [String] = []
  nonisolated(unsafe) static var acceptedLine: String??

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
    pendingCandidates = completer(lineBeforeCursor(end: Int(end)), String(cString: text))
    guard !pendingCandidates.isEmpty else { return nil }
    return rl_completion_matches(text, nextCandidate)
  }

  /// Hands readline the precomputed candidates one by one, as malloc'ed copies it will free.
  static let nextCandidate: CandidateGenerator = { _, _ in
    guard !pendingCandidates.isEmpty else { return nil }
    return strdup(pendingCandidates.removeFirst())
  }

  /// The bytes of readline's buffer before byte offset `end`, decoded as UTF-8.
  static func lineBeforeCursor(end: Int) -> String {
    guard let buffer = rl_line_buffer, end > 0 else { return "" }
    // checked: a line offset; Int32 to Int widens
    let bytes = UnsafeRawBufferPointer(start: buffer, count: min(end, Int(rl_end)))
    return String(decoding: bytes, as: UTF8.self)
  }
}
