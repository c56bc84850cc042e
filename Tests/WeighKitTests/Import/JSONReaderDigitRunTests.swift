import PropertyBased
import Testing

@testable import WeighKit

/// `JSONReader.digitsEnd` finds, eight bytes at a time, the end of a run of digits that a
/// byte-by-byte scan finds (docs/performance.md, "wjson10").
@Suite struct JSONReaderDigitRunTests {
  @Test func digitRunsEndWhereAByteScanEndsThem() async {
    // Digits, the bytes next to them, and bytes whose adding 6 carries into the next.
    let alphabet: [UInt8] = [
      0x30, 0x31, 0x35, 0x39, 0x39, 0x30, 0x2F, 0x3A, 0x2E, 0x00, 0x36, 0x3F, 0x29, 0xFA, 0xFF,
      0xF9, 0x83, 0x20, 0x65, 0x33,
    ]
    await propertyCheck(
      count: 5000, input: Gen.int(in: 0...19).array(of: 0...40), Gen.int(in: 0...40)
    ) { picks, from in
      let bytes = picks.map { alphabet[$0] }
      let start = min(from, bytes.count)
      var expected = start
      while expected < bytes.count, bytes[expected] &- 0x30 < 10 { expected += 1 }
      bytes.withUnsafeBufferPointer { buffer in
        let reader = JSONReader(bytes: buffer)
        #expect(reader.digitsEnd(from: start) == expected, "\(bytes) \(start)")
      }
    }
  }

  @Test func everyByteAfterADigitRunIsFound() {
    for byte in 0...255 {
      for length in 0...9 {
        let bytes = [UInt8](repeating: 0x37, count: length) + [UInt8(byte)] + [0x31, 0x32]
        let expected = UInt8(byte) &- 0x30 < 10 ? length + 3 : length
        bytes.withUnsafeBufferPointer { buffer in
          #expect(JSONReader(bytes: buffer).digitsEnd(from: 0) == expected, "\(byte) \(length)")
        }
      }
    }
  }
}
