/// Where a session's text goes.
public enum OutputChannel: Sendable {
  case standardOutput
  case standardError
}

/// Receives everything a session prints, in the order it is printed.
public protocol OutputSink: AnyObject {
  /// Writes `text` to `channel`.
  func write(_ text: String, to channel: OutputChannel)
  /// Makes everything written so far visible (before a prompt, say).
  func flush()
}

/// Collects output in memory, stdout and stderr interleaved as written: what golden tests
/// compare.
public final class CapturedOutput: OutputSink {
  public private(set) var text = ""
  public init() {}
  public func write(_ text: String, to channel: OutputChannel) { self.text += text }
  public func flush() {}
}
