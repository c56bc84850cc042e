/// A pull reader over the bytes of a JSON text: the caller asks for the value it expects
/// next (`beginObject`, `nextKey`, `readDouble`, …) and gets it without any intermediate tree.
///
/// Why hand-written: the store must open a million entries faster than orjson
/// (docs/performance.md; an earlier measurement: orjson 1.73 s, Python json 1.83 s,
/// Foundation's `JSONDecoder` with Codable 7.90 s on a file of 1,000,000 weight samples). Measured with
/// hyperfine on the shared 2-core machine (release, `scripts/bench-store.sh`), a whole
/// process that opens a generated 1,000,000-entry store (112 MB `entries.json`) and reads
/// every entry through this reader and `EntryCodec` takes 0.62–0.81 s (0.57 s of CPU),
/// against 1.76–2.26 s for `orjson.loads` of the same file in the same runs, and about
/// 330 MB of memory against orjson's 1.1 GB. It tracks only a byte offset; line and column
/// are computed when an error is thrown, so the fast path pays nothing for positions.
///
/// The reader borrows `bytes`; use it only inside `JSONReader.withReader(over:)` or while
/// the buffer is otherwise kept alive.
public struct JSONReader {
  /// The whole text being read, or the part of it an importer holds (errors count lines
  /// from its start: ``ImportJSONWindow`` adds the lines before it).
  public private(set) var bytes: UnsafeBufferPointer<UInt8>
  /// The offset of the next byte to read.
  public var offset: Int
  // True right after `[` or `{`: the next member or element takes no comma.
  private var afterOpen = false

  /// A reader positioned at `offset` in `bytes`.
  public init(bytes: UnsafeBufferPointer<UInt8>, offset: Int = 0) {
    self.bytes = bytes
    self.offset = offset
  }

  /// Moves the reader onto `bytes`, the same text without its first `dropped` bytes (an
  /// importer's window refilled), at the same place in the text and in the same state.
  mutating func move(to bytes: UnsafeBufferPointer<UInt8>, dropping dropped: Int) {
    self.bytes = bytes
    offset -= dropped
  }

  /// Runs `body` with a reader over `bytes`, keeping the array alive meanwhile.
  public static func withReader<R, E: Error>(
    over bytes: [UInt8], _ body: (inout JSONReader) throws(E) -> R
  ) throws(E) -> R {
    let result: Result<R, E> = bytes.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(bytes: buffer)
      do throws(E) {
        return .success(try body(&reader))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  // MARK: Positions and errors

  /// An error at `offset` (default: the current offset) with line and column filled in.
  public func error(_ message: String, at errorOffset: Int? = nil) -> JSONSyntaxError {
    let target = min(errorOffset ?? offset, bytes.count)
    var line = 1
    var lineStart = 0
    var index = 0
    while index < target {
      if bytes[index] == 0x0A {
        line += 1
        lineStart = index + 1
      }
      index += 1
    }
    var column = 1
    index = lineStart
    while index < target {
      if bytes[index] & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    return JSONSyntaxError(line: line, column: column, message: message)
  }

  /// Skips spaces, tabs, carriage returns and newlines.
  @inline(__always)
  public mutating func skipWhitespace() {
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        offset += 1
      } else {
        return
      }
    }
  }

  /// The next non-whitespace byte, without consuming it; nil at the end.
  @inline(__always)
  public mutating func peek() -> UInt8? {
    skipWhitespace()
    return offset < bytes.count ? bytes[offset] : nil
  }

  /// True when only whitespace is left.
  public mutating func isAtEnd() -> Bool { peek() == nil }

  /// Fails unless only whitespace is left.
  public mutating func expectEnd() throws(JSONSyntaxError) {
    if !isAtEnd() { throw error("unexpected text after the end of the JSON value") }
  }

  private func describeNext() -> String {
    guard offset < bytes.count else { return "the end of the text" }
    let byte = bytes[offset]
    if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(String(byte, radix: 16))"
  }

  @inline(__always)
  private mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
    guard peek() == byte else { throw error("expected \(what), found \(describeNext())") }
    offset += 1
  }

  // MARK: Containers

  /// Consumes `{`.
  public mutating func beginObject() throws(JSONSyntaxError) {
    try expect(0x7B, "'{'")
    afterOpen = true
  }

  /// Continues reading elements of an array whose `[` lies before `offset`, as if the
  /// element at `offset` were the first (used to read a table's rows in parallel halves).
  public mutating func resumeArray() {
    afterOpen = true
  }

  /// Consumes `[`.
  public mutating func beginArray() throws(JSONSyntaxError) {
    try expect(0x5B, "'['")
    afterOpen = true
  }

  /// The next member's key (consuming it and its `:`), or nil after consuming the closing `}`.
  public mutating func nextKey() throws(JSONSyntaxError) -> JSONRawString? {
    guard try nextMember() else { return nil }
    return try readKey()
  }

  /// True when another member follows (consuming the `,` before it, and no more); false after
  /// consuming the closing `}`. ``readKey()`` reads the member's key next, or a caller that
  /// recognizes the key in place (``ImportJSONKeys``) consumes it and ``readColon()``.
  ///
  /// The comma that follows a member at once is taken inline; anything else goes through
  /// ``nextMemberAfterSpace()`` (the call took about 40 instructions a member: wjson10).
  @inline(__always)
  public mutating func nextMember() throws(JSONSyntaxError) -> Bool {
    if !afterOpen, offset < bytes.count, bytes[offset] == 0x2C {
      offset += 1
      return true
    }
    return try nextMemberAfterSpace()
  }

  /// ``nextMember()`` for every case but a comma right at `offset` after a member.
  @inline(never)
  private mutating func nextMemberAfterSpace() throws(JSONSyntaxError) -> Bool {
    guard let byte = peek() else {
      throw error("expected a member or '}', found the end of the text")
    }
    if byte == 0x7D {
      offset += 1
      afterOpen = false
      return false
    }
    if afterOpen {
      afterOpen = false
    } else {
      guard byte == 0x2C else {
        throw error("expected ',' or '}' after a member, found \(describeNext())")
      }
      offset += 1
    }
    return true
  }

  /// A member's key once ``nextMember()`` said one follows, consuming its `:`.
  public mutating func readKey() throws(JSONSyntaxError) -> JSONRawString {
    guard peek() == 0x22 else {
      throw error("expected a member name in double quotes, found \(describeNext())")
    }
    let key = try readRawString()
    try readColon()
    return key
  }

  /// Consumes the `:` after a member's key.
  @inline(__always)
  public mutating func readColon() throws(JSONSyntaxError) {
    if offset < bytes.count && bytes[offset] == 0x3A {
      offset += 1
      return
    }
    try expect(0x3A, "':' after a member name")
  }

  /// True when another element follows (consuming its `,`); false after consuming `]`.
  public mutating func nextElement() throws(JSONSyntaxError) -> Bool {
    guard let byte = peek() else {
      throw error("expected an element or ']', found the end of the text")
    }
    if byte == 0x5D {
      offset += 1
      afterOpen = false
      return false
    }
    if afterOpen {
      afterOpen = false
    } else {
      guard byte == 0x2C else {
        throw error("expected ',' or ']' after an element, found \(describeNext())")
      }
      offset += 1
      if peek() == 0x5D { throw error("expected an element after ','") }
    }
    return true
  }

  // MARK: Scalars

  /// The next string's raw bytes between the quotes (escapes not yet decoded).
  public mutating func readRawString() throws(JSONSyntaxError) -> JSONRawString {
    guard peek() == 0x22 else { throw error("expected a string, found \(describeNext())") }
    afterOpen = false
    let start = offset + 1
    var index = start
    var escaped = false
    var allBits: UInt8 = 0
    // Eight bytes at a time while none is a quote, a backslash, a control character or past
    // ASCII (a row's keys and values mostly): byte by byte, this scan was the largest cost
    // of reading a table row back. The word that holds one goes on at its first such byte,
    // so that a short string (`"Aria"`, a date) is not read again byte by byte: that took
    // about 130 instructions a string of a Fitbit log.
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      while index + 8 <= bytes.count {
        // checked: a byte-order swap of a UInt64, which cannot trap
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let special = Self.specialBytes(word)
        if special != 0 {
          index += special.trailingZeroBitCount >> 3
          break
        }
        index += 8
      }
    }
    while true {
      guard index < bytes.count else {
        throw error("unterminated string", at: offset)
      }
      let byte = bytes[index]
      allBits |= byte
      if byte == 0x22 { break }
      if byte == 0x5C {
        escaped = true
        index += 2
        continue
      }
      if byte < 0x20 {
        throw error("control character in a string; write it as an escape", at: index)
      }
      index += 1
    }
    let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
    let stringOffset = offset
    offset = index + 1
    return JSONRawString(
      raw: raw, hasEscapes: escaped, isASCII: allBits < 0x80, offset: stringOffset)
  }

  /// The string at `offset` (its opening quote) when it has no escape, no control character
  /// and only ASCII, and its closing quote lies where eight-byte loads reach: its bytes
  /// between the quotes, the reader past the closing one, as ``readRawString()`` reads it
  /// (`raw`, neither escapes nor bytes past ASCII); nil otherwise, the reader not moved.
  ///
  /// Inlined where a record's values are read: `readRawString`'s call, its `peek` and its
  /// byte loop after the words took about 107 instructions a short string of a Fitbit log;
  /// this and ``plainNumberEndByWords()`` took 10.8 M off 100,000 Fitbit logs, 14.9 M off
  /// 100,000 weigh entries (wread11, callgrind).
  @inline(__always)
  public mutating func readPlainString() -> UnsafeBufferPointer<UInt8>? {
    guard let base = bytes.baseAddress, offset < bytes.count, bytes[offset] == 0x22 else {
      return nil
    }
    let raw = UnsafeRawPointer(base)
    let start = offset + 1
    var index = start
    while index + 8 <= bytes.count {
      // checked: a byte-order swap of a UInt64, which cannot trap
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let special = Self.specialBytes(word)
      if special != 0 {
        // The first special byte: only a closing quote ends a plain string.
        index += special.trailingZeroBitCount >> 3
        guard bytes[index] == 0x22 else { return nil }
        offset = index + 1
        afterOpen = false
        return UnsafeBufferPointer(rebasing: bytes[start..<index])
      }
      index += 8
    }
    return nil
  }

  /// The high bit of each of the eight bytes of `word` (the first in memory lowest) that is
  /// `"`, `\\`, below 0x20 or above 0x7F, exact up to the first such byte and perhaps
  /// set on some bytes after it (the classic "has a zero byte" test on the word XORed with
  /// each byte looked for: a borrow runs only towards later bytes), so that the lowest bit
  /// set is the first such byte; zero when there is none.
  @inline(__always)
  static func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func zeros(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
    // A byte below 0x20: subtracting 0x20 borrows into its high bit (or the byte is past
    // ASCII already, caught by `word & highs`).
    let control = (word &- 0x2020_2020_2020_2020) & ~word & highs
    return word & highs | control | zeros(word ^ (ones &* 0x22)) | zeros(word ^ (ones &* 0x5C))
  }

  /// The next string, with escapes decoded and UTF-8 validated.
  public mutating func readString() throws(JSONSyntaxError) -> String {
    let raw = try readRawString()
    return try decode(raw)
  }

  /// Decodes a raw string read earlier by this reader.
  public func decode(_ raw: JSONRawString) throws(JSONSyntaxError) -> String {
    if !raw.hasEscapes {
      // The generic validating initializer is slow (unspecialized); ASCII needs no checks.
      if raw.isASCII { return String(decoding: raw.raw, as: UTF8.self) }
      guard let text = String(validating: raw.raw, as: UTF8.self) else {
        throw error("invalid UTF-8 in a string", at: raw.offset)
      }
      return text
    }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(raw.raw.count)
    var index = 0
    let base = raw.raw
    func fail(_ message: String) -> JSONSyntaxError {
      error(message, at: raw.offset + 1 + index)
    }
    func hex4(_ at: Int) -> UInt32? {
      guard at + 4 <= base.count else { return nil }
      var value: UInt32 = 0
      for position in at..<(at + 4) {
        let byte = base[position]
        let digit: UInt32
        switch byte {
        case 0x30...0x39: digit = UInt32(byte - 0x30)  // checked: a hex digit
        case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)  // checked: a hex digit
        case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)  // checked: a hex digit
        default: return nil
        }
        value = value << 4 | digit
      }
      return value
    }
    while index < base.count {
      let byte = base[index]
      guard byte == 0x5C else {
        decoded.append(byte)
        index += 1
        continue
      }
      guard index + 1 < base.count else { throw fail("unterminated escape") }
      switch base[index + 1] {
      case 0x22: decoded.append(0x22)
      case 0x5C: decoded.append(0x5C)
      case 0x2F: decoded.append(0x2F)
      case 0x62: decoded.append(0x08)
      case 0x66: decoded.append(0x0C)
      case 0x6E: decoded.append(0x0A)
      case 0x72: decoded.append(0x0D)
      case 0x74: decoded.append(0x09)
      case 0x75:
        guard var scalar = hex4(index + 2) else { throw fail("expected four hex digits after \\u") }
        var length = 6
        if scalar >= 0xD800 && scalar < 0xDC00 {
          guard index + 7 < base.count, base[index + 6] == 0x5C, base[index + 7] == 0x75,
            let low = hex4(index + 8), low >= 0xDC00 && low < 0xE000
          else { throw fail("a high surrogate \\u escape must be followed by a low surrogate") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          length = 12
        } else if scalar >= 0xDC00 && scalar < 0xE000 {
          throw fail("a low surrogate \\u escape without a high surrogate before it")
        }
        decoded.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
        index += length
        continue
      default:
        throw fail("unknown escape; use one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
      }
      index += 2
    }
    guard let text = String(validating: decoded, as: UTF8.self) else {
      throw error("invalid UTF-8 in a string", at: raw.offset)
    }
    return text
  }

  /// Consumes `null` if it comes next and says whether it did.
  ///
  /// Inlined, its four bytes compared as one word: the call and the byte-by-byte checks
  /// took about 33 instructions a `null`, four of them a weigh JSON entry (wread11).
  @inline(__always)
  public mutating func readNullIfPresent() -> Bool {
    guard peek() == 0x6E, offset + 4 <= bytes.count, let base = bytes.baseAddress else {
      return false
    }
    let raw = UnsafeRawPointer(base)
    // checked: a byte-order swap of a UInt32, which cannot trap
    let word = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    // `null`, its first byte lowest.
    guard word == 0x6C6C_756E else { return false }
    offset += 4
    afterOpen = false
    return true
  }

  /// The next `true` or `false`.
  public mutating func readBool() throws(JSONSyntaxError) -> Bool {
    let byte = peek()
    if byte == 0x74, matchLiteral("true") { return true }
    if byte == 0x66, matchLiteral("false") { return false }
    throw error("expected true or false, found \(describeNext())")
  }

  private mutating func matchLiteral(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard offset + count <= bytes.count else { return false }
    let pointer = literal.utf8Start
    for index in 0..<count where bytes[offset + index] != pointer[index] { return false }
    offset += count
    afterOpen = false
    return true
  }

  /// A store file's `"version"` value, 1 up to `supported`. A newer version stops reading
  /// with an error that carries it (`newerVersion`), so the caller can say that the file is
  /// from a newer weigh rather than damaged: ``StoreError/init(file:syntax:supported:)``.
  mutating func readFormatVersion(supported: Int) throws(JSONSyntaxError) -> Int {
    let position = offset
    let version = try readInt()
    if version > supported {
      var newer = error("", at: position)
      newer.newerVersion = version
      throw newer
    }
    guard version >= 1 else { throw error("format version must be 1 or more", at: position) }
    return version
  }

  /// The next number, which must have no fraction or exponent and fit an `Int`.
  public mutating func readInt() throws(JSONSyntaxError) -> Int {
    let scanned = try scanNumber()
    guard scanned.isInteger, let value = scanned.integer else {
      throw error("expected a whole number", at: scanned.start)
    }
    return value
  }

  /// The next number as written (validated), for a caller that rounds it itself.
  public mutating func readNumberText() throws(JSONSyntaxError) -> String {
    let scanned = try scanNumber()
    return String(
      decoding: UnsafeBufferPointer(rebasing: bytes[scanned.start..<scanned.end]), as: UTF8.self)
  }

  /// The next number's bytes as written (validated), without making a string: a view of
  /// `bytes`, valid while they are.
  public mutating func readNumberBytes() throws(JSONSyntaxError) -> UnsafeBufferPointer<UInt8> {
    skipWhitespace()
    let start = offset
    if let end = plainNumberEndByWords() ?? plainNumberEnd() {
      offset = end
      afterOpen = false
      return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
    let scanned = try scanNumber()
    return UnsafeBufferPointer(rebasing: bytes[scanned.start..<scanned.end])
  }

  /// Reads past the next number, checking its syntax as ``readNumberText()`` does, without
  /// making its text (a reader that keeps only some members' values).
  public mutating func skipNumber() throws(JSONSyntaxError) {
    skipWhitespace()
    if let end = plainNumberEndByWords() ?? plainNumberEnd() {
      offset = end
      afterOpen = false
      return
    }
    _ = try scanNumber()
  }

  /// ``plainNumberEnd()`` with the digits found eight at a time, for a number whose
  /// digits and the byte after them lie where eight-byte loads reach (nil otherwise, as for
  /// a number not so written: ``plainNumberEnd()`` or ``scanNumber()`` reads it then).
  ///
  /// Why: a Fitbit log's `logId` has 13 digits and its `bmi` and `fat` are only checked;
  /// byte by byte, `skipNumber` took about 105 instructions a number, by words 95 (wread11,
  /// callgrind: a number of 1–5 digits gains little, as wjson10 found).
  @inline(__always)
  func plainNumberEndByWords() -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    var index = offset
    if index < bytes.count && bytes[index] == 0x2D { index += 1 }
    // The count of digits at `at` (0 to 8), or nil when eight bytes cannot be loaded there.
    @inline(__always) func digits(_ at: Int) -> Int? {
      guard at + 8 <= bytes.count else { return nil }
      // checked: a byte-order swap of a UInt64, which cannot trap
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
      return Self.nonDigitBytes(word).trailingZeroBitCount >> 3
    }
    // The end of the run of digits at `at` (at least one), or nil.
    @inline(__always) func run(_ at: Int) -> Int? {
      var end = at
      while true {
        guard let count = digits(end) else { return nil }
        end += count
        if count < 8 { return end > at ? end : nil }
      }
    }
    let first = index
    guard let whole = run(first) else { return nil }
    // A leading zero stands alone.
    if bytes[first] == 0x30 && whole > first + 1 { return nil }
    index = whole
    if bytes[index] == 0x2E {
      guard let fraction = run(index + 1) else { return nil }
      index = fraction
    }
    // `run` stopped at a byte that is no digit, inside `bytes`.
    let next = bytes[index]
    if next == 0x65 || next == 0x45 || next == 0x2E { return nil }
    return index
  }

  /// The high bit of each of the eight bytes of `word` that is not an ASCII digit, exactly
  /// (each byte XORed with `0`'s is a digit below 10; its low seven bits plus 0x76 reach the
  /// high bit from 10 up, without a carry into the next byte).
  @inline(__always)
  static func nonDigitBytes(_ word: UInt64) -> UInt64 {
    let x = word ^ 0x3030_3030_3030_3030
    return (((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
  }

  /// Where a number at `offset` written as `-?(0|[1-9][0-9]*)(\.[0-9]+)?` ends, when it is
  /// written so and no exponent, point or digit follows; nil for any other text, which
  /// ``scanNumber()`` reads (or refuses) as before. Checking a number's syntax without
  /// computing its value: `scanNumber` took about 180 instructions a number of a Fitbit log,
  /// three of whose four numbers are only checked.
  @inline(__always)
  func plainNumberEnd() -> Int? {
    var index = offset
    if index < bytes.count && bytes[index] == 0x2D { index += 1 }
    guard isDigit(index) else { return nil }
    if bytes[index] == 0x30 {
      index += 1
    } else {
      while isDigit(index) { index += 1 }
    }
    if index < bytes.count && bytes[index] == 0x2E {
      index += 1
      guard isDigit(index) else { return nil }
      while isDigit(index) { index += 1 }
    }
    if index < bytes.count {
      let next = bytes[index]
      if next == 0x65 || next == 0x45 || next == 0x2E || next &- 0x30 < 10 { return nil }
    }
    return index
  }

  /// The next number as the nearest Double (correctly rounded).
  public mutating func readDouble() throws(JSONSyntaxError) -> Double {
    let scanned = try scanNumber()
    return try double(from: scanned)
  }

  private func double(from scanned: ScannedNumber) throws(JSONSyntaxError) -> Double {
    // Clinger's fast path: a mantissa below 2^53 and a power of ten up to 10^22 are both
    // exact in a Double, so one multiplication or division rounds correctly.
    if scanned.digitCount <= 19 && scanned.mantissa < (1 << 53) && abs(scanned.exponent) <= 22 {
      var value = Double(scanned.mantissa)
      if scanned.exponent >= 0 {
        value *= Self.powersOfTen[scanned.exponent]
      } else {
        value /= Self.powersOfTen[-scanned.exponent]
      }
      return scanned.negative ? -value : value
    }
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[scanned.start..<scanned.end]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw error("number out of range", at: scanned.start)
    }
    return value
  }

  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  private struct ScannedNumber {
    var start: Int
    var end: Int
    var negative: Bool
    var mantissa: UInt64
    var digitCount: Int
    var exponent: Int
    var isInteger: Bool

    var integer: Int? {
      guard digitCount <= 19 else { return nil }
      if negative {
        // checked: compared with Int.max first
        return mantissa <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- mantissa) : nil
      }
      // checked: compared with Int.max first
      return mantissa <= UInt64(Int.max) ? Int(mantissa) : nil
    }
  }

  @inline(__always)
  private func isDigit(_ index: Int) -> Bool {
    index < bytes.count && bytes[index] &- 0x30 < 10
  }

  private mutating func scanNumber() throws(JSONSyntaxError) -> ScannedNumber {
    skipWhitespace()
    afterOpen = false
    let start = offset
    var index = offset
    var negative = false
    if index < bytes.count && bytes[index] == 0x2D {
      negative = true
      index += 1
    }
    guard isDigit(index) else { throw error("expected a number, found \(describeNext())") }
    var mantissa: UInt64 = 0
    var digitCount = 0
    var exponent = 0
    var isInteger = true
    // Leading zeros are not significant; JSON allows a single 0 before the point only.
    if bytes[index] == 0x30 {
      index += 1
      if isDigit(index) { throw error("a number must not start with 0", at: start) }
    }
    while isDigit(index) {
      if digitCount < 19 {
        mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 0x30)  // checked: a decimal digit
        if mantissa != 0 { digitCount += 1 }
      } else {
        digitCount += 1
        exponent += 1
      }
      index += 1
    }
    if index < bytes.count && bytes[index] == 0x2E {
      isInteger = false
      index += 1
      guard isDigit(index) else {
        throw error("expected a digit after the decimal point", at: index)
      }
      while isDigit(index) {
        if digitCount < 19 {
          mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 0x30)  // checked: a decimal digit
          if mantissa != 0 { digitCount += 1 }
          exponent -= 1
        } else {
          digitCount += 1
        }
        index += 1
      }
    }
    if index < bytes.count && (bytes[index] == 0x65 || bytes[index] == 0x45) {
      isInteger = false
      index += 1
      var exponentNegative = false
      if index < bytes.count && (bytes[index] == 0x2B || bytes[index] == 0x2D) {
        exponentNegative = bytes[index] == 0x2D
        index += 1
      }
      guard isDigit(index) else { throw error("expected a digit in the exponent", at: index) }
      var explicit = 0
      while isDigit(index) {
        // checked: a decimal digit
        if explicit < 100_000 { explicit = explicit * 10 + Int(bytes[index] - 0x30) }
        index += 1
      }
      exponent += exponentNegative ? -explicit : explicit
    }
    offset = index
    return ScannedNumber(
      start: start, end: index, negative: negative, mantissa: mantissa,
      digitCount: digitCount, exponent: exponent, isInteger: isInteger)
  }

  // MARK: Generic values

  /// The next value of any kind, as a tree.
  public mutating func readValue() throws(JSONSyntaxError) -> JSONValue {
    try readValue(depth: 0)
  }

  private mutating func readValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard depth < 512 else { throw error("values nested more than 512 deep") }
    switch peek() {
    case 0x7B:
      try beginObject()
      var members: [String: JSONValue] = [:]
      while let key = try nextKey() {
        let name = try decode(key)
        if members[name] != nil { throw error("duplicate member \"\(name)\"", at: key.offset) }
        members[name] = try readValue(depth: depth + 1)
      }
      return .object(members)
    case 0x5B:
      try beginArray()
      var elements: [JSONValue] = []
      while try nextElement() { elements.append(try readValue(depth: depth + 1)) }
      return .array(elements)
    case 0x22:
      return .string(try readString())
    case 0x74, 0x66:
      return .bool(try readBool())
    case 0x6E:
      if readNullIfPresent() { return .null }
      throw error("expected a value, found \(describeNext())")
    case .some(0x2D), .some(0x30...0x39):
      let scanned = try scanNumber()
      if scanned.isInteger, let integer = scanned.integer { return .integer(integer) }
      return .number(try double(from: scanned))
    case nil:
      throw error("expected a value, found the end of the text")
    default:
      throw error("expected a value, found \(describeNext())")
    }
  }

  /// Skips the next value of any kind, validating it.
  public mutating func skipValue() throws(JSONSyntaxError) {
    _ = try readValue()
  }
}
