/// Strict reading of numbers written as text, for the language and the importers.
///
/// `Double(String)` also reads hexadecimal (`0x46` is 70), `inf`, `nan`, exponents and
/// stops at an embedded NUL (`71.25\0` is 71.25). A measurement in a file or on a command
/// line is none of those, so weigh reads numbers only through these functions.
public enum DecimalText {
  /// The most characters a number may have; longer text is no measurement.
  public static let maximumLength = 40

  /// The value of `[+-]digits[.digits]` (digits on at least one side of the point), or nil
  /// for anything else, including a value that is not finite or is subnormal.
  public static func parse<Text: StringProtocol>(_ text: Text) -> Double? {
    let utf8 = text.utf8
    guard !utf8.isEmpty, utf8.count <= maximumLength else { return nil }
    var digits = 0
    var sawPoint = false
    for (offset, byte) in utf8.enumerated() {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
      case UInt8(ascii: "."):
        guard !sawPoint else { return nil }
        sawPoint = true
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        guard offset == 0 else { return nil }
      default: return nil
      }
    }
    guard digits > 0, let value = Double(String(text)) else { return nil }
    return finite(value)
  }

  /// ``parse(_:)`` of UTF-8 bytes, by the same rule, without making a string in the common
  /// case: up to 15 digits with at most 22 after the point are an integer below 2^53 and a
  /// power of ten that are both exact doubles, so their one division rounds correctly, as
  /// `Double(String)` does (Clinger's fast path). Longer numbers go through `Double(String)`.
  public static func parse(utf8 bytes: ArraySlice<UInt8>) -> Double? {
    bytes.withUnsafeBufferPointer { parse(utf8: $0) }
  }

  /// ``parse(utf8:)`` of bytes in memory (no slice to keep alive and check at every byte).
  static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard !bytes.isEmpty, bytes.count <= maximumLength else { return nil }
    var digits = 0
    var fractionDigits = 0
    var sawPoint = false
    var negative = false
    var mantissa: UInt64 = 0
    var offset = 0
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        digits += 1
        if sawPoint { fractionDigits += 1 }
        // Wraps only past 19 digits, which take the slow path below.
        mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
      case UInt8(ascii: "."):
        guard !sawPoint else { return nil }
        sawPoint = true
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        guard offset == 0 else { return nil }
        negative = byte == UInt8(ascii: "-")
      default: return nil
      }
      offset += 1
    }
    guard digits > 0 else { return nil }
    if digits <= 15, fractionDigits < exactPowersOfTen.count {
      let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
      return negative ? -value : value
    }
    guard let value = Double(String(decoding: bytes, as: UTF8.self)) else { return nil }
    return finite(value)
  }

  /// 10^0 … 10^22, every one an exact double.
  private static let exactPowersOfTen: [Double] = (0...22).map { power in
    (0..<power).reduce(1.0) { value, _ in value * 10 }
  }

  /// The value of a JSON number (which may carry an exponent, `1.5e2`), or nil when it is
  /// not finite or is subnormal (`1e-320`): no measurement is that small.
  public static func parseJSONNumber<Text: StringProtocol>(_ text: Text) -> Double? {
    let utf8 = text.utf8
    guard !utf8.isEmpty, utf8.count <= maximumLength,
      utf8.allSatisfy(isJSONNumberByte)
    else { return nil }
    // Most numbers in files are plain decimals: read those without making a string.
    if let plain = utf8.withContiguousStorageIfAvailable(plainDecimal), let value = plain {
      return value
    }
    guard let value = Double(String(text)) else { return nil }
    return finite(value)
  }

  /// ``parseJSONNumber(_:)`` of the UTF-8 bytes of a number whose JSON syntax is checked
  /// (`JSONReader.readNumberBytes()`), by the same rule, making a string only for a number
  /// that is no plain decimal of up to 19 digits.
  static func parseJSONNumber(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard !bytes.isEmpty, bytes.count <= maximumLength else { return nil }
    if let value = plainDecimal(bytes) { return value }
    guard bytes.allSatisfy(isJSONNumberByte),
      let value = Double(String(decoding: bytes, as: UTF8.self))
    else { return nil }
    return finite(value)
  }

  /// A byte ``parseJSONNumber(_:)`` lets through: a digit, `.`, `-`, `+`, `e` or `E`.
  private static func isJSONNumberByte(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e")
      || byte == UInt8(ascii: "E")
  }

  /// The value of `[-]digits[.digits]` with 1 to 19 digits in all, digits before the point
  /// and after it if there is one, correctly rounded as `Double(String)` rounds it; nil for
  /// any other text. Up to 2^53 the digits and 10^k (k ≤ 19) are exact doubles and their one
  /// division rounds correctly (Clinger's fast path); above, ``exactQuotient(_:fractionDigits:)``.
  ///
  /// Why 19: a Fitbit weight stored in kilograms (`68.03880099999999`) has 16 or 17 digits;
  /// before, such a number went through `Double(String)` (a string made and strtod).
  static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
    let count = bytes.count
    let negative = base[0] == UInt8(ascii: "-")
    var index = negative ? 1 : 0
    var mantissa: UInt64 = 0
    var digits = 0
    // The number of digits before the point, -1 while there is none.
    var point = -1
    while index < count {
      let digit = base[index] &- UInt8(ascii: "0")
      if digit < 10 {
        // Wraps only past 19 digits, which are refused below.
        mantissa = mantissa &* 10 &+ UInt64(digit)
        digits += 1
      } else if base[index] == UInt8(ascii: "."), point < 0, digits > 0, index + 1 < count {
        point = digits
      } else {
        return nil
      }
      index += 1
    }
    guard digits > 0, digits <= 19 else { return nil }
    let fractionDigits = point < 0 ? 0 : digits - point
    let value: Double
    if mantissa < 1 << 53 {
      value = Double(mantissa) / exactPowersOfTen[fractionDigits]
    } else {
      value = exactQuotient(mantissa, fractionDigits: fractionDigits)
    }
    return negative ? -value : value
  }

  /// `mantissa` / 10^`fractionDigits` correctly rounded (to nearest, ties to even), for a
  /// mantissa of 2^53 or more and at most 19 fraction digits: the quotient by 5^k of the
  /// mantissa shifted left, in 128-bit integers, has 63 or 64 bits; its first 53 rounded by
  /// the bits after them and the remainder are the significand, and 2^-k the rest of the
  /// scale. The same Double as `Double(String)` (`DecimalTextExactTests`).
  static func exactQuotient(_ mantissa: UInt64, fractionDigits: Int) -> Double {
    guard fractionDigits > 0 else { return Double(mantissa) }
    let divisor = powersOfFive[fractionDigits]
    let divisorBits = 64 - divisor.leadingZeroBitCount
    let mantissaBits = 64 - mantissa.leadingZeroBitCount
    // The shifted mantissa has divisorBits + 63 bits: its high word is below 2^(divisorBits
    // - 1) ≤ divisor (as `dividingFullWidth` asks), the quotient at least 2^62.
    let shift = divisorBits + 63 - mantissaBits  // 0 ... 54 (mantissaBits ≥ 54)
    let high = shift == 0 ? 0 : mantissa >> UInt64(64 - shift)
    let low = mantissa << UInt64(shift)
    let (quotient, remainder) = divisor.dividingFullWidth((high, low))
    let extra = 64 - quotient.leadingZeroBitCount - 53  // 10 or 11 bits past the 53
    var significand = quotient >> UInt64(extra)
    let rest = quotient & ((1 << UInt64(extra)) - 1)
    let half: UInt64 = 1 << UInt64(extra - 1)
    if rest > half || (rest == half && (remainder != 0 || significand & 1 == 1)) {
      significand += 1  // checked: at most 2^53
    }
    // checked: the exponent lies in -63 ... 10, where every power of two is a normal double
    let scale = Double(sign: .plus, exponent: extra - shift - fractionDigits, significand: 1)
    return Double(significand) * scale
  }

  /// 5^0 … 5^19, each below 2^45.
  private static let powersOfFive: [UInt64] = (0...19).map { power in
    (0..<power).reduce(1) { value, _ in value * 5 }
  }

  /// A whole number of `[+]digits` (no sign for negatives, no point) inside `range`, or nil.
  public static func parseWhole<Text: StringProtocol>(
    _ text: Text, in range: ClosedRange<Int64>
  ) -> Int64? {
    let utf8 = text.utf8
    let body = utf8.first == UInt8(ascii: "+") ? utf8.dropFirst() : utf8[...]
    guard !body.isEmpty, body.count <= 19,
      body.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    var value: Int64 = 0
    for byte in body {
      let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
      guard !overflowTimes, !overflowSum else { return nil }
      value = sum
    }
    return range.contains(value) ? value : nil
  }

  private static func finite(_ value: Double) -> Double? {
    guard value.isFinite, value == 0 || value.isNormal else { return nil }
    return value
  }
}
