import Foundation

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
    try parse(bytes, Parser(streamed: streamed), element: element, record: { (_: RawRecord) in })
  }

  /// What a member of a streamed record holds, for the members a reader asks for: what
  /// ``ImportJSONValue`` would hold, without a tree (no reader takes an object, an array or
  /// a boolean there: they are `other`).
  public enum Scalar: Hashable, Sendable {
    case string(String)
    /// The number as written.
    case number(String)
    case null
    case other
  }

  /// One element of the streamed array, read member by member: its line, whether it is an
  /// object, and for each key asked for the value of the first member of that name (as
  /// ``ImportJSONValue/subscript(_:)`` finds it); nil when there is none.
  public struct Record: Sendable {
    public var line: Int
    public var isObject: Bool
    public var values: [Scalar?]
  }

  /// Parses a whole document as ``parse(_:streaming:element:)`` does, with the same errors
  /// at the same places, except that each element of the array `streamed` names goes to
  /// `record` as the values of `keys`, read without building a tree for it: its other
  /// members are read, checked and dropped.
  ///
  /// - Throws: `ImportError` with line and column at the first syntax error.
  public static func parse(
    _ bytes: [UInt8], streaming streamed: StreamedArray, keys: [String],
    record: (Record) -> Void
  ) throws -> JSONNode {
    try parse(bytes, streaming: streamed, keys: keys, byShape: true, record: record)
  }

  /// ``parse(_:streaming:keys:record:)``, each record read the general way when `byShape` is
  /// false (``ImportJSONRecordShape``: the tests compare the two ways).
  static func parse(
    _ bytes: [UInt8], streaming streamed: StreamedArray, keys: [String], byShape: Bool,
    record: (Record) -> Void
  ) throws -> JSONNode {
    try parse(
      bytes, streaming: streamed, keys: keys, byShape: byShape,
      rawRecord: { raw in
        record(
          Record(
            line: raw.line, isObject: raw.isObject, values: raw.values.indices.map(raw.scalar)))
      })
  }

  /// A member's value in a streamed record as it lies in the document, for a reader that
  /// reads numbers, dates and words from their bytes without making strings: the bytes are
  /// the document's, valid only during the call of `record` that hands them over.
  ///
  /// A plain value without references, so that the record's values are reset, stored and
  /// read as memory: with the decoded `String` inside, each reset, store and read of a
  /// `RawScalar?` copied or destroyed it out of line, and each store checked the array's
  /// uniqueness (`Parser.record` and `scalar` took 1,502 instructions a Fitbit log, 1,266
  /// after, and the outlined copies about 120 more: wread11, callgrind, 100,000 logs).
  enum RawScalar {
    /// A string without escapes whose bytes are all ASCII: its bytes between the quotes.
    case ascii(UnsafeBufferPointer<UInt8>)
    /// Any other string, decoded (and checked) as the tree decodes it: its place in the
    /// record's ``RawRecord/decoded``.
    case string(Int)
    /// A number: its text as written, its syntax checked.
    case number(UnsafeBufferPointer<UInt8>)
    case null
    case other
  }

  /// A ``Record`` whose values are ``RawScalar``s, valid only during the call that hands it
  /// over.
  struct RawRecord {
    var line: Int
    var isObject: Bool
    var values: UnsafeBufferPointer<RawScalar?>
    /// The strings of this record's `.string` values.
    var decoded: [String]

    /// The value of key `index` when it is a string.
    func string(_ index: Int) -> String? {
      switch values[index] {
      case .ascii(let bytes)?: String(decoding: bytes, as: UTF8.self)
      case .string(let slot)?: decoded[slot]
      default: nil
      }
    }

    /// The text of key `index` when it is a string or a number, as ``Scalar`` holds it; nil
    /// for anything else.
    func text(_ index: Int) -> String? {
      switch values[index] {
      case .ascii(let bytes)?, .number(let bytes)?: String(decoding: bytes, as: UTF8.self)
      case .string(let slot)?: decoded[slot]
      default: nil
      }
    }

    /// The ``Scalar`` a ``Record`` holds for key `index`.
    func scalar(_ index: Int) -> Scalar? {
      switch values[index] {
      case nil: nil
      case .ascii(let bytes)?: .string(String(decoding: bytes, as: UTF8.self))
      case .string(let slot)?: .string(decoded[slot])
      case .number(let bytes)?: .number(String(decoding: bytes, as: UTF8.self))
      case .null?: .null
      case .other?: .other
      }
    }
  }

  /// ``parse(_:streaming:keys:record:)`` handing each record over as it lies in the
  /// document: the same checks and errors, no string made for a number or an ASCII string.
  static func parse(
    _ bytes: [UInt8], streaming streamed: StreamedArray, keys: [String], byShape: Bool = true,
    rawRecord record: (RawRecord) -> Void
  ) throws -> JSONNode {
    try parse(.bytes(bytes), streaming: streamed, keys: keys, byShape: byShape, rawRecord: record)
  }

  /// ``parse(_:streaming:keys:byShape:rawRecord:)`` of an input: a file is read in pieces
  /// (``ImportJSONWindow``), the same records, lines and errors as from its whole bytes.
  static func parse(
    _ input: ImportInput, streaming streamed: StreamedArray, keys: [String],
    byShape: Bool = true, rawRecord record: (RawRecord) -> Void
  ) throws -> JSONNode {
    var parser = Parser(streamed: streamed)
    parser.usesShapes = byShape
    parser.keys = keys.map { Array($0.utf8) }
    parser.known = ImportJSONKeys(keys.map { Array($0.utf8) })
    guard case .file = input else {
      return try parse(input.allBytes(), parser, element: { _ in }, record: record)
    }
    let pieces = try input.pieces()
    let window = ImportJSONWindow(
      capacity: ImportInput.chunkSize, ahead: ImportInput.chunkSize / 16, source: pieces.read)
    return try parse(window, parser, whole: input.allBytes, record: record)
  }

  /// ``parse(_:streaming:keys:byShape:rawRecord:)`` reading from `window`; the document is
  /// read again from `whole`'s bytes when a part of it before the streamed array does not lie
  /// in the first window (no record was handed over then).
  static func parse(
    _ window: ImportJSONWindow, streaming streamed: StreamedArray, keys: [String],
    byShape: Bool = true, whole: () throws -> [UInt8], rawRecord record: (RawRecord) -> Void
  ) throws -> JSONNode {
    var parser = Parser(streamed: streamed)
    parser.usesShapes = byShape
    parser.keys = keys.map { Array($0.utf8) }
    parser.known = ImportJSONKeys(keys.map { Array($0.utf8) })
    return try parse(window, parser, whole: whole, record: record)
  }

  private static func parse(
    _ window: ImportJSONWindow, _ parser: Parser, whole: () throws -> [UInt8],
    record: (RawRecord) -> Void
  ) throws -> JSONNode {
    try window.fillFirst()
    var reader = JSONReader(bytes: window.bytes)
    if window.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
    var lines = LineCounter()
    var windowed = parser
    windowed.window = window
    do {
      let document = try windowed.node(
        &reader, lines: &lines, depth: 0, element: { _ in }, record: record)
      if window.isAtEnd {
        try reader.expectEnd()
        return document
      }
    } catch {
      if let failure = window.failure { throw failure }
      if window.streamStarted || window.isAtEnd {
        let placed = window.placed(error)
        throw ImportError(line: placed.line, column: placed.column, placed.message)
      }
    }
    // The document's start reaches past the first window: read whole, as it always was.
    return try parse(whole(), parser, element: { _ in }, record: record)
  }

  private static func parse(
    _ bytes: [UInt8], _ parser: Parser, element: (JSONNode) -> Void,
    record: (RawRecord) -> Void
  ) throws -> JSONNode {
    do {
      return try JSONReader.withReader(over: bytes) { (reader) throws(JSONSyntaxError) in
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        var lines = LineCounter()
        var parser = parser
        let document = try parser.node(
          &reader, lines: &lines, depth: 0, element: element, record: record)
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
    /// The keys of the members a streamed record hands over, when its elements go to
    /// `record` rather than to `element`.
    var keys: [[UInt8]]?
    /// The keys, and other names met, recognized where they lie (``ImportJSONKeys``).
    var known = ImportJSONKeys([])
    /// The last record's shape, the next record read by it when it fits
    /// (``ImportJSONRecordShape``); `usesShapes` false reads every record the general way
    /// (the tests compare the two).
    var shape = ImportJSONRecordShape()
    var usesShapes = true
    /// Where the values of the record read the general way lay, for its shape.
    var marks: [ImportJSONRecordShape.Mark] = []
    /// The part of the file held, when the file is read in pieces; nil when the whole
    /// document is in memory.
    var window: ImportJSONWindow?

    init(streamed: StreamedArray?) { self.streamed = streamed }

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
      element: (JSONNode) -> Void, record: (RawRecord) -> Void
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
                element: element, record: record)))
        }
        return JSONNode(line: line, value: .object(members))
      case 0x5B:
        try reader.beginArray()
        if streams(depth: depth, key: key) {
          if let keys, let window {
            window.streamStarted = true
            let values = UnsafeMutableBufferPointer<RawScalar?>.allocate(capacity: keys.count)
            values.initialize(repeating: nil)
            defer { values.deallocate() }
            var decoded: [String] = []
            while try nextElement(&reader, lines: &lines, window: window) {
              record(
                try windowedRecord(
                  &reader, lines: &lines, window: window, depth: depth + 1, keys: keys,
                  values: values, decoded: &decoded))
            }
            // What follows the array is read whole: a bracket or two, or a few members.
            try window.readRest(&reader, &lines)
          } else if let keys {
            // Plain values (``RawScalar``): allocated once, neither retained nor released.
            let values = UnsafeMutableBufferPointer<RawScalar?>.allocate(capacity: keys.count)
            values.initialize(repeating: nil)
            defer { values.deallocate() }
            var decoded: [String] = []
            while try reader.nextElement() {
              record(
                try self.record(
                  &reader, lines: &lines, depth: depth + 1, keys: keys, values: values,
                  decoded: &decoded))
            }
          } else {
            while try reader.nextElement() {
              element(
                try node(
                  &reader, lines: &lines, depth: depth + 1, element: element, record: record))
            }
          }
          return JSONNode(line: line, value: .array([]))
        }
        var elements: [JSONNode] = []
        while try reader.nextElement() {
          elements.append(
            try node(&reader, lines: &lines, depth: depth + 1, element: element, record: record))
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

    /// `reader.nextElement()` in a window: refilled first when little is left, and read
    /// again after more is read when it met the window's end (its errors lie at the byte
    /// that is wrong, or at the end).
    mutating func nextElement(
      _ reader: inout JSONReader, lines: inout LineCounter, window: ImportJSONWindow
    ) throws(JSONSyntaxError) -> Bool {
      if reader.bytes.count &- reader.offset < window.ahead, !window.isAtEnd {
        try window.readMore(&reader, &lines)
      }
      while true {
        let saved = reader
        do {
          return try reader.nextElement()
        } catch {
          guard reader.offset >= reader.bytes.count, !window.isAtEnd else { throw error }
          reader = saved
          try window.readMore(&reader, &lines)
        }
      }
    }

    /// ``record(_:lines:depth:keys:values:decoded:)`` in a window: kept when the record
    /// ends before the window's last byte or the file ends there; read again otherwise,
    /// after reading more (an error, only once the value lies whole in the window).
    mutating func windowedRecord(
      _ reader: inout JSONReader, lines: inout LineCounter, window: ImportJSONWindow,
      depth: Int, keys: [[UInt8]], values: UnsafeMutableBufferPointer<RawScalar?>,
      decoded: inout [String]
    ) throws(JSONSyntaxError) -> RawRecord {
      while true {
        let saved = reader
        let savedLines = lines
        do {
          let read = try record(
            &reader, lines: &lines, depth: depth, keys: keys, values: values, decoded: &decoded)
          if reader.offset < reader.bytes.count || window.isAtEnd { return read }
          reader = saved
          lines = savedLines
          try window.readMore(&reader, &lines)
        } catch {
          if window.isAtEnd { throw error }
          let failed = reader
          reader = saved
          lines = savedLines
          if window.holdsValue(from: reader.offset) {
            reader = failed
            throw error
          }
          try window.readValue(&reader, &lines)
        }
      }
    }

    /// One element of the streamed array as a ``Record``, read as ``node(_:lines:depth:key:element:record:)``
    /// reads it (the same checks, the same errors), `values` and `decoded` reused from element
    /// to element.
    mutating func record(
      _ reader: inout JSONReader, lines: inout LineCounter, depth: Int, keys: [[UInt8]],
      values: UnsafeMutableBufferPointer<RawScalar?>, decoded: inout [String]
    ) throws(JSONSyntaxError) -> RawRecord {
      values.update(repeating: nil)
      if !decoded.isEmpty { decoded.removeAll(keepingCapacity: true) }
      guard depth < 512 else { throw reader.error("JSON nested more than 512 deep") }
      reader.skipWhitespace()
      guard reader.peek() == 0x7B else {
        let node = try node(
          &reader, lines: &lines, depth: depth, element: { _ in }, record: { _ in })
        return RawRecord(
          line: node.line, isObject: false, values: UnsafeBufferPointer(values), decoded: decoded)
      }
      let start = reader.offset
      let line = lines.line(at: start, in: reader.bytes)
      if shape.isReady, shape.read(&reader, into: values) {
        // Its newlines are the shape's: not looked for again (``LineCounter/skip(from:to:newlines:)``).
        lines.skip(from: start, to: reader.offset, newlines: shape.newlines)
        return RawRecord(
          line: line, isObject: true, values: UnsafeBufferPointer(values), decoded: decoded)
      }
      values.update(repeating: nil)
      let makesShape = usesShapes && shape.isWorthTrying
      if makesShape { marks.removeAll(keepingCapacity: true) }
      try reader.beginObject()
      var place = 0
      while try reader.nextMember() {
        var wanted: Int?
        reader.skipWhitespace()
        if let found = known.match(&reader, place: place) {
          try reader.readColon()
          wanted = found.key
        } else {
          let key = try reader.readKey()
          if key.hasEscapes || !key.isASCII {
            // Decoded as the tree decodes every name: a bad escape or bad UTF-8 is its error.
            let name = Array(try reader.decode(key).utf8)
            wanted = keys.firstIndex(of: name)
          } else {
            wanted = keys.firstIndex { Self.same($0, key.raw) }
            // Not one of the names kept (`match` looked at all): kept for the next records.
            if wanted == nil { known.add(key.raw, as: nil) }
          }
        }
        place += 1
        reader.skipWhitespace()
        let valueStart = reader.offset
        if let index = wanted, case .none = values[index] {
          values[index] = try scalar(&reader, lines: &lines, depth: depth + 1, decoded: &decoded)
          if makesShape {
            marks.append(.init(start: valueStart, end: reader.offset, key: index))
          }
        } else {
          _ = try scalar(&reader, lines: &lines, depth: depth + 1, keeps: false, decoded: &decoded)
          if makesShape { marks.append(.init(start: valueStart, end: reader.offset, key: nil)) }
        }
      }
      if makesShape { shape.make(reader, start: start, end: reader.offset, marks: marks) }
      return RawRecord(
        line: line, isObject: true, values: UnsafeBufferPointer(values), decoded: decoded)
    }

    /// Whether a key's bytes are `raw`'s, compared byte by byte in memory.
    @inline(__always)
    static func same(_ key: [UInt8], _ raw: UnsafeBufferPointer<UInt8>) -> Bool {
      guard key.count == raw.count else { return false }
      return key.withUnsafeBufferPointer { key in
        for index in 0..<key.count where key[index] != raw[index] { return false }
        return true
      }
    }

    /// A member's value as ``node(_:lines:depth:key:element:record:)`` reads it, kept as a
    /// ``RawScalar`` (`keeps`: false reads and checks it, keeping no string), a decoded
    /// string appended to `decoded`.
    ///
    /// Whitespace is skipped once, by `peek`: a second loop before it took 5.6 M
    /// instructions at 100,000 Fitbit logs, eight a member (callgrind, wfit13).
    mutating func scalar(
      _ reader: inout JSONReader, lines: inout LineCounter, depth: Int, keeps: Bool = true,
      decoded: inout [String]
    ) throws(JSONSyntaxError) -> RawScalar {
      switch reader.peek() {
      case 0x22:
        if let plain = reader.readPlainString() { return keeps ? .ascii(plain) : .other }
        let raw = try reader.readRawString()
        if !raw.hasEscapes && raw.isASCII { return keeps ? .ascii(raw.raw) : .other }
        // Decoded as the tree decodes it: a bad escape or bad UTF-8 is its error.
        let text = try reader.decode(raw)
        guard keeps else { return .other }
        decoded.append(text)
        return .string(decoded.count - 1)
      case 0x6E where reader.readNullIfPresent():
        return .null
      case .some(0x2D), .some(0x30...0x39):
        guard keeps else {
          try reader.skipNumber()
          return .other
        }
        return .number(try reader.readNumberBytes())
      default:
        // Objects, arrays, booleans and what is no value: as the tree reads them.
        _ = try node(
          &reader, lines: &lines, depth: depth, element: { _ in }, record: { _ in })
        return .other
      }
    }
  }

  /// Line numbers of offsets asked for in increasing order, counted once.
  struct LineCounter {
    var offset = 0
    var line = 1

    /// Counts `newlines` for `start..<end` without looking at its bytes, when the count
    /// stands at `start`: a record read by its shape, whose newlines the shape knows
    /// (`memchr` over each Fitbit log took about 115 instructions: wfit14, callgrind).
    mutating func skip(from start: Int, to end: Int, newlines: Int) {
      guard offset == start, start <= end else { return }
      offset = end
      line += newlines
    }

    mutating func line(at target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
      // Each newline found by the C library's `memchr`, which looks at 32 bytes a step: a
      // record of a large file lies past a hundred bytes or more with one newline in them,
      // and counting them sixteen bytes a step in Swift took about 200 instructions a Fitbit
      // log and 340 a weigh entry (wread11, callgrind, 100,000 records).
      guard offset < target else { return line }
      // A few bytes (the `,\n ` between two records read by their shape): one by one, cheaper
      // than the call.
      if target - offset <= 8, target <= bytes.count {
        while offset < target {
          if bytes[offset] == 0x0A { line += 1 }
          offset += 1
        }
        return line
      }
      guard let base = bytes.baseAddress, target <= bytes.count else {
        while offset < target {
          if bytes[offset] == 0x0A { line += 1 }
          offset += 1
        }
        return line
      }
      let start = UnsafeRawPointer(base)
      while offset < target,
        let found = memchr(start + offset, 0x0A, target - offset)
      {
        line += 1
        offset = UnsafeRawPointer(found) - start + 1
      }
      offset = target
      return line
    }
  }
}
