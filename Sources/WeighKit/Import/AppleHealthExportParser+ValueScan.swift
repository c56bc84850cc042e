extension AppleHealthExportParser {
  /// The index of the first byte at or after `start` that the scan of an attribute value
  /// must look at: the closing `quote`, `<`, `&`, or a control byte (below 0x20: line
  /// breaks and tabs among them); `p.count` when there is none.
  ///
  /// Eight bytes at a time, each test a word's worth of byte compares (the bit tricks of
  /// "Bit Twiddling Hacks", `haszero` and `hasless`): the byte-at-a-time loop it replaced made
  /// six compares a byte, and values are most of an export's bytes.
  ///
  /// - Complexity: O(k) in the bytes skipped.
  @inline(__always)
  static func plainRunEnd(_ p: UnsafeBufferPointer<UInt8>, from start: Int, quote: UInt8) -> Int {
    let n = p.count
    var j = start
    if let base = p.baseAddress {
      let raw = UnsafeRawPointer(base)
      let quotes = ValueScan.ones &* UInt64(quote)  // checked: a byte times 0x0101…01
      while j &+ 8 <= n {
        // checked: eight bytes read as one word, no conversion of a value
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: j, as: UInt64.self))
        let flags =
          ValueScan.zeroBytes(word ^ quotes) | ValueScan.zeroBytes(word ^ ValueScan.lessThans)
          | ValueScan.zeroBytes(word ^ ValueScan.ampersands) | ValueScan.controlBytes(word)
        // The lowest flag marks the first such byte exactly: a borrow only runs upward.
        if flags != 0 { return j &+ flags.trailingZeroBitCount &>> 3 }
        j &+= 8
      }
    }
    while j < n {
      if ValueScan.needsLook(p[j], quote: quote) { return j }
      j += 1
    }
    return n
  }
}

extension AppleHealthExportParser {
  /// The index of the first byte at or after `start` that may end an attribute's name: `=`,
  /// `<`, `>`, `/` or a byte up to 0x20 (spaces, line breaks and tabs among them); `p.count`
  /// when there is none. The caller looks at the byte found: control bytes other than line
  /// breaks and tabs belong to the name, as the byte loop this replaced read them.
  ///
  /// Eight bytes at a time, as `plainRunEnd`: names are a tenth of an export's bytes, and the
  /// byte loop made five compares a byte.
  ///
  /// - Complexity: O(k) in the bytes skipped.
  @inline(__always)
  static func nameRunEnd(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    let n = p.count
    var j = start
    if let base = p.baseAddress {
      let raw = UnsafeRawPointer(base)
      while j &+ 8 <= n {
        // checked: eight bytes read as one word, no conversion of a value
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: j, as: UInt64.self))
        // `<`, `=` and `>` are 0x3C to 0x3E: below 3 once 0x3C is taken away bit by bit.
        let flags =
          ValueScan.bytesBelow(word ^ ValueScan.lessThans, 3)
          | ValueScan.zeroBytes(word ^ ValueScan.slashes) | ValueScan.bytesBelow(word, 0x21)
        if flags != 0 { return j &+ flags.trailingZeroBitCount &>> 3 }
        j &+= 8
      }
    }
    while j < n {
      if ValueScan.mayEndName(p[j]) { return j }
      j += 1
    }
    return n
  }

  /// The index of the first byte from `start` to `end` that decoding a value must look at:
  /// `&` or a byte below 0x20 (line breaks and tabs among them); `end` when there is none.
  /// The caller looks at the byte found: other control bytes are copied as they are.
  ///
  /// Eight bytes at a time, as `plainRunEnd`: a device's description runs to about 130
  /// bytes between its four references.
  ///
  /// - Complexity: O(k) in the bytes skipped.
  @inline(__always)
  static func decodedRunEnd(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
    -> Int
  {
    var j = start
    if let base = p.baseAddress {
      let raw = UnsafeRawPointer(base)
      while j &+ 8 <= end {
        // checked: eight bytes read as one word, no conversion of a value
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: j, as: UInt64.self))
        let flags =
          ValueScan.zeroBytes(word ^ ValueScan.ampersands) | ValueScan.controlBytes(word)
        if flags != 0 { return j &+ flags.trailingZeroBitCount &>> 3 }
        j &+= 8
      }
    }
    while j < end {
      let c = p[j]
      if c == 0x26 || c < 0x20 { return j }
      j += 1
    }
    return end
  }
}

/// The word-at-a-time tests of `AppleHealthExportParser.plainRunEnd`, on eight bytes read
/// little-endian (byte k in bits 8k…8k+7).
enum ValueScan {
  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080
  static let lessThans: UInt64 = 0x3C3C_3C3C_3C3C_3C3C
  static let ampersands: UInt64 = 0x2626_2626_2626_2626
  static let slashes: UInt64 = 0x2F2F_2F2F_2F2F_2F2F

  /// The high bit of each zero byte of `word` (and maybe of bytes above the first one).
  @inline(__always)
  static func zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- ones) & ~word & highs
  }

  /// The high bit of each byte of `word` below 0x20 (and maybe of bytes above the first).
  @inline(__always)
  static func controlBytes(_ word: UInt64) -> UInt64 {
    (word &- 0x2020_2020_2020_2020) & ~word & highs
  }

  /// The high bit of each byte of `word` below `limit` (at most 0x80; and maybe of bytes
  /// above the first such one).
  @inline(__always)
  static func bytesBelow(_ word: UInt64, _ limit: UInt64) -> UInt64 {
    (word &- ones &* limit) & ~word & highs
  }

  /// Whether `byte` ends an attribute's name: `=`, a space, a line break, a tab, `>`, `/`, `<`.
  @inline(__always)
  static func endsName(_ byte: UInt8) -> Bool {
    byte == 0x3D || byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x3E
      || byte == 0x2F || byte == 0x3C
  }

  /// Whether the name scan must look at `byte`: one byte of what its words test.
  @inline(__always)
  static func mayEndName(_ byte: UInt8) -> Bool {
    byte <= 0x20 || byte == 0x3C || byte == 0x3D || byte == 0x3E || byte == 0x2F
  }

  /// Whether the value scan must look at `byte`: one byte of what the words test.
  @inline(__always)
  static func needsLook(_ byte: UInt8, quote: UInt8) -> Bool {
    byte == quote || byte == 0x3C || byte == 0x26 || byte < 0x20
  }
}
