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

/// The word-at-a-time tests of `AppleHealthExportParser.plainRunEnd`, on eight bytes read
/// little-endian (byte k in bits 8k…8k+7).
enum ValueScan {
  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080
  static let lessThans: UInt64 = 0x3C3C_3C3C_3C3C_3C3C
  static let ampersands: UInt64 = 0x2626_2626_2626_2626

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

  /// Whether the value scan must look at `byte`: one byte of what the words test.
  @inline(__always)
  static func needsLook(_ byte: UInt8, quote: UInt8) -> Bool {
    byte == quote || byte == 0x3C || byte == 0x26 || byte < 0x20
  }
}
