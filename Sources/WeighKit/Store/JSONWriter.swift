/// Appends JSON text to a byte buffer: compact or indented, object keys in a stable order.
///
/// Doubles are written with Swift's shortest round-trip description, so reading a written
/// number gives back the identical Double.
public struct JSONWriter {
  /// The text written so far, as UTF-8.
  public var bytes: [UInt8] = []
  /// Set when a NaN or infinity was asked for; `null` was written in its place.
  public private(set) var wroteNonFiniteNumber = false
  /// The texts of the numbers an entry's `kg` took, kept from row to row
  /// (``ByteCursorDoubleMemo``, taken out by ``EntryCodec`` while it writes a row).
  var doubleTexts = ByteCursorDoubleMemo()
  /// The date of the last entry's `at` (``ByteCursorDayMemo``).
  var lastDay = ByteCursorDayMemo()

  /// An empty writer.
  public init() {}

  /// Appends `text` verbatim (it must already be valid JSON where it stands).
  @inline(__always)
  public mutating func raw(_ text: StaticString) {
    let count = text.utf8CodeUnitCount
    append(atMost: count) { cursor in cursor.literal(text) }
  }

  /// Appends what `body` writes at the cursor it is given, at most `maxCount` bytes, in one
  /// step: room for them is made once, and the bytes are stored through a pointer (a generic
  /// `Array.append(contentsOf:)` per piece was most of the cost of encoding a row). `body`
  /// must write no more than `maxCount` bytes (checked, a trap otherwise).
  @inline(__always)
  mutating func append(atMost maxCount: Int, _ body: (inout ByteCursor) -> Void) {
    bytes.append(addingCapacity: maxCount) { span in
      span.withUnsafeMutableBufferPointer { buffer, initialized in
        var cursor = ByteCursor(buffer.baseAddress! + initialized)
        body(&cursor)
        let written = cursor.count
        precondition(written <= maxCount, "wrote past the room made for it")
        initialized += written
      }
    }
  }

  /// Appends one byte verbatim.
  @inline(__always)
  public mutating func raw(byte: UInt8) { bytes.append(byte) }

  /// Appends a string literal, escaping quotes, backslashes and control characters.
  public mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { utf8 in
      append(atMost: ByteCursor.stringRoom(utf8.count)) { $0.string(utf8) }
    }
  }

  /// Appends an integer.
  public mutating func write(_ value: Int) {
    append(atMost: ByteCursor.integerRoom) { $0.integer(value) }
  }

  /// Drops the bytes after the first `count`, keeping the capacity, and clears
  /// `wroteNonFiniteNumber`: for a writer whose first `count` bytes hold no such number (the
  /// store's buffer of encoded rows, after a refused change).
  mutating func truncate(to count: Int) {
    bytes.removeSubrange(count...)
    wroteNonFiniteNumber = false
  }

  /// Appends a Double in its shortest round-trip form (`68.5`, `70.0`, `1e-05`); NaN and
  /// infinity become `null` and set `wroteNonFiniteNumber`.
  public mutating func write(_ value: Double) {
    var finite = true
    append(atMost: ByteCursor.doubleRoom) { finite = $0.double(value) }
    if !finite { wroteNonFiniteNumber = true }
  }

  /// Marks that a number that is not finite was written as `null` (by a codec writing
  /// through `append(atMost:_:)`, `ByteCursor.double`).
  mutating func noteNonFiniteNumber() { wroteNonFiniteNumber = true }

  /// Appends `true` or `false`.
  public mutating func write(_ value: Bool) { value ? raw("true") : raw("false") }

  /// Appends a value. Objects are written with their keys sorted by UTF-8 bytes.
  ///
  /// - Parameter indent: nil for compact text on one line; otherwise the depth-0 indent
  ///   width of two-space indented text.
  public mutating func write(_ value: JSONValue, indent: Int? = nil) {
    switch value {
    case .null: raw("null")
    case .bool(let flag): write(flag)
    case .integer(let integer): write(integer)
    case .number(let number): write(number)
    case .string(let string): write(string)
    case .array(let elements):
      guard !elements.isEmpty else { return raw("[]") }
      raw(byte: 0x5B)
      for (index, element) in elements.enumerated() {
        if index > 0 { raw(byte: 0x2C) }
        newline(indent.map { $0 + 2 })
        write(element, indent: indent.map { $0 + 2 })
      }
      newline(indent)
      raw(byte: 0x5D)
    case .object(let members):
      guard !members.isEmpty else { return raw("{}") }
      raw(byte: 0x7B)
      let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      for (index, key) in keys.enumerated() {
        if index > 0 { raw(byte: 0x2C) }
        newline(indent.map { $0 + 2 })
        write(key)
        raw(byte: 0x3A)
        if indent != nil { raw(byte: 0x20) }
        write(members[key]!, indent: indent.map { $0 + 2 })
      }
      newline(indent)
      raw(byte: 0x7D)
    }
  }

  private mutating func newline(_ indent: Int?) {
    guard let indent else { return }
    bytes.append(0x0A)
    bytes.append(contentsOf: repeatElement(0x20, count: indent))
  }
}

extension Array where Element == UInt8 {
  /// Appends `bytes` with one copy of memory. `append(contentsOf:)` of a buffer copies byte
  /// by byte with this toolchain (a tenth of a large import's commit under callgrind, where
  /// the journal record and the table file copy every row).
  mutating func appendMemory(of bytes: UnsafeBufferPointer<UInt8>) {
    let count = bytes.count
    guard count > 0, let source = bytes.baseAddress else { return }
    append(addingCapacity: count) { span in
      span.withUnsafeMutableBufferPointer { target, initialized in
        (target.baseAddress! + initialized).initialize(from: source, count: count)
        initialized += count
      }
    }
  }
}
