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
  /// The number, if this is one and it is finite and not subnormal (``DecimalText``).
  public var number: Double? {
    if case .number(let text) = value { DecimalText.parseJSONNumber(text) } else { nil }
  }
  /// Whether this is `null`.
  public var isNull: Bool { value == .null }
}

/// Reads a whole JSON document into `JSONNode`s that know their lines, with the store's
/// `JSONReader` underneath, so that importers can report rows by line.
public enum ImportJSONReader {
  /// Parses a whole document (a UTF-8 byte order mark is skipped).
  ///
  /// - Throws: `ImportError` with line and column at the first syntax error.
  public static func parse(_ bytes: [UInt8]) throws -> JSONNode {
    do {
      return try JSONReader.withReader(over: bytes) { (reader) throws(JSONSyntaxError) in
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        var lines = LineCounter()
        let document = try node(&reader, lines: &lines, depth: 0)
        try reader.expectEnd()
        return document
      }
    } catch {
      throw ImportError(line: error.line, column: error.column, error.message)
    }
  }

  private static func node(
    _ reader: inout JSONReader, lines: inout LineCounter, depth: Int
  ) throws(JSONSyntaxError) -> JSONNode {
    guard depth < 512 else { throw reader.error("JSON nested more than 512 deep") }
    reader.skipWhitespace()
    let line = lines.line(at: reader.offset, in: reader.bytes)
    switch reader.peek() {
    case 0x7B:
      try reader.beginObject()
      var members: [JSONMember] = []
      while let key = try reader.nextKey() {
        let name = try reader.decode(key)
        members.append(
          JSONMember(key: name, node: try node(&reader, lines: &lines, depth: depth + 1)))
      }
      return JSONNode(line: line, value: .object(members))
    case 0x5B:
      try reader.beginArray()
      var elements: [JSONNode] = []
      while try reader.nextElement() {
        elements.append(try node(&reader, lines: &lines, depth: depth + 1))
      }
      return JSONNode(line: line, value: .array(elements))
    case 0x22:
      return JSONNode(line: line, value: .string(try reader.readString()))
    case 0x74, 0x66:
      return JSONNode(line: line, value: .bool(try reader.readBool()))
    case 0x6E where reader.readNullIfPresent():
      return JSONNode(line: line, value: .null)
    case .some(0x2D), .some(0x30...0x39):
      return JSONNode(line: line, value: .number(try reader.readNumberText()))
    case nil:
      throw reader.error("the file ends where a JSON value was expected")
    default:
      throw reader.error("expected a JSON value")
    }
  }

  /// Line numbers of offsets asked for in increasing order, counted once.
  private struct LineCounter {
    var offset = 0
    var line = 1

    mutating func line(at target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
      while offset < target {
        if bytes[offset] == 0x0A { line += 1 }
        offset += 1
      }
      return line
    }
  }
}
