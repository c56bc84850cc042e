import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// The JSON reader's eight-byte paths read what its byte paths read: a plain string
/// (`readPlainString`) as `readRawString` reads it, a number's end (`plainNumberEndByWords`)
/// as `plainNumberEnd` finds it, on random text followed by more or less of a record, so that
/// the loads reach the end of the text or not (docs/performance.md, "The JSON readers'
/// records as plain values").
@Suite struct JSONReaderWordsTests {
  static let tails = ["", "}", ",\"a\":1}", ",\"source\":\"Aria\"}\n,{\"logId\":1420070400000}"]

  @Test func plainStringsReadAsRawStrings() async {
    let pieces = [
      "a", "Aria", "01/01/15", "\\\"", "\\n", "é", "\u{1}", "\\", " ", "12345678", "\u{7F}",
      "\"", "2015-01-01T00:00:00Z",
    ]
    let plain = Counter()
    await propertyCheck(
      count: 4000, input: Gen.int(in: 0...12).array(of: 0...5), Gen.int(in: 0...3)
    ) { picks, tail in
      let text = "\"" + picks.map { pieces[$0] }.joined() + "\"" + Self.tails[tail]
      let bytes = Array(text.utf8)
      bytes.withUnsafeBufferPointer { buffer in
        var fast = JSONReader(bytes: buffer)
        let read = fast.readPlainString().map(Array.init)
        var slow = JSONReader(bytes: buffer)
        let raw = try? slow.readRawString()
        guard let read else {
          #expect(fast.offset == 0, "\(text)")
          return
        }
        plain.add()
        #expect(raw.map { Array($0.raw) } == read, "\(text)")
        #expect(raw?.hasEscapes == false && raw?.isASCII == true, "\(text)")
        #expect(fast.offset == slow.offset, "\(text)")
      }
    }
    #expect(plain.count > 500)
  }

  @Test func numberEndsFoundByWordsAsByBytes() async {
    let pieces = [
      "-", "0", "1", "7", "12", ".", "5", "e", "E", "+", "00", " ", ",", "x", "9",
      "1420070400000", "12345678", "1234567", "/", ":",
    ]
    let found = Counter()
    await propertyCheck(
      count: 6000, input: Gen.int(in: 0...19).array(of: 0...6), Gen.int(in: 0...3)
    ) { picks, tail in
      let text = picks.map { pieces[$0] }.joined() + Self.tails[tail]
      let bytes = Array(text.utf8)
      bytes.withUnsafeBufferPointer { buffer in
        let reader = JSONReader(bytes: buffer)
        let byWords = reader.plainNumberEndByWords()
        if byWords != nil { found.add() }
        #expect(byWords == nil || byWords == reader.plainNumberEnd(), "\(text)")
        // And what the readers that use it read: as the full scan.
        var full = JSONReader(bytes: buffer)
        let scanned = Result { () throws(JSONSyntaxError) -> String in try full.readNumberText() }
        var checked = JSONReader(bytes: buffer)
        let read = Result { () throws(JSONSyntaxError) -> String in
          String(decoding: try checked.readNumberBytes(), as: UTF8.self)
        }
        var skipped = JSONReader(bytes: buffer)
        let skip = Result { () throws(JSONSyntaxError) in try skipped.skipNumber() }
        #expect(read == scanned, "\(text)")
        #expect(skip.map { "" } == scanned.map { _ in "" }, "\(text)")
        if case .success = scanned {
          #expect(checked.offset == full.offset && skipped.offset == full.offset, "\(text)")
        }
      }
    }
    #expect(found.count > 1000)
  }

  @Test func nonDigitBytesAreExact() async {
    await propertyCheck(count: 4000, input: Gen.int(in: 0...255).array(of: 8...8)) { picks in
      let bytes = picks.map { UInt8($0) }
      let word = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      let flags = JSONReader.nonDigitBytes(word)
      for (index, byte) in bytes.enumerated() {
        let flagged = flags >> (UInt64(index) * 8 + 7) & 1 == 1
        #expect(flagged == !(0x30...0x39).contains(byte), "\(bytes)")
      }
    }
    // The bytes next to the digits, each alone.
    for byte: UInt8 in [0x2F, 0x30, 0x39, 0x3A, 0xB0, 0xB9, 0x00, 0xFF] {
      let flags = JSONReader.nonDigitBytes(UInt64(byte))
      #expect((flags & 0x80 != 0) == !(0x30...0x39).contains(byte), "\(byte)")
    }
  }

  /// A count kept across the runs of a property.
  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func add() { lock.withLock { value += 1 } }
  }
}
