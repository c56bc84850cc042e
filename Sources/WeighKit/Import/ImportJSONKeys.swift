/// The member names of a streamed record, recognized where they lie in the document: the
/// keys a reader asks for, and the other names met in earlier records (`logId`, `bmi`, …),
/// each compared in place with the bytes after a member's opening quote, the name expected
/// at that place (the one found there in the last record) first.
///
/// Why: reading each key as a string (``JSONReader/readKey()``) and then looking it up took
/// about 210 instructions a key, seven keys a Fitbit log and ten a weigh entry; recognized
/// here, about 60 with ``JSONReader/nextMember()`` (callgrind, 100,000 Fitbit logs:
/// docs/performance.md, "The JSON readers' keys in place").
///
/// A name is kept only when it is printable ASCII without `"` or `\`: bytes equal to it and
/// followed by `"` are a string that ``JSONReader/readRawString()`` reads to the same bytes,
/// without escapes and ASCII, so recognizing it in place reads what reading it would.
struct ImportJSONKeys {
  /// Each name's bytes, eight to a word (little-endian, the last word padded with zeros).
  private var words: [UInt64] = []
  /// Each name: its first word in `words`, its length, and the key index it is (nil for a
  /// name no key asks for).
  private var names: [(first: Int, count: Int, key: Int?)] = []
  /// For each member's place in a record, the name found there in the last record.
  private var expected: [Expected] = []

  /// A name expected at a place: when it is at most fifteen bytes, its bytes and the
  /// closing quote as one word or two (and the masks of their bytes), compared with one load
  /// or two (a weigh entry's names of 8–14 bytes took the loop of `matches`, about 89
  /// instructions a key).
  private struct Expected {
    var name: Int
    /// The key index the name is (nil for a name no key asks for), kept here so that a
    /// member's key is known without looking `name` up in `names` (about 12 instructions a
    /// member: wread11's profile).
    var key: Int?
    var word: UInt64
    var mask: UInt64
    /// The second word, for a name of 8 to 15 bytes (mask 0 for a shorter one).
    var secondWord: UInt64
    var secondMask: UInt64
    /// The name's length and its closing quote's.
    var length: Int

    static let none = Expected(
      name: -1, key: nil, word: 0, mask: 0, secondWord: 0, secondMask: 0, length: 0)
  }

  /// At most this many names are kept, each at most `longest` bytes: a file whose records
  /// have ever new names pays a bounded search per key, then reads keys as before.
  static let most = 48
  static let longest = 64

  /// The table of `keys` (in the order of ``ImportJSONReader/RawRecord/values``).
  init(_ keys: [[UInt8]]) {
    for (index, key) in keys.enumerated() { add(key, as: index) }
  }

  /// Whether `name` can be recognized in place: printable ASCII, no quote, no backslash.
  static func isPlain<C: Collection<UInt8>>(_ name: C) -> Bool {
    name.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
  }

  /// Keeps `name`, found to be key `key` (nil: no key's), when it can be recognized in
  /// place and there is room.
  mutating func add<C: Collection<UInt8>>(_ name: C, as key: Int?) {
    guard names.count < Self.most, name.count <= Self.longest, Self.isPlain(name) else {
      return
    }
    names.append((first: words.count, count: name.count, key: key))
    var word: UInt64 = 0
    var shift: UInt64 = 0
    for byte in name {
      // checked: a byte widened, shifted by less than 64
      word |= UInt64(byte) << shift
      shift += 8
      if shift == 64 {
        words.append(word)
        word = 0
        shift = 0
      }
    }
    // An empty name has one word too (`expectation` reads it).
    if shift != 0 || name.isEmpty { words.append(word) }
  }

  /// What lies at `reader`'s offset, the opening quote of the key of the record's member
  /// number `place`: the index of a name kept here whose bytes are there and the key index
  /// it is (nil: no key's), the reader then past its closing quote; or nil (the reader not
  /// moved).
  ///
  /// The name expected at the place is compared here, inlined into the record's loop; any
  /// other case goes to ``search(_:place:start:)`` (the call and its checks took about 20 of
  /// the 73 instructions a key of a Fitbit log: wjson10, callgrind).
  @inline(__always)
  mutating func match(_ reader: inout JSONReader, place: Int) -> (name: Int, key: Int?)? {
    let bytes = reader.bytes
    let start = reader.offset + 1
    guard start <= bytes.count, bytes[start - 1] == 0x22 else { return nil }
    if place < expected.count, let base = bytes.baseAddress {
      let hint = expected[place]
      if hint.mask != 0, start + (hint.secondMask == 0 ? 8 : 16) <= bytes.count {
        let raw = UnsafeRawPointer(base)
        // checked: a byte-order swap of a UInt64, which cannot trap
        let loaded = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        var second: UInt64 = 0
        if hint.secondMask != 0 {
          let word = raw.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self)
          second = UInt64(littleEndian: word)  // checked: a byte-order swap, cannot trap
        }
        if (loaded ^ hint.word) & hint.mask == 0, (second ^ hint.secondWord) & hint.secondMask == 0
        {
          reader.offset = start + hint.length
          return (hint.name, hint.key)
        }
      }
    }
    return search(&reader, place: place, start: start)
  }

  /// ``match(_:place:)`` when the name expected at `place` is not there or cannot be compared
  /// in one or two loads: that name compared byte for byte, then every name kept; the name
  /// found becomes the one expected at `place`.
  @inline(never)
  private mutating func search(_ reader: inout JSONReader, place: Int, start: Int) -> (
    name: Int, key: Int?
  )? {
    let bytes = reader.bytes
    if place < expected.count {
      let hint = expected[place]
      if hint.name >= 0, matches(hint.name, bytes, start) {
        reader.offset = start + names[hint.name].count + 1
        return (hint.name, hint.key)
      }
    }
    let found = names.indices.first { matches($0, bytes, start) }
    if place < Self.most {
      while expected.count <= place { expected.append(.none) }
      expected[place] = found.map(expectation) ?? .none
    }
    guard let found else { return nil }
    reader.offset = start + names[found].count + 1
    return (found, names[found].key)
  }

  /// What is expected where name `index` was found: its bytes and the closing quote as one
  /// word or two when they fit in two.
  private func expectation(_ index: Int) -> Expected {
    let name = names[index]
    guard name.count <= 15 else {
      return Expected(
        name: index, key: name.key, word: 0, mask: 0, secondWord: 0, secondMask: 0, length: 0)
    }
    // checked: a length of at most sixteen
    let bits = UInt64(name.count + 1) * 8
    if bits <= 64 {
      let mask: UInt64 = bits == 64 ? ~0 : (1 << bits) - 1
      return Expected(
        name: index, key: name.key, word: words[name.first] | 0x22 << (bits - 8), mask: mask,
        secondWord: 0, secondMask: 0, length: name.count + 1)
    }
    // The name fills its first word; the second holds its last bytes (none for eight: `add`
    // keeps no second word then) and the quote.
    let secondBits = bits - 64
    let secondMask: UInt64 = secondBits == 64 ? ~0 : (1 << secondBits) - 1
    let rest = name.count > 8 ? words[name.first + 1] : 0
    return Expected(
      name: index, key: name.key, word: words[name.first], mask: ~0,
      secondWord: rest | 0x22 << (secondBits - 8), secondMask: secondMask,
      length: name.count + 1)
  }

  /// Whether the bytes of name `index` lie at `start`, followed by `"`.
  @inline(__always)
  private func matches(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
    let name = names[index]
    let end = start + name.count
    guard end < bytes.count, bytes[end] == 0x22 else { return false }
    var at = start
    var word = name.first
    // Eight bytes at a time, the last word's bytes past the name masked off; the loads stay
    // inside `bytes` (the closing quote lies at `end`, so a load ending at `end + 1` or
    // before is inside).
    guard let base = bytes.baseAddress else { return false }
    let raw = UnsafeRawPointer(base)
    while at < end {
      let left = end - at
      if at + 8 > bytes.count { break }
      // checked: a byte-order swap of a UInt64, which cannot trap
      let loaded = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
      // checked: `left` is 1 to 7 where it is widened
      let mask: UInt64 = left >= 8 ? ~0 : (1 << (UInt64(left) * 8)) - 1
      if (loaded ^ words[word]) & mask != 0 { return false }
      at += 8
      word += 1
    }
    // Near the end of the document: byte by byte.
    while at < end {
      // checked: a remainder of 0 to 7
      let shift = UInt64((at - start) % 8) * 8
      if bytes[at] != UInt8(truncatingIfNeeded: words[name.first + (at - start) / 8] >> shift) {
        return false
      }
      at += 1
    }
    return true
  }
}
