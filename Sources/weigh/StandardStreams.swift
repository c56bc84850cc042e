import Foundation
import LineEditing
import WeighKit

/// stdout, buffered, and stderr, unbuffered; stdout is flushed before anything goes to
/// stderr so the two keep their order on a terminal. Sessions on a store on disk flush after
/// every command (see `Session.run`), so a committed change's report is never lost.
///
/// Text for stdout is shown through `TerminalText.escaped`: no control character that came
/// from data reaches the terminal raw.
final class StandardStreams: OutputSink {
  private var buffer: [UInt8] = []
  /// Whether stdout is a terminal, where even exported data is shown escaped.
  private let outputIsTerminal = isatty(STDOUT_FILENO) == 1

  func write(_ text: String, to channel: OutputChannel) {
    switch channel {
    case .standardOutput:
      buffer.append(contentsOf: TerminalText.escaped(text).utf8)
      if buffer.count >= 1 << 16 { flush() }
    case .standardError:
      flush()
      Self.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }
  }

  func writeData(_ bytes: [UInt8]) {
    if outputIsTerminal {
      write(String(decoding: bytes, as: UTF8.self), to: .standardOutput)
      return
    }
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  func page(_ text: String) -> Bool {
    flush()
    return Pager.show(text)
  }

  func flush() {
    guard !buffer.isEmpty else { return }
    Self.writeAll(buffer, to: STDOUT_FILENO)
    buffer.removeAll(keepingCapacity: true)
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
        if written <= 0 {
          if errno == EINTR { continue }
          return
        }
        offset += written
      }
    }
  }
}

/// Lines of stdin when it is not a terminal, as bytes (the session checks they are UTF-8):
/// no prompt, no echo. What was printed is flushed before each read, so `producer | weigh`
/// shows each answer as it comes. A line longer than a statement may be is cut just past
/// the limit (the session reports it) and the rest of it skipped, so memory stays bounded.
struct StandardInputLines: Sequence, IteratorProtocol {
  let output: StandardStreams
  private var pending: [UInt8] = []
  private var start = 0
  private var ended = false

  init(output: StandardStreams) { self.output = output }

  mutating func next() -> [UInt8]? {
    let limit = ScriptLimits.statementBytes + 1
    var line: [UInt8] = []
    var skipping = false
    while true {
      if let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
        if !skipping { line += pending[start..<newline] }
        start = newline + 1
        break
      }
      if !skipping { line += pending[start...] }
      pending.removeAll(keepingCapacity: true)
      start = 0
      if line.count > limit {
        line.removeLast(line.count - limit)
        skipping = true
      }
      if ended || !fill() {
        ended = true
        if line.isEmpty && !skipping { return nil }
        break
      }
    }
    if line.count > limit { line.removeLast(line.count - limit) }
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    return line
  }

  /// Reads more of stdin; false at its end.
  private mutating func fill() -> Bool {
    output.flush()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress!, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      pending = Array(chunk[0..<count])
      start = 0
      return true
    }
  }
}

/// The REPL's line source: readline through LineEditing.
struct EditorReader: LineReader {
  let editor: LineEditor

  func read(prompt: String) -> WeighKit.LineInput {
    switch editor.read(prompt: prompt) {
    case .line(let text): return .line(text)
    case .interrupted: return .interrupted
    case .end: return .end
    }
  }
}

/// Where the REPL keeps its history.
enum History {
  /// `$WEIGH_HISTORY` (empty: none), else `$XDG_STATE_HOME/weigh/history`, else
  /// `~/.local/state/weigh/history`.
  static func path(environment: [String: String]) -> String? {
    if let explicit = environment["WEIGH_HISTORY"] { return explicit.isEmpty ? nil : explicit }
    if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/weigh/history" }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return home + "/.local/state/weigh/history"
  }
}
