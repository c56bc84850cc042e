/// The texts ``ByteCursor/double(_:)`` wrote for the last numbers, by their bits, so that a
/// number written again is copied rather than worked out again: the same weight comes back
/// row after row (a scale's readings in steps of 0.1 lb or 0.05 kg; 882 values among the
/// 100,000 logs of the generated Fitbit file), and a weight converted from pounds (13 to 17
/// digits) took about 574 instructions a row to write, 46 % of an imported entry's encoding;
/// 96 with this memo, misses included (callgrind, 100,000 Fitbit logs, wfit13).
///
/// A text depends only on the value's bits, so a copy is the text `double` writes. A value
/// has a set of two slots (by a multiplicative hash of its bits): a new value goes into the
/// first, the one there moving to the second. With one slot a value (2,048), 38 % of the
/// generated file's weights still missed, two of them sharing a slot and evicting each other
/// in turn. Only a finite value's text of at most 24 bytes is kept (every text but
/// `description`'s longest exponents).
struct ByteCursorDoubleMemo {
  /// Per slot, five words: the value's bits (`empty`: no value), the text's length, and its
  /// bytes in three words (as they lie in memory, zeros after the text). Made at the first use, so a
  /// writer that writes no number makes none.
  private var words: [UInt64] = []

  /// 2,048 sets of two slots (160 KiB): about 1 % of the sets of 882 weights get three.
  static let setShift = 11
  static let wordsPerSlot = 5
  /// A NaN's bits, which no slot keeps (only finite values are kept).
  static let empty: UInt64 = ~0
  /// The longest text kept.
  static let longest = 24

  /// Writes `value` at `cursor` as ``ByteCursor/double(_:)`` does, returning what it
  /// returns; the cursor must have room for ``ByteCursor/doubleRoom`` bytes (a kept text is
  /// stored as 24 bytes, the cursor then moved by its length).
  mutating func double(_ value: Double, into cursor: inout ByteCursor) -> Bool {
    let bits = value.bitPattern
    if words.isEmpty {
      words = Array(repeating: 0, count: Self.wordsPerSlot << (Self.setShift + 1))
      for slot in 0..<(2 << Self.setShift) { words[slot * Self.wordsPerSlot] = Self.empty }
    }
    // checked: the top `setShift` bits of a product, below 2^11
    let set = Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> (64 - Self.setShift))
    let at = set * 2 * Self.wordsPerSlot
    return words.withUnsafeMutableBufferPointer { words in
      var way = at
      while way <= at + Self.wordsPerSlot {
        if words[way] == bits {
          // checked: a length of at most 24 stored below
          cursor.words(words[way + 2], words[way + 3], words[way + 4], count: Int(words[way + 1]))
          return true
        }
        way += Self.wordsPerSlot
      }
      let start = cursor.count
      let finite = cursor.double(value)
      let text = cursor.written(from: start)
      guard finite, text.count <= Self.longest else { return finite }
      var packed: (UInt64, UInt64, UInt64) = (0, 0, 0)
      withUnsafeMutableBytes(of: &packed) { packed in
        packed.copyMemory(from: UnsafeRawBufferPointer(text))
      }
      for word in 0..<Self.wordsPerSlot { words[at + Self.wordsPerSlot + word] = words[at + word] }
      words[at] = bits
      words[at + 1] = UInt64(text.count)  // checked: at most 24
      words[at + 2] = packed.0
      words[at + 3] = packed.1
      words[at + 4] = packed.2
      return finite
    }
  }
}
