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
    try parse(bytes, streaming: nil) { _ in }
  }

  /// The array whose elements ``parse(_:streaming:element:)`` hands over one at a time.
  public enum StreamedArray: Sendable {
    /// The document itself, when it is an array (Fitbit's list of logs).
    case document
    /// The first member with this name of the document, when the document is an object and
    /// that member an array (`entries` of weigh's JSON).
    case member(String)
  }

  /// Parses a whole document as `parse(_:)` does, except that the elements of the array
  /// `streamed` names go to `element` as each is read and are left out of the tree (that
  /// array is empty in it): a file of a million records is never held as a tree. A syntax
  /// error anywhere still fails the whole parse, after `element` may have seen some
  /// elements; the caller keeps what it built from them only when the parse succeeds.
  ///
  /// - Throws: `ImportError` with line and column at the first syntax error.
  public static func parse(
    _ bytes: [UInt8], streaming streamed: StreamedArray?, element: (JSONNode) -> Void
  ) throws -> JSONNode {
    do {
      return try JSONReader.withReader(over: bytes) { (reader) throws(JSONSyntaxError) in
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        var lines = LineCounter()
        var parser = Parser(streamed: streamed)
        let document = try parser.node(&reader, lines: &lines, depth: 0, element: element)
        try reader.expectEnd()
        return document
      }
    } catch {
      throw ImportError(line: error.line, column: error.column, error.message)
    }
  }

  /// One parse: where the streamed array is, and whether it was found yet.
  private struct Parser {
    var streamed: StreamedArray?

    /// Whether the array starting at `depth`, as the member `key` of its object (nil for an
    /// element or the document), is the streamed one; it is streamed once.
    mutating func streams(depth: Int, key: String?) -> Bool {
      let match: Bool
      switch streamed {
      case .document: match = depth == 0
      case .member(let name): match = depth == 1 && key == name
      case nil: match = false
      }
      if match { streamed = nil }
      return match
    }

    mutating func node(
      _ reader: inout JSONReader, lines: inout LineCounter, depth: Int, key: String? = nil,
      element: (JSONNode) -> Void
    ) throws(JSONSyntaxError) -> JSONNode {
      guard depth < 512 else { throw reader.error("JSON nested more than 512 deep") }
      reader.skipWhitespace()
      let line = lines.line(at: reader.offset, in: reader.bytes)
      switch reader.peek() {
      case 0x7B:
        try reader.beginObject()
        var members: [JSONMember] = []
        var names: Set<String> = []
        while let key = try reader.nextKey() {
          let name = try reader.decode(key)
          // Only the first member of a name counts (`ImportJSONValue.subscript`).
          let first = depth == 0 && names.insert(name).inserted
          members.append(
            JSONMember(
              key: name,
              node: try node(
                &reader, lines: &lines, depth: depth + 1, key: first ? name : nil,
                element: element)))
        }
        return JSONNode(line: line, value: .object(members))
      case 0x5B:
        try reader.beginArray()
        if streams(depth: depth, key: key) {
          while try reader.nextElement() {
            element(try node(&reader, lines: &lines, depth: depth + 1, element: element))
          }
          return JSONNode(line: line, value: .array([]))
        }
        var elements: [JSONNode] = []
        while try reader.nextElement() {
          elements.append(try node(&reader, lines: &lines, depth: depth + 1, element: element))
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
