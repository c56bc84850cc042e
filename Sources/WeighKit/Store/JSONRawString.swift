/// The bytes of a JSON string between its quotes, before escapes are decoded.
public struct JSONRawString {
  /// The bytes between the quotes.
  public let raw: UnsafeBufferPointer<UInt8>
  /// True when `raw` contains a backslash escape.
  public let hasEscapes: Bool
  /// True when every byte of `raw` is ASCII.
  public let isASCII: Bool
  /// The offset of the opening quote in the reader's text.
  public let offset: Int

  /// True when the string is exactly `name` (a string with escapes never matches).
  @inline(__always)
  public func equals(_ name: StaticString) -> Bool {
    let count = name.utf8CodeUnitCount
    guard !hasEscapes, raw.count == count else { return false }
    let pointer = name.utf8Start
    for index in 0..<count where raw[index] != pointer[index] { return false }
    return true
  }
}
