/// `2026-01-03T06:30:00Z` (a weigh entry's `instant`, what ``UTCInstantText/parse(_:)``
/// reads) with its separators and fourteen digits checked three words at a time: the same
/// seconds as the digit-by-digit reading (`UTCInstantText.parseWallClock` and the `Z`) for
/// every text, nil for the same texts (`UTCInstantWordsTests`).
///
/// Why: digit by digit, each checked and added in a call of its own, took about 440
/// instructions an entry of a weigh JSON file (wread11, callgrind, 100,000 entries); with
/// `exported`'s other checks, 1,401 an entry before and 981 after.
enum UTCInstantWords {
  /// Seconds since 1970 of `YYYY-MM-DDTHH:MM:SSZ`; nil for any other text or an impossible
  /// date or time.
  ///
  /// - Complexity: O(1), without allocating.
  @inline(__always)
  static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard text.count == 20, let base = text.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    // Bytes 0–7 `YYYY-MM-`, 8–15 `DDTHH:MM`, 12–19 `H:MM:SSZ` (the last two overlap).
    // checked: byte-order swaps of UInt64s, which cannot trap
    let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
    // checked: as above
    let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    // checked: as above
    let third = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
    guard first & Self.firstSeparators == Self.firstSeparatorBytes,
      second & Self.secondSeparators == Self.secondSeparatorBytes,
      third & Self.thirdSeparators == Self.thirdSeparatorBytes,
      Self.areDigits(first, Self.firstDigits), Self.areDigits(second, Self.secondDigits),
      Self.areDigits(third, Self.thirdDigits)
    else { return nil }
    // The digit in byte `index` of `word` (a digit byte checked above).
    @inline(__always) func digit(_ word: UInt64, _ index: UInt64) -> Int {
      Int(truncatingIfNeeded: (word >> (index * 8)) & 0x0F)
    }
    let year =
      digit(first, 0) * 1000 + digit(first, 1) * 100 + digit(first, 2) * 10 + digit(first, 3)
    let month = digit(first, 5) * 10 + digit(first, 6)
    let day = digit(second, 0) * 10 + digit(second, 1)
    let hour = digit(second, 3) * 10 + digit(second, 4)
    let minute = digit(second, 6) * 10 + digit(second, 7)
    let secondOfMinute = digit(third, 5) * 10 + digit(third, 6)
    guard CivilDate.isValid(year: year, month: month, day: day), hour < 24, minute < 60,
      secondOfMinute < 60
    else { return nil }
    return CivilDate(year: year, month: month, day: day)
      .seconds(at: hour * 3600 + minute * 60 + secondOfMinute)
  }

  /// Whether every byte of `word` that `mask` keeps (0xFF bytes) is an ASCII digit: its
  /// high half is 3, and adding 6 to it keeps the high half 3 (0x3A–0x3F do not). The
  /// bytes are masked before the addition, so no carry runs from one byte into the next.
  @inline(__always)
  static func areDigits(_ word: UInt64, _ mask: UInt64) -> Bool {
    let highs: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    let threes: UInt64 = 0x3030_3030_3030_3030
    let kept = word & mask
    return kept & highs == threes & mask
      && (kept &+ (0x0606_0606_0606_0606 & mask)) & highs == threes & mask
  }

  // Byte masks (the first byte of the text lowest) and the separators they must hold.
  static let firstSeparators: UInt64 = 0xFF00_00FF_0000_0000  // bytes 4 and 7: `-`
  static let firstSeparatorBytes: UInt64 = 0x2D00_002D_0000_0000
  static let firstDigits: UInt64 = 0x00FF_FF00_FFFF_FFFF
  static let secondSeparators: UInt64 = 0x0000_FF00_00FF_0000  // bytes 10 and 13: `T`, `:`
  static let secondSeparatorBytes: UInt64 = 0x0000_3A00_0054_0000
  static let secondDigits: UInt64 = 0xFFFF_00FF_FF00_FFFF
  static let thirdSeparators: UInt64 = 0xFF00_00FF_0000_0000  // bytes 16 and 19: `:`, `Z`
  static let thirdSeparatorBytes: UInt64 = 0x5A00_003A_0000_0000
  static let thirdDigits: UInt64 = 0x00FF_FF00_0000_0000  // bytes 17 and 18
}
