// checked-file: bit and hex-digit arithmetic on UInt32 values only; no floating-point value
/// The CRC-32 checksums that protect every record the store writes, as eight lower-case hex
/// digits (the zip checksum, `ZipCRC32`).
enum StoreChecksum {
  /// The checksum of `bytes`.
  static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    var crc = ZipCRC32()
    crc.update(UnsafeRawBufferPointer(bytes))
    return crc.value
  }

  /// The checksum of `bytes`.
  static func of(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBufferPointer { of($0) }
  }

  private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

  /// `value` as eight lower-case hex digits.
  static func hex(_ value: UInt32) -> [UInt8] {
    (0..<8).map { digits[Int(value >> (28 - 4 * UInt32($0)) & 0xF)] }
  }

  /// Overwrites the eight bytes at `offset` of `bytes` with `value` in hex, in place (a
  /// compaction does this once per row, so it allocates nothing).
  static func writeHex(_ value: UInt32, into bytes: inout [UInt8], at offset: Int) {
    digits.withUnsafeBufferPointer { digits in
      bytes.withUnsafeMutableBufferPointer { buffer in
        for index in 0..<8 {
          buffer[offset + index] = digits[Int(value >> (28 - 4 * UInt32(index)) & 0xF)]
        }
      }
    }
  }

  /// Appends `"crc":"xxxxxxxx"` for `value`.
  static func writeMember(_ value: UInt32, into writer: inout JSONWriter) {
    writer.raw("\"crc\":\"")
    let offset = writer.bytes.count
    writer.bytes.append(contentsOf: repeatElement(0x30, count: 8))
    writeHex(value, into: &writer.bytes, at: offset)
    writer.raw(byte: 0x22)
  }

  /// The value of eight hex digits at `offset`, or nil when they are not eight hex digits.
  static func parseHex(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32? {
    guard offset >= 0, offset + 8 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for index in offset..<offset + 8 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x61...0x66: digit = byte - 0x61 + 10
      case 0x41...0x46: digit = byte - 0x41 + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// The fixed end of every checksummed line the store writes: `,"crc":"xxxxxxxx"}`.
  static let lineSuffixLength = 18
  private static let suffixHead: [UInt8] = Array(",\"crc\":\"".utf8)

  /// Checks a line that ends with `,"crc":"xxxxxxxx"}` (the line's bytes in `range`, without
  /// its newline): the checksum covers everything before the `,`.
  ///
  /// - Returns: nil when it matches, else what is wrong.
  static func verifyLine(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
    guard range.count > lineSuffixLength else { return "the record has no checksum" }
    let suffix = range.upperBound - lineSuffixLength
    for (index, byte) in suffixHead.enumerated() where bytes[suffix + index] != byte {
      return "the record has no checksum (it must end with ,\"crc\":\"…\"})"
    }
    guard let stored = parseHex(bytes, at: suffix + 8), bytes[suffix + 16] == 0x22,
      bytes[suffix + 17] == 0x7D
    else { return "the record's checksum is not eight hex digits" }
    let actual = of(UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<suffix]))
    guard actual == stored else {
      return "the record does not match its checksum (changed outside weigh, or damaged)"
    }
    return nil
  }
}

extension JSONReader {
  /// Reads the value of the `"crc"` member whose key `key` was just read: eight hex digits
  /// that are the checksum of everything before the member's comma.
  ///
  /// - Returns: whether the checksum matches, and where its value starts (for errors).
  mutating func readChecksumMember(after key: JSONRawString) throws(JSONSyntaxError) -> (
    matches: Bool, offset: Int
  ) {
    let value = try readRawString()
    var comma = key.offset - 1
    while comma > 0, bytes[comma] != 0x2C { comma -= 1 }
    guard value.raw.count == 8, let stored = StoreChecksum.parseHex(value.raw, at: 0)
    else { throw error("the checksum must be eight hex digits", at: value.offset) }
    let actual = StoreChecksum.of(UnsafeBufferPointer(rebasing: bytes[0..<comma]))
    return (actual == stored, value.offset)
  }
}
