/// Writes JSON pieces at a pointer, into room made beforehand (`JSONWriter.append(atMost:_:)`):
/// a row's literals, numbers, strings and instants stored one after the other, without a
/// call into `Array` per piece (a generic `append(contentsOf:)` each, before: most of the
/// cost of encoding an imported entry). Each writer says how much room it needs at most
/// (the `…Room` members); the caller makes room for the sum.
///
/// The text is the one `JSONWriter` always wrote: numbers as `description` spells them
/// (`ByteCursor.double`, tested against it on millions of values), strings with the same
/// escapes.
struct ByteCursor {
  private let start: UnsafeMutablePointer<UInt8>
  private var next: UnsafeMutablePointer<UInt8>

  /// A cursor at `start`, with nothing written.
  init(_ start: UnsafeMutablePointer<UInt8>) {
    self.start = start
    next = start
  }

  /// The bytes written so far.
  var count: Int { next - start }

  /// The most an integer takes: `-9223372036854775808`.
  static let integerRoom = 20
  /// The most a Double takes: `description`'s longest is 24 (`-2.2250738585072014e-308`).
  static let doubleRoom = 32
  /// The most an instant's text takes, quotes included (`UTCInstantText`).
  static let instantRoom = 22

  /// The most a string of `utf8Count` bytes takes in quotes, each byte escaped as `\u00XX`.
  static func stringRoom(_ utf8Count: Int) -> Int { 2 + 6 * utf8Count }

  /// Writes one byte.
  @inline(__always)
  mutating func byte(_ value: UInt8) {
    next.initialize(to: value)
    next += 1
  }

  /// Writes `text` verbatim.
  @inline(__always)
  mutating func literal(_ text: StaticString) {
    let count = text.utf8CodeUnitCount
    next.initialize(from: text.utf8Start, count: count)
    next += count
  }

  /// Writes `source` verbatim.
  @inline(__always)
  mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
    guard let base = source.baseAddress else { return }
    next.initialize(from: base, count: source.count)
    next += source.count
  }

  /// Writes the first `count` (at most 24) of the 24 bytes of three words as they lie in
  /// memory, storing all 24: the room made must reach 24 bytes past the cursor
  /// (``ByteCursorDoubleMemo``).
  @inline(__always)
  mutating func words(_ a: UInt64, _ b: UInt64, _ c: UInt64, count: Int) {
    let raw = UnsafeMutableRawPointer(next)
    raw.storeBytes(of: a, as: UInt64.self)
    raw.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
    raw.storeBytes(of: c, toByteOffset: 16, as: UInt64.self)
    next += count
  }

  /// The bytes written since the cursor's `count` was `start`.
  func written(from start: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: self.start + start, count: count - start)
  }

  /// Writes an integer in decimal.
  mutating func integer(_ value: Int) {
    if value < 0 { byte(0x2D) }
    unsigned(value.magnitude)
  }

  /// Writes an unsigned integer in decimal.
  mutating func unsigned(_ value: UInt) {
    // One digit (an entry's `rev`) is one byte; longer numbers are counted by comparisons
    // and written two digits a division: an entry's two integers cost 69 instructions each
    // the digit a division way (callgrind, 100,000 imported rows, wstore10).
    if value < 10 {
      byte(0x30 + UInt8(truncatingIfNeeded: value))
      return
    }
    var digits = 2
    var bound: UInt = 100
    while digits < 20, value >= bound {
      bound &*= 10  // wraps only past 10^19, when the loop ends
      digits += 1
    }
    var rest = value
    var position = next + digits
    while rest >= 100 {
      let two = UInt32(truncatingIfNeeded: rest % 100)
      rest /= 100
      position -= 2
      Self.storePair(two, at: position)
    }
    let head = UInt32(truncatingIfNeeded: rest)
    if head >= 10 {
      position -= 2
      Self.storePair(head, at: position)
    } else {
      position -= 1
      position.initialize(to: 0x30 + UInt8(truncatingIfNeeded: head))
    }
    next += digits
  }

  /// Stores the two digits of `value` (0 … 99) at `position` as one 16-bit store, the tens
  /// found by one multiplication (`value` × 103 / 1024 is `value` / 10 below 100).
  @inline(__always)
  private static func storePair(_ value: UInt32, at position: UnsafeMutablePointer<UInt8>) {
    let tens = (value &* 103) >> 10
    let ones = value &- tens &* 10
    let digits = UInt16(truncatingIfNeeded: 0x30 &+ tens | (0x30 &+ ones) << 8)
    UnsafeMutableRawPointer(position).storeBytes(of: digits.littleEndian, as: UInt16.self)
  }

  /// Writes `utf8` as a JSON string in quotes, escaping quotes, backslashes and control
  /// characters (`\n`, `\r`, `\t`, others as `\u00XX`).
  mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
    byte(0x22)
    // Eight bytes at a time while none of them needs an escape: a source's name took 150
    // instructions a row a byte at a time (callgrind, 100,000 imported rows, wstore10).
    var plain = 0
    if let base = utf8.baseAddress {
      while plain + 8 <= utf8.count {
        let word = UnsafeRawPointer(base + plain).loadUnaligned(as: UInt64.self)
        guard !Self.anyNeedsEscape(word) else { break }
        UnsafeMutableRawPointer(next).storeBytes(of: word, as: UInt64.self)
        next += 8
        plain += 8
      }
      // Fewer than eight left after plain words: the last eight bytes as one word, over some
      // written already, when none needs an escape (the rest of "MyFitnessPal" a byte at a
      // time cost as much as its first eight).
      if plain < utf8.count, utf8.count - plain < 8, utf8.count >= 8 {
        let word = UnsafeRawPointer(base + utf8.count - 8).loadUnaligned(as: UInt64.self)
        if !Self.anyNeedsEscape(word) {
          next += utf8.count - plain
          UnsafeMutableRawPointer(next - 8).storeBytes(of: word, as: UInt64.self)
          plain = utf8.count
        }
      }
    }
    for byte in UnsafeBufferPointer(rebasing: utf8[plain...]) {
      guard byte < 0x20 || byte == 0x22 || byte == 0x5C else {
        self.byte(byte)
        continue
      }
      self.byte(0x5C)
      switch byte {
      case 0x22: self.byte(0x22)
      case 0x5C: self.byte(0x5C)
      case 0x0A: self.byte(0x6E)
      case 0x0D: self.byte(0x72)
      case 0x09: self.byte(0x74)
      default:
        literal("u00")
        self.byte(Self.hexDigit(byte >> 4))
        self.byte(Self.hexDigit(byte & 0xF))
      }
    }
    byte(0x22)
  }

  /// Whether any of the eight bytes of `word` is below 0x20, a quote or a backslash (the
  /// has-a-zero-byte test: a byte's high bit is set in `(x - 0x01…) & ~x & 0x80…` only
  /// when some byte of x is 0, or below the bound subtracted; bytes from 0x80 never set it).
  private static func anyNeedsEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let control = (word &- ones &* 0x20) & ~word
    return (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs
      != 0
  }

  /// Writes `text` as a JSON string in quotes (`string(_:)` of its UTF-8).
  mutating func string(_ text: String) {
    let written: Void? = text.utf8.withContiguousStorageIfAvailable { string($0) }
    guard written == nil else { return }
    var copy = text
    copy.withUTF8 { string($0) }
  }

  /// Writes `value` as eight lower-case hex digits (a checksum).
  mutating func hex(_ value: UInt32) {
    // The eight nibbles spread to the eight bytes of a word and turned into digits all at
    // once: a table line's checksum took 68 instructions a digit at a time (callgrind,
    // 100,000 MyFitnessPal rows, wstore11).
    // checked: a UInt32 widened to 64 bits
    var word = UInt64(value)
    word = (word | word << 16) & 0x0000_FFFF_0000_FFFF
    word = (word | word << 8) & 0x00FF_00FF_00FF_00FF
    word = (word | word << 4) & 0x0F0F_0F0F_0F0F_0F0F  // byte i holds nibble i, lowest first
    let letters = ((word &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101  // nibble > 9
    word = word &+ 0x3030_3030_3030_3030 &+ letters &* 39  // "0" + n, or "a" + n - 10
    // The highest nibble is written first: the bytes in reverse order.
    UnsafeMutableRawPointer(next).storeBytes(of: word.byteSwapped.littleEndian, as: UInt64.self)
    next += 8
  }

  /// The lower-case hex digit of `nibble` (0…15).
  private static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10
  }

  /// Writes `instant` as `"YYYY-MM-DDTHH:MM:SSZ"`, in quotes; it must lie in
  /// `UTCInstantText.range`.
  mutating func instant(_ instant: Int64) {
    byte(0x22)
    UTCInstantText.write(instant, at: next)
    next += 20
    byte(0x22)
  }

  /// Writes `instant` as a wall-clock time, `"YYYY-MM-DDTHH:MM:SS"` (the instant's text
  /// without its `Z`), in quotes; it must lie in `UTCInstantText.range`.
  mutating func wallClock(_ instant: Int64) {
    byte(0x22)
    UTCInstantText.write(instant, at: next)
    next += 19
    byte(0x22)  // over the Z
  }

  /// Writes `instant` as `instant(_:)` does; returns where its date's ten bytes lie, for
  /// `wallClock(_:sameDayAs:dateAt:)`.
  mutating func instantKeepingDate(_ instant: Int64) -> UnsafePointer<UInt8> {
    let date = UnsafePointer(next + 1)
    self.instant(instant)
    return date
  }

  /// ``instantKeepingDate(_:)``, the date's ten bytes copied from `last` when the instant
  /// falls on the day it holds (and kept there otherwise): an import's rows come day by day,
  /// and the calendar's arithmetic of `UTCInstantText.write` took about 150 instructions a
  /// row (callgrind, 100,000 Fitbit logs, wfit13).
  mutating func instantKeepingDate(_ instant: Int64, last: inout ByteCursorDayMemo)
    -> UnsafePointer<UInt8>
  {
    let day = Self.day(of: instant)
    guard day == last.day else {
      let date = instantKeepingDate(instant)
      last.keep(day: day, date: date)
      return date
    }
    byte(0x22)
    let date = UnsafePointer(next)
    let raw = UnsafeMutableRawPointer(next)
    raw.storeBytes(of: last.first, as: UInt64.self)
    raw.storeBytes(of: last.rest, toByteOffset: 8, as: UInt16.self)
    next += 10
    timeOfDay(instant, day: day)
    byte(0x5A)
    byte(0x22)
    return date
  }

  /// Writes `instant` as `wallClock(_:)` does. When it falls on the day of `earlier`, whose
  /// date this cursor wrote at `date` (`instantKeepingDate`), the date is copied from there
  /// and only the time of day is worked out: an import's `fileTime` is its `at` on the
  /// file's clock, the same day for most rows, and the calendar's arithmetic for the second
  /// date was a sixth of an entry's encoding (callgrind, 100,000 MyFitnessPal rows, wstore10).
  mutating func wallClock(
    _ instant: Int64, sameDayAs earlier: Int64, dateAt date: UnsafePointer<UInt8>
  ) {
    let day = Self.day(of: instant)
    guard day == Self.day(of: earlier) else {
      wallClock(instant)
      return
    }
    byte(0x22)
    next.initialize(from: date, count: 10)
    next += 10
    timeOfDay(instant, day: day)
    byte(0x22)
  }

  /// Writes `THH:MM:SS`, the time of day of `instant`, which falls on `day`.
  private mutating func timeOfDay(_ instant: Int64, day: Int64) {
    byte(0x54)
    let second = UInt32(truncatingIfNeeded: instant &- day &* 86_400)  // 0 … 86 399
    pair(second / 3600)
    byte(0x3A)
    pair(second / 60 % 60)
    byte(0x3A)
    pair(second % 60)
  }

  /// The day (counted from 1970-01-01) of an instant, as `CivilDate.split` counts it.
  private static func day(of instant: Int64) -> Int64 {
    instant >= 0 ? instant / 86_400 : (instant - 86_399) / 86_400
  }

  /// Writes two digits of `value` (0 … 99).
  private mutating func pair(_ value: UInt32) {
    byte(0x30 + UInt8(truncatingIfNeeded: value / 10))
    byte(0x30 + UInt8(truncatingIfNeeded: value % 10))
  }

  /// Writes a finite `value` as its `description` spells it (`68.5`, `70.0`, `1e-05`), the
  /// shortest text that reads back as the identical Double; NaN and infinity as `null`,
  /// returning false.
  ///
  /// Whole numbers below 2^53 and numbers from 0.001 below 2^53 (a weight, most of
  /// Health's values: `shortestDecimal`, or `nearestLongDecimal` when it needs more digits
  /// than the Doubles near it can tell apart) are written here; the others through
  /// `description`.
  mutating func double(_ value: Double) -> Bool {
    guard value.isFinite else {
      literal("null")
      return false
    }
    let magnitude = value.magnitude
    // A whole number below 2^53 is its digits and ".0" (the shortest digits that read back
    // as it are its own): most of a Health row's numbers (its times, a step count).
    if value == value.rounded(.towardZero), magnitude < 9_007_199_254_740_992,
      value != 0 || value.sign == .plus
    {
      integer(Int(value))  // checked: whole, and below 2^53 in magnitude
      literal(".0")
      return true
    }
    if magnitude >= 0.001,
      let (digits, scale) = Self.shortestDecimal(magnitude) ?? Self.nearestLongDecimal(magnitude)
    {
      if value.sign == .minus { byte(0x2D) }
      fixed(digits, fractionDigits: scale)
      return true
    }
    var text = value.description
    text.withUTF8 { bytes($0) }
    return true
  }

  /// The fewest fraction digits `scale` (1 or more) and the digits of the one decimal with
  /// that many that reads back as `value` (`digits` / 10^`scale`), for a positive `value`
  /// that is not whole; nil when there is none while decimals of that many fraction digits
  /// are still further apart than the Doubles near `value` are.
  ///
  /// Why this is `description`'s text: a decimal reads back as `value` when it lies within
  /// half a unit in the last place of it (`value.ulp`). While 10^`scale` × ulp < 1, at most
  /// one decimal of `scale` fraction digits lies that close, and its digits are the whole
  /// part of `value` × 10^`scale` as computed (rounded once) or the next integer. For
  /// `value` ≥ 0.001
  /// and not whole, fewer fraction digits is fewer significant digits, so the first scale
  /// with such a decimal gives the shortest text that reads back, and the only one of that
  /// length: what `description` writes (the shortest, closest to the value). Reading back
  /// is a division, `digits / 10^scale`, which rounds the exact quotient once, as parsing
  /// the text does (both are below 2^53, so exact as Doubles).
  ///
  /// Past scales 1 and 2 (a weight's), no scale is tried in turn: while decimals of a scale
  /// are further apart than `value.ulp`, at most one of them reads back as `value` (the
  /// Doubles that read back as it lie in an interval at most an ulp wide). So at `top`, the
  /// largest such scale, there is one or none: none, and no smaller scale has one either (a
  /// decimal of a smaller scale is one of `top` with zeros after it); one, and a decimal of
  /// a smaller scale that reads back is that one with its last zeros dropped, and dropping
  /// them gives one. The answer is the decimal at `top` with its trailing zeros removed: one
  /// try and a few divisions, where halving the range of scales took 4 to 6 tries for a
  /// weight converted from pounds (13–16 digits, a Fitbit file's): at 100,000 Fitbit logs
  /// `shortestDecimal` took 41.9 M instructions by halving, 28.3 M now (wfit12, callgrind;
  /// 100.4 M when every scale was tried in turn).
  static func shortestDecimal(_ value: Double) -> (digits: UInt64, scale: Int)? {
    let ulp = value.ulp
    // Scales 1 and 2 (a weight's) first, each tried only while its decimals are further
    // apart than the Doubles near `value` (the bound `top` below): finding `top` first, a
    // dozen steps for a weight, was half of `shortestDecimal`'s 128 instructions a row
    // (callgrind, 100,000 MyFitnessPal rows, wstore11).
    var low = 1
    while low <= 2 {
      guard powersOfTen[low] * ulp < 1 else { return nil }
      let (count, digits) = decimals(value, scale: low)
      guard count == 0 else { return count == 1 ? (digits, low) : nil }
      low += 1
    }
    let top = largestSparseScale(value)
    guard low <= top else { return nil }
    let found = decimals(value, scale: top)
    guard found.count == 1 else { return nil }
    // Scales 1 and 2 found none, so at most `top` - 3 zeros end the digits.
    var digits = found.digits
    var scale = top
    while scale > low, digits % 10 == 0 {
      digits /= 10
      scale -= 1
    }
    return (digits, scale)
  }

  /// The largest scale (at most 17) whose decimals are further apart than `value.ulp`, for
  /// a positive normal `value`: `powersOfTen[scale] * ulp < 1` and not for `scale` + 1 (0
  /// when no scale is). One look-up by the binary exponent, which fixes the ulp: counting up
  /// to it took a dozen steps for a weight.
  @inline(__always)
  static func largestSparseScale(_ value: Double) -> Int {
    guard value.isNormal else { return sparseScaleByCounting(value.ulp) }
    // checked: a normal Double's exponent is within -1022...1023
    return Int(sparseScales[Int(value.exponent) + 1022])  // checked: a UInt8 widens
  }

  /// ``largestSparseScale(_:)`` counted step by step, as the table is made.
  static func sparseScaleByCounting(_ ulp: Double) -> Int {
    var top = 0
    while top < 17, powersOfTen[top + 1] * ulp < 1 { top += 1 }
    return top
  }

  /// ``sparseScaleByCounting(_:)`` for the ulp of each binary exponent -1022 … 1023.
  private static let sparseScales: [UInt8] = (-1022...1023).map { exponent in
    // checked: a count of at most 17
    UInt8(sparseScaleByCounting(Double(sign: .plus, exponent: exponent, significand: 1).ulp))
  }

  /// 10^0 … 10^17, each exact.
  static let powersOfTen: [Double] = [
    1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    1e16, 1e17,
  ]

  /// How many decimals of `scale` fraction digits read back as `value` (0, 1, or 2 and more;
  /// 2 also when the product is not below 2^53, which the callers' bound on `scale` rules out),
  /// and the last of them (`digits` / 10^`scale`).
  static func decimals(_ value: Double, scale: Int) -> (count: Int, digits: UInt64) {
    let power = powersOfTen[scale]
    // Below 2^53: value < 2^53 × ulp, so value × 10^scale < 2^53.
    let product = value * power
    guard product < 9_007_199_254_740_992 else { return (2, 0) }
    // A decimal that reads back lies less than half a unit from the exact product, which
    // lies at most half a unit from the product computed (below 2^53): so less than one from
    // the latter, it is the latter's whole part or the next (truncated, not rounded:
    // `rounded()` is a call into libm).
    let whole = UInt64(product)  // checked: 0 < product < 2^53
    var count = 0
    var found: UInt64 = 0
    for candidate in whole...whole + 1 {
      guard candidate < 1 << 53, Double(candidate) / power == value else { continue }
      count += 1
      found = candidate
    }
    return (count, found)
  }

  /// Writes `digits` / 10^`scale` in plain decimal, `scale` (1 … 18) fraction digits after
  /// the point (`0.05` for 5 and 2).
  ///
  /// The fraction two digits a division: a Fitbit weight's 9 to 15 fraction digits one at a
  /// time took 204 instructions a log (callgrind, 100,000 logs, wfit12).
  private mutating func fixed(_ digits: UInt64, fractionDigits scale: Int) {
    let divisor = Self.wholePowersOfTen[scale]
    let whole = digits / divisor
    var fraction = digits - whole * divisor
    unsigned(UInt(truncatingIfNeeded: whole))  // a 64-bit platform: UInt is UInt64
    byte(0x2E)
    var position = next + scale
    var left = scale
    while left >= 2 {
      let two = UInt32(truncatingIfNeeded: fraction % 100)
      fraction /= 100
      position -= 2
      Self.storePair(two, at: position)
      left -= 2
    }
    if left == 1 {
      position -= 1
      position.initialize(to: 0x30 + UInt8(truncatingIfNeeded: fraction))
    }
    next += scale
  }

  /// 10^0 … 10^18 as integers.
  private static let wholePowersOfTen: [UInt64] = {
    var powers: [UInt64] = [1]
    for _ in 0..<18 { powers.append(powers.last! * 10) }
    return powers
  }()
}
