/// The lines of a script text, split on `\n` (a `\r` before it is dropped).
///
/// Splits on bytes: `String.enumerateLines` costs several times more on long scripts.
public struct ScriptLines: Sequence {
  private let bytes: [UInt8]

  public init(_ text: String) { bytes = Array(text.utf8) }

  public func makeIterator() -> Iterator { Iterator(bytes: bytes) }

  public struct Iterator: IteratorProtocol {
    let bytes: [UInt8]
    var position = 0

    public mutating func next() -> String? {
      guard position < bytes.count else { return nil }
      var end = position
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      var lineEnd = end
      if lineEnd > position, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
      let line = String(decoding: bytes[position..<lineEnd], as: UTF8.self)
      position = end + 1
      return line
    }
  }
}

/// Reading a script's text: whole, checked to be UTF-8, within ``ScriptLimits``.
public enum ScriptFile {
  /// The text of the script at `path`, shown in messages as `shown` (after `noun`, when
  /// given: `cannot read script x.wcfg: no such file`).
  ///
  /// - Throws: a diagnostic of kind `.unreadableInput` (exit 66) in weigh's own words: the
  ///   file is missing, a folder, not readable, too large, or not UTF-8 (with the line and
  ///   byte offset of the first bad byte).
  public static func read(_ path: String, shownAs shown: String, noun: String? = nil)
    throws(Diagnostic) -> String
  {
    let bytes: [UInt8]
    do throws(FileReadError) {
      bytes = try FileReader.contents(of: path, limit: ScriptLimits.scriptBytes)
    } catch {
      let name = noun.map { "\($0) \(shown)" } ?? shown
      throw Diagnostic("cannot read \(name): \(error.reason)", kind: .unreadableInput)
    }
    return try decode(bytes, file: shown)
  }

  /// `bytes` as text (a leading byte-order mark dropped), or a diagnostic pointing at the
  /// first byte that is not UTF-8.
  public static func decode(_ bytes: [UInt8], file: String) throws(Diagnostic) -> String {
    var body = bytes[...]
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
    // Validating a contiguous buffer takes the standard library's fast path (a slice does
    // not: it cost a 100,000-line script 1.5% of its time).
    if let text = body.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) {
      return text
    }
    let offset = firstInvalidOffset(body) ?? body.startIndex
    var lineStart = body.startIndex
    var line = 1
    for index in body.startIndex..<offset where body[index] == UInt8(ascii: "\n") {
      line += 1
      lineStart = index + 1
    }
    var lineEnd = offset
    while lineEnd < body.endIndex, body[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
    throw invalidUTF8(
      Array(body[lineStart..<lineEnd]), at: offset - lineStart, file: file, line: line)
  }

  /// The diagnostic for a line whose byte at `column` (0-based) is not UTF-8.
  static func invalidUTF8(_ line: [UInt8], at column: Int, file: String, line number: Int)
    -> Diagnostic
  {
    let byte = String(line[column], radix: 16, uppercase: true)
    // The line is shown with each bad byte as U+FFFD; the caret goes under the first one.
    let before = String(decoding: line[..<column], as: UTF8.self)
    let text = String(decoding: line, as: UTF8.self)
    return Diagnostic(
      "not UTF-8: byte 0x\(byte.count == 1 ? "0" + byte : byte) at byte offset \(column) of line \(number); save the script as UTF-8",
      at: SourceSpan(
        file: file, line: number, text: text, start: before.utf8.count,
        end: before.utf8.count + 3),
      kind: .unreadableInput)
  }

  /// The offset of the first byte of `bytes` that does not start a valid UTF-8 scalar.
  static func firstInvalidOffset(_ bytes: ArraySlice<UInt8>) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = bytes.startIndex
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .error: return offset
      case .emptyInput: return nil
      }
    }
  }
}
