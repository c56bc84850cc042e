/// A JSON value with the line it starts on, read without Foundation so that importers can
/// report rows by line.
public indirect enum ImportJSONValue: Hashable, Sendable {
  case object([JSONMember])
  case array([JSONNode])
  case string(String)
  /// The number as written, so that `Double(text)` rounds it exactly once.
  case number(String)
  case bool(Bool)
  case null

  /// The member called `key` of an object.
  public subscript(_ key: String) -> JSONNode? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.node
  }
}

/// A key and its value inside a JSON object.
public struct JSONMember: Hashable, Sendable {
  public var key: String
  public var node: JSONNode
}

/// A JSON value and its 1-based line.
public struct JSONNode: Hashable, Sendable {
  public var line: Int
  public var value: ImportJSONValue

  /// The string, if this is one.
  public var string: String? { if case .string(let text) = value { text } else { nil } }
  /// The number, if this is one.
  public var number: Double? { if case .number(let text) = value { Double(text) } else { nil } }
  /// Whether this is `null`.
  public var isNull: Bool { value == .null }
}

/// A small strict JSON parser (RFC 8259) that keeps line numbers.
public struct ImportJSONReader {
  private let bytes: [UInt8]
  private var i = 0
  private var line = 1

  /// Parses a whole document.
  ///
  /// - Throws: `ImportError` with line and column at the first syntax error.
  public static func parse(_ bytes: [UInt8]) throws -> JSONNode {
    var reader = ImportJSONReader(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.i = 3 }
    let node = try reader.value(depth: 0)
    reader.skipSpace()
    guard reader.i == bytes.count else {
      throw reader.error("unexpected text after the JSON value")
    }
    return node
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private func error(_ message: String) -> ImportError {
    var lineStart = min(i, bytes.count)
    while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
    return ImportError(line: line, column: i - lineStart + 1, message)
  }

  private mutating func skipSpace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x0A: line += 1
      case 0x20, 0x09, 0x0D: break
      default: return
      }
      i += 1
    }
  }

  private mutating func value(depth: Int) throws -> JSONNode {
    skipSpace()
    guard depth < 512 else { throw error("JSON nested too deeply") }
    guard i < bytes.count else { throw error("the file ends where a JSON value was expected") }
    let start = line
    switch bytes[i] {
    case 0x7B:
      i += 1
      var members: [JSONMember] = []
      skipSpace()
      if i < bytes.count, bytes[i] == 0x7D {
        i += 1
        return JSONNode(line: start, value: .object(members))
      }
      while true {
        skipSpace()
        guard i < bytes.count, bytes[i] == 0x22 else {
          throw error("expected a \"key\" in the object")
        }
        let key = try string()
        skipSpace()
        guard i < bytes.count, bytes[i] == 0x3A else { throw error("expected ':' after the key") }
        i += 1
        members.append(JSONMember(key: key, node: try value(depth: depth + 1)))
        skipSpace()
        guard i < bytes.count else { throw error("the file ends inside an object; add '}'") }
        if bytes[i] == 0x2C {
          i += 1
        } else if bytes[i] == 0x7D {
          i += 1
          return JSONNode(line: start, value: .object(members))
        } else {
          throw error("expected ',' or '}' in the object")
        }
      }
    case 0x5B:
      i += 1
      var elements: [JSONNode] = []
      skipSpace()
      if i < bytes.count, bytes[i] == 0x5D {
        i += 1
        return JSONNode(line: start, value: .array(elements))
      }
      while true {
        elements.append(try value(depth: depth + 1))
        skipSpace()
        guard i < bytes.count else { throw error("the file ends inside an array; add ']'") }
        if bytes[i] == 0x2C {
          i += 1
        } else if bytes[i] == 0x5D {
          i += 1
          return JSONNode(line: start, value: .array(elements))
        } else {
          throw error("expected ',' or ']' in the array")
        }
      }
    case 0x22:
      return JSONNode(line: start, value: .string(try string()))
    case 0x74 where bytes[i...].starts(with: Array("true".utf8)):
      i += 4
      return JSONNode(line: start, value: .bool(true))
    case 0x66 where bytes[i...].starts(with: Array("false".utf8)):
      i += 5
      return JSONNode(line: start, value: .bool(false))
    case 0x6E where bytes[i...].starts(with: Array("null".utf8)):
      i += 4
      return JSONNode(line: start, value: .null)
    case 0x2D, 0x30...0x39:
      return JSONNode(line: start, value: .number(try number()))
    default:
      throw error("expected a JSON value")
    }
  }

  private mutating func number() throws -> String {
    let start = i
    if bytes[i] == 0x2D { i += 1 }
    func digits() -> Int {
      let from = i
      while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
      return i - from
    }
    let intStart = i
    guard digits() > 0 else { throw error("expected digits in the number") }
    if bytes[intStart] == 0x30, i - intStart > 1 { throw error("numbers do not start with 0") }
    if i < bytes.count, bytes[i] == 0x2E {
      i += 1
      guard digits() > 0 else { throw error("expected digits after '.'") }
    }
    if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
      i += 1
      if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
      guard digits() > 0 else { throw error("expected digits in the exponent") }
    }
    return String(decoding: bytes[start..<i], as: UTF8.self)
  }

  private mutating func hex4() throws -> UInt32 {
    guard i + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16)
    else { throw error("expected four hex digits after \\u") }
    i += 4
    return value
  }

  private mutating func string() throws -> String {
    i += 1
    var out: [UInt8] = []
    while true {
      guard i < bytes.count else { throw error("the file ends inside a string; add '\"'") }
      let c = bytes[i]
      if c == 0x22 {
        i += 1
        return String(decoding: out, as: UTF8.self)
      }
      if c < 0x20 { throw error("a control character inside a string; write it as \\n or \\u00XX") }
      if c != 0x5C {
        out.append(c)
        i += 1
        continue
      }
      i += 1
      guard i < bytes.count else { throw error("the file ends inside a string") }
      let escape = bytes[i]
      i += 1
      switch escape {
      case 0x22, 0x5C, 0x2F: out.append(escape)
      case 0x62: out.append(0x08)
      case 0x66: out.append(0x0C)
      case 0x6E: out.append(0x0A)
      case 0x72: out.append(0x0D)
      case 0x74: out.append(0x09)
      case 0x75:
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar), i + 1 < bytes.count, bytes[i] == 0x5C,
          bytes[i + 1] == 0x75
        {
          i += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard Unicode.Scalar(scalar) != nil else { throw error("a lone UTF-16 surrogate") }
        AppleHealthExportParser.appendUTF8(scalar, to: &out)
      default:
        throw error("unknown escape in a string")
      }
    }
  }
}
