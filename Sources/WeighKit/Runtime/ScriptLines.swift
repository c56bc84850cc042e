/// The lines of a script text, split on `\n` (a `\r` before it is dropped).
///
/// Splits on bytes: `String.enumerateLines` costs several times more on long scripts.
public struct ScriptLines: Sequence {
  private let bytes: [UInt8]

  public init(_ text: String) { bytes = Array(text.utf8) }

  public func makeIterator() -> Iterator { Iterator(bytes: bytes) }

  public struct Iterator: IteratorProtocol {
    let bytes: [UInt8]
    var position = 0

    public mutating func next() -> String? {
      guard position < bytes.count else { return nil }
      var end = position
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      var lineEnd = end
      if lineEnd > position, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
      let line = String(decoding: bytes[position..<lineEnd], as: UTF8.self)
      position = end + 1
      return line
    }
  }
}
