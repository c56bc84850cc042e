/// Where a session's text goes.
public enum OutputChannel: Sendable {
  case standardOutput
  case standardError
}

/// Receives everything a session prints, in the order it is printed.
///
/// Text written to `.standardOutput` may hold anything that came from files or users (notes,
/// source names); a sink shows it through ``TerminalText/escaped(_:)``, so no control
/// character reaches a terminal raw. Text for `.standardError` comes from
/// ``DiagnosticRenderer``, which escapes what it quotes itself and adds its own colours.
public protocol OutputSink: AnyObject {
  /// Writes `text` to `channel`.
  func write(_ text: String, to channel: OutputChannel)
  /// Writes the bytes of a file to stdout (`export - as csv`): they are the data the user
  /// asked for, so they pass unescaped unless stdout is a terminal.
  func writeData(_ bytes: [UInt8])
  /// Makes everything written so far visible (before a prompt, say).
  func flush()
  /// Learns that the session created the file at `path` (a golden run removes such files
  /// afterwards, so every run starts alike).
  func didCreate(file path: String)
  /// Shows `text` (whole lines) in a pager when stdout is a terminal; false when it did
  /// not, and the text is still to be printed.
  func page(_ text: String) -> Bool
}

extension OutputSink {
  public func page(_ text: String) -> Bool { false }

  public func writeData(_ bytes: [UInt8]) {
    write(String(decoding: bytes, as: UTF8.self), to: .standardOutput)
  }

  public func didCreate(file path: String) {}
}

/// Collects output in memory, stdout and stderr interleaved as written: what golden tests
/// compare.
public final class CapturedOutput: OutputSink {
  public private(set) var text = ""
  /// The files the session created, in order.
  public private(set) var createdFiles: [String] = []
  public init() {}

  public func write(_ text: String, to channel: OutputChannel) {
    self.text += channel == .standardOutput ? TerminalText.escaped(text) : text
  }

  public func writeData(_ bytes: [UInt8]) { text += String(decoding: bytes, as: UTF8.self) }
  public func flush() {}
  public func didCreate(file path: String) { createdFiles.append(path) }
}

/// Text made safe for a terminal: C0 and C1 control characters and DEL are shown as
/// `\u{1B}` (Swift's spelling, hexadecimal, upper case), except newline and tab, which are
/// the output's own layout. So a note or source name holding `ESC ]0;…` cannot set the
/// window title, clear the screen or forge a line.
public enum TerminalText {
  /// `text` with control characters escaped; `text` itself when it has none.
  ///
  /// - Complexity: O(n); text without control characters is not copied.
  public static func escaped(_ text: String) -> String {
    guard needsEscaping(text) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A field of a row (a source name in `list`): newline and tab escaped too (`\n`,
  /// `\t`), so data cannot break the row or forge another; other controls are escaped by
  /// the sink.
  public static func field(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x09 }) else { return text }
    var out = ""
    for character in text.unicodeScalars {
      switch character {
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      default: out.unicodeScalars.append(character)
      }
    }
    return out
  }

  /// Whether `text` holds a character ``escaped(_:)`` would change.
  ///
  /// - Complexity: O(n), over the string's contiguous UTF-8 (every line printed passes here:
  ///   iterating `String.UTF8View` byte by byte cost a `log` script 2% of its time).
  public static func needsEscaping(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var previous: UInt8 = 0
      for byte in bytes {
        if byte < 0x20 {
          if byte != 0x0A && byte != 0x09 { return true }
        } else if byte == 0x7F || previous == 0xC2 && byte <= 0x9F && byte >= 0x80 {
          // C1 controls U+0080–U+009F are 0xC2 0x80…0x9F in UTF-8.
          return true
        }
        previous = byte
      }
      return false
    }
  }

  /// C0 (but newline and tab), DEL and C1.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return value < 0x20 && value != 0x0A && value != 0x09 || (0x7F...0x9F).contains(value)
  }
}
