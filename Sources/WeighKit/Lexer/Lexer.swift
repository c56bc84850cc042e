/// Splits one logical line into tokens.
///
/// Works on UTF-8 bytes: scripts of a hundred thousand lines go through here, so the
/// loop avoids `Character` iteration.
public enum Lexer {
  /// The tokens of `line`, or a diagnostic (without file and line; the caller locates it).
  ///
  /// - Complexity: O(n) in the length of the line.
  public static func tokenize(_ line: String) throws(LexError) -> [Token] {
    var tokens: [Token] = []
    let bytes = Array(line.utf8)
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        index += 1
      case UInt8(ascii: "#"):
        let next = index + 1 < count ? bytes[index + 1] : 0
        guard isDigit(next) else { return tokens }  // a comment runs to the end of the line
        var end = index + 1
        while end < count, isDigit(bytes[end]) { end += 1 }
        if end < count, !isDelimiter(bytes[end]) {
          var wordEnd = end
          while wordEnd < count, !isDelimiter(bytes[wordEnd]) { wordEnd += 1 }
          throw LexError(
            "expected an entry reference such as #12, got \"\(text(bytes, index, wordEnd))\"",
            start: index, end: wordEnd)
        }
        tokens.append(Token(.entryReference, text(bytes, index + 1, end), start: index, end: end))
        index = end
      case UInt8(ascii: "\""):
        let (value, end) = try readString(bytes, from: index)
        tokens.append(Token(.string, value, start: index, end: end))
        index = end
      case UInt8(ascii: "{"):
        tokens.append(Token(.openBrace, "{", start: index, end: index + 1))
        index += 1
      case UInt8(ascii: "}"):
        tokens.append(Token(.closeBrace, "}", start: index, end: index + 1))
        index += 1
      case UInt8(ascii: ";"):
        tokens.append(Token(.separator, ";", start: index, end: index + 1))
        index += 1
      default:
        if let length = comparisonLength(bytes, at: index) {
          let op = text(bytes, index, index + length)
          tokens.append(
            Token(.comparison, op == "+-" ? "±" : op, start: index, end: index + length))
          index += length
          continue
        }
        var end = index + 1
        while end < count, !isDelimiter(bytes[end]), comparisonLength(bytes, at: end) == nil {
          end += 1
        }
        tokens.append(Token(.word, text(bytes, index, end), start: index, end: end))
        index = end
      }
    }
    return tokens
  }

  /// Whether `line` ends in a `\` that continues it on the next line.
  public static func continues(_ line: Substring) -> Bool {
    var trimmed = line
    while let last = trimmed.last, last == " " || last == "\t" || last == "\r" {
      trimmed = trimmed.dropLast()
    }
    return trimmed.last == "\\"
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func isDelimiter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\""),
      UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ";"):
      true
    default: false
    }
  }

  /// The length of a comparison operator starting at `index`, if one does.
  private static func comparisonLength(_ bytes: [UInt8], at index: Int) -> Int? {
    let byte = bytes[index]
    let next = index + 1 < bytes.count ? bytes[index + 1] : 0
    switch byte {
    case UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"):
      return next == UInt8(ascii: "=") ? 2 : 1
    case UInt8(ascii: "!"):
      return next == UInt8(ascii: "=") ? 2 : nil
    case 0xC2:
      return next == 0xB1 ? 2 : nil  // ±
    case UInt8(ascii: "+"):
      // `+-` stands alone as the ASCII spelling of ±.
      let after = index + 2 < bytes.count ? bytes[index + 2] : UInt8(ascii: " ")
      let standsAlone = index == 0 || isDelimiter(bytes[index - 1])
      return next == UInt8(ascii: "-") && standsAlone && isDelimiter(after) ? 2 : nil
    default:
      return nil
    }
  }

  private static func readString(_ bytes: [UInt8], from start: Int) throws(LexError) -> (
    String, Int
  ) {
    var value: [UInt8] = []
    var index = start + 1
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        return (String(decoding: value, as: UTF8.self), index + 1)
      }
      if byte == UInt8(ascii: "\\") {
        guard index + 1 < bytes.count else { break }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): value.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): value.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "n"): value.append(UInt8(ascii: "\n"))
        case UInt8(ascii: "t"): value.append(UInt8(ascii: "\t"))
        default:
          throw LexError(
            "unknown escape \\\(text(bytes, index + 1, index + 2)) in a string; use \\\", \\\\ or \\n",
            start: index, end: index + 2)
        }
        index += 2
        continue
      }
      value.append(byte)
      index += 1
    }
    throw LexError("unterminated string; add a closing \"", start: start, end: bytes.count)
  }

  private static func text(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String {
    String(decoding: bytes[start..<end], as: UTF8.self)
  }
}

/// A lexical error, with the UTF-8 span of the offending text in its line.
public struct LexError: Error, Equatable, Sendable {
  public var message: String
  public var start: Int
  public var end: Int

  public init(_ message: String, start: Int, end: Int) {
    self.message = message
    self.start = start
    self.end = end
  }
}
