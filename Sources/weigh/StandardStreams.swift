import Foundation
import LineEditing
import WeighKit

/// stdout, buffered, and stderr, unbuffered; stdout is flushed before anything goes to
/// stderr so the two keep their order on a terminal.
final class StandardStreams: OutputSink {
  private var buffer: [UInt8] = []

  func write(_ text: String, to channel: OutputChannel) {
    switch channel {
    case .standardOutput:
      buffer.append(contentsOf: text.utf8)
      if buffer.count >= 1 << 16 { flush() }
    case .standardError:
      flush()
      Self.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }
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

/// Lines of stdin when it is not a terminal: no prompt, no echo. What was printed is
/// flushed before each read, so `producer | weigh` shows each answer as it comes.
struct StandardInputLines: Sequence, IteratorProtocol {
  let output: StandardStreams

  mutating func next() -> String? {
    output.flush()
    return readLine(strippingNewline: true)
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
