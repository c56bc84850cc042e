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
  /// that is no plain decimal of up to 15 digits.
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

  /// The value of `[-]digits[.digits]` with 1 to 15 digits in all, digits before the point
  /// and after it if there is one, read exactly as `parse(utf8:)` reads it (Clinger's fast
  /// path: the digits are an integer below 2^53, 10^k for k ≤ 15 is an exact double, so the
  /// one division rounds as `Double(String)` does); nil for any other text.
  static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = 0
    let negative = !bytes.isEmpty && bytes[0] == UInt8(ascii: "-")
    if negative { index = 1 }
    var mantissa: UInt64 = 0
    var digits = 0
    var fractionDigits = 0
    var sawPoint = false
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: ".") {
        guard !sawPoint, digits > 0, index < bytes.count else { return nil }
        sawPoint = true
        continue
      }
      let digit = byte &- UInt8(ascii: "0")
      guard digit <= 9, digits < 15 else { return nil }
      mantissa = mantissa * 10 + UInt64(digit)  // checked: below 10^15
      digits += 1
      if sawPoint { fractionDigits += 1 }
    }
    guard digits > 0 else { return nil }
    let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
    return negative ? -value : value
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
