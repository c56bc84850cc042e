/// Appends JSON text to a byte buffer: compact or indented, object keys in a stable order.
///
/// Doubles are written with Swift's shortest round-trip description, so reading a written
/// number gives back the identical Double.
public struct JSONWriter {
  /// The text written so far, as UTF-8.
  public var bytes: [UInt8] = []
  /// Set when a NaN or infinity was asked for; `null` was written in its place.
  public private(set) var wroteNonFiniteNumber = false

  /// An empty writer.
  public init() {}

  /// Appends `text` verbatim (it must already be valid JSON where it stands).
  @inline(__always)
  public mutating func raw(_ text: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends one byte verbatim.
  @inline(__always)
  public mutating func raw(byte: UInt8) { bytes.append(byte) }

  /// Appends a string literal, escaping quotes, backslashes and control characters.
  public mutating func write(_ string: String) {
    bytes.append(0x22)
    // Most strings need no escape: copied whole, not byte by byte.
    let copied = string.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
      guard !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return false }
      bytes.append(contentsOf: utf8)
      return true
    }
    if copied != true { escape(string) }
    bytes.append(0x22)
  }

  private mutating func escape(_ string: String) {
    for byte in string.utf8 {
      switch byte {
      case 0x22: bytes.append(0x5C); bytes.append(0x22)
      case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
      case 0x0A: bytes.append(0x5C); bytes.append(0x6E)
      case 0x0D: bytes.append(0x5C); bytes.append(0x72)
      case 0x09: bytes.append(0x5C); bytes.append(0x74)
      case 0x00..<0x20:
        raw("\\u00")
        bytes.append(Self.hexDigits[Int(byte >> 4)])  // checked: a 4-bit nibble
        bytes.append(Self.hexDigits[Int(byte & 0xF)])  // checked: a 4-bit nibble
      default: bytes.append(byte)
      }
    }
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// Appends an integer.
  public mutating func write(_ value: Int) {
    if value < 0 { bytes.append(0x2D) }
    var magnitude = value.magnitude
    guard magnitude >= 10 else {
      bytes.append(0x30 + UInt8(truncatingIfNeeded: magnitude))
      return
    }
    // The digits from the last, on the stack, then copied at once (20 fit any Int).
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var index = 20
      repeat {
        index -= 1
        digits[index] = 0x30 + UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
    }
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
    guard value.isFinite else {
      wroteNonFiniteNumber = true
      raw("null")
      return
    }
    // A whole number below 2^53 is written as `description` spells it, its digits and
    // ".0" (the shortest digits that read back as it are its own), without the shortest-digits
    // search: most of a Health row's numbers (its times, a step count) are whole.
    if value == value.rounded(.towardZero), value.magnitude < 9_007_199_254_740_992,
      value != 0 || value.sign == .plus
    {
      write(Int(value))  // checked: whole, and below 2^53 in magnitude
      raw(".0")
      return
    }
    bytes.append(contentsOf: value.description.utf8)
  }

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
    let start = self.count
    append(contentsOf: repeatElement(0, count: count))
    withUnsafeMutableBufferPointer { target in
      UnsafeMutableRawPointer(target.baseAddress! + start).copyMemory(
        from: source, byteCount: count)
    }
  }
}
