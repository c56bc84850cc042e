/// The shape of the last record of a streamed array that the general reader read: the bytes
/// between its values (`{"logId":`, `,"weight":`, …, `}`), exactly as the file has them, and
/// the kind of each value (a number, a plain string, `null`). The next record is read by
/// comparing those bytes in place and reading each value by its kind; any difference gives
/// the record back to the general reader, which reads it from its start and leaves its shape
/// here for the records after it.
///
/// Equal bytes read equally: between the values lie the same keys, colons, commas and
/// whitespace, so the general reader would find the same members, the same first member of
/// each name and the same value kinds there. A value is taken here only when it is a number
/// without an exponent (`plainNumberEnd`), a string without escapes that is all ASCII
/// (`readPlainString`) or `null`, each read by the very functions the general reader uses;
/// anything else (a nested value, a boolean, an escape, a byte past ASCII, a number written
/// another way, the end of the document near) is the general reader's
/// (`ImportJSONRecordShapeTests` reads random files both ways).
///
/// Why: the general reader looks at each key, its colon and the comma in turn, about 900
/// instructions a Fitbit log of its own (wfit13's profile, 100,000 logs).
struct ImportJSONRecordShape {
  /// What a value of the shape is.
  enum Kind {
    case number
    case string
    case null
  }

  /// The bytes before a value (or the record's closing bytes): at most `longest`, as three
  /// words (little-endian, the bytes past the segment masked off), compared with three loads
  /// at most and no loop (a loop over the words of an array, with its checks, took about 70
  /// instructions a member of a Fitbit log: callgrind, 100,000 logs).
  struct Segment {
    var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var masks: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var length = 0
  }

  /// The longest segment kept: a weigh entry's `, "pushedRevision": ` has 20 bytes; a record
  /// with a longer one is read the general way.
  static let longest = 24

  /// A value of the shape: the bytes before it, its kind, and the index of the key it is
  /// the first member of (nil: a member not asked for, or a later one of a name).
  struct Member {
    var before: Segment
    var kind: Kind
    var key: Int?
  }

  /// Where a value lay in the record the general reader read, and the key index it was
  /// stored under (nil: not stored).
  struct Mark {
    var start: Int
    var end: Int
    var key: Int?
  }

  private(set) var members: [Member] = []
  private var closing = Segment()
  /// The newlines of a record of the shape, all in its segments (a number, a plain string
  /// and `null` have none), so that its lines are known without looking for them.
  private(set) var newlines = 0
  /// Whether there is a shape to read by.
  private(set) var isReady = false
  /// Records read by the shape, and records it did not fit.
  private var hits = 0
  private var misses = 0

  /// Whether a record should be tried against the shape: not after it missed often (a file
  /// whose records change their shape all the time is read by the general reader alone,
  /// without a try and a shape made for each record).
  var isWorthTrying: Bool { misses < 16 || misses * 8 < hits }

  /// Counts a record the shape did not fit.
  mutating func missed() {
    misses += 1
    isReady = false
  }

  /// Makes the shape of the record at `start..<end` of the reader's bytes, whose values lay
  /// at `marks`; no shape when a value is not of a kind read by the shape.
  mutating func make(_ reader: JSONReader, start: Int, end: Int, marks: [Mark]) {
    isReady = false
    members.removeAll(keepingCapacity: true)
    newlines = 0
    var at = start
    for mark in marks {
      guard let kind = Self.kind(reader, mark),
        let before = Self.segment(reader.bytes, at, mark.start)
      else { return }
      members.append(Member(before: before, kind: kind, key: mark.key))
      newlines += Self.newlines(reader.bytes, at, mark.start)
      at = mark.end
    }
    guard let closing = Self.segment(reader.bytes, at, end) else { return }
    self.closing = closing
    newlines += Self.newlines(reader.bytes, at, end)
    isReady = true
  }

  /// The kind of the value at `mark` when the shape reads it as the general reader did.
  private static func kind(_ reader: JSONReader, _ mark: Mark) -> Kind? {
    guard mark.start < mark.end else { return nil }
    var probe = reader
    probe.offset = mark.start
    switch reader.bytes[mark.start] {
    case 0x22:
      guard probe.readPlainString() != nil else { return nil }
      return probe.offset == mark.end ? .string : nil
    case 0x6E: return probe.readNullIfPresent() && probe.offset == mark.end ? .null : nil
    case 0x2D, 0x30...0x39:
      let end = probe.plainNumberEndByWords() ?? probe.plainNumberEnd()
      return end == mark.end ? .number : nil
    default: return nil
    }
  }

  /// The newlines of `bytes[from..<to]`.
  private static func newlines(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Int {
    (from..<to).reduce(0) { count, index in bytes[index] == 0x0A ? count + 1 : count }
  }

  /// The segment of `bytes[from..<to]`, nil when it is longer than `longest`.
  private static func segment(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int)
    -> Segment?
  {
    guard to - from <= longest else { return nil }
    var words: [UInt64] = [0, 0, 0]
    var masks: [UInt64] = [0, 0, 0]
    for index in from..<to {
      let place = index - from
      // checked: a byte widened, shifted by less than 64
      words[place / 8] |= UInt64(bytes[index]) << (UInt64(place % 8) * 8)
      masks[place / 8] |= 0xFF << (UInt64(place % 8) * 8)  // checked: shifted by less than 64
    }
    return Segment(
      words: (words[0], words[1], words[2]), masks: (masks[0], masks[1], masks[2]),
      length: to - from)
  }

  /// Whether `segment`'s bytes lie at `at`, where `longest` bytes can be loaded.
  @inline(__always)
  private static func matches(_ segment: Segment, _ raw: UnsafeRawPointer, _ at: Int) -> Bool {
    @inline(__always) func word(_ offset: Int) -> UInt64 {
      // checked: a byte-order swap of a UInt64, which cannot trap
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at &+ offset, as: UInt64.self))
    }
    if (word(0) ^ segment.words.0) & segment.masks.0 != 0 { return false }
    guard segment.length > 8 else { return true }
    if (word(8) ^ segment.words.1) & segment.masks.1 != 0 { return false }
    guard segment.length > 16 else { return true }
    return (word(16) ^ segment.words.2) & segment.masks.2 == 0
  }

  /// Reads the record at `reader`'s offset (its `{`) by the shape into `values` (which hold
  /// nil), the reader then past its `}`; false when the record is not of the shape, the
  /// reader not moved (`values` may hold some of the record's values then).
  @inline(__always)
  mutating func read(
    _ reader: inout JSONReader, into values: UnsafeMutableBufferPointer<ImportJSONReader.RawScalar?>
  ) -> Bool {
    let start = reader.offset
    let read = members.withUnsafeBufferPointer { members in
      Self.read(members, closing, &reader, into: values)
    }
    guard read else {
      reader.offset = start
      missed()
      return false
    }
    hits &+= 1
    return true
  }

  /// ``read(_:into:)`` by `members` and `closing`; false as soon as the record differs, the
  /// reader left anywhere.
  @inline(__always)
  private static func read(
    _ members: UnsafeBufferPointer<Member>, _ closing: Segment, _ reader: inout JSONReader,
    into values: UnsafeMutableBufferPointer<ImportJSONReader.RawScalar?>
  ) -> Bool {
    let bytes = reader.bytes
    guard let base = bytes.baseAddress else { return false }
    let raw = UnsafeRawPointer(base)
    // Where `longest` bytes can be loaded: a segment is compared only before it.
    let last = bytes.count &- longest
    var at = reader.offset
    for member in members {
      guard at <= last, matches(member.before, raw, at) else { return false }
      at &+= member.before.length
      reader.offset = at
      switch member.kind {
      case .number:
        guard let end = reader.plainNumberEndByWords() ?? reader.plainNumberEnd() else {
          return false
        }
        if let key = member.key {
          values[key] = .number(UnsafeBufferPointer(start: base + at, count: end &- at))
        }
        at = end
      case .string:
        guard let text = reader.readPlainString() else { return false }
        if let key = member.key { values[key] = .ascii(text) }
        at = reader.offset
      case .null:
        // `null` right here: `readNullIfPresent` would skip whitespace (and newlines) first.
        guard at < bytes.count, bytes[at] == 0x6E, reader.readNullIfPresent() else {
          return false
        }
        if let key = member.key { values[key] = .null }
        at = reader.offset
      }
    }
    guard at <= last, matches(closing, raw, at) else { return false }
    reader.offset = at &+ closing.length
    return true
  }
}
