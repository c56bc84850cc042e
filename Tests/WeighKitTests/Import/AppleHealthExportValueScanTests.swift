import HealthSim
import Testing

@testable import WeighKit

/// The value scan's word-at-a-time path finds what a byte-at-a-time scan finds.
struct AppleHealthExportValueScanTests {
  /// The first byte from `start` that needs a look, one byte at a time (the loop the word
  /// path replaced; the C scan of `AppleHealthExportPlainTagTests` is checked against it too).
  static func bytewise(_ bytes: [UInt8], from start: Int, quote: UInt8) -> Int {
    var j = start
    while j < bytes.count {
      let c = bytes[j]
      if c == quote || c == 0x3C || c == 0x26 || c < 0x20 { return j }
      j += 1
    }
    return bytes.count
  }

  /// Bytes that matter to the scan, their neighbours, and bytes whose subtraction borrows.
  private static let interesting: [UInt8] = [
    0x22, 0x27, 0x3C, 0x26, 0x0A, 0x09, 0x0D, 0x00, 0x01, 0x1F, 0x20, 0x21, 0x23, 0x25, 0x3B,
    0x3D, 0x7F, 0x80, 0x9F, 0xA0, 0xA2, 0xBC, 0xFF, 0x30, 0x41,
  ]

  @Test func wordScanMatchesByteScanOnRandomBytes() {
    // Seeded, so a failure can be replayed.
    var generator = SeededGenerator(seed: 15)
    for round in 0..<20_000 {
      let count = Int.random(in: 0...40, using: &generator)
      let plainOnly = round % 3 == 0
      // Mostly what values hold: digits, letters, spaces, punctuation, UTF-8.
      let bytes = ScanTestBytes.make(
        count: count, plainOnly: plainOnly,
        plain: [0x30, 0x61, 0x20, 0x2D, 0x3A, 0xE2, 0x80, 0x99],
        interesting: Self.interesting, using: &generator)
      let quote: UInt8 = round % 2 == 0 ? 0x22 : 0x27
      for start in 0...count {
        let expected = Self.bytewise(bytes, from: start, quote: quote)
        let found = bytes.withUnsafeBufferPointer {
          AppleHealthExportParser.plainRunEnd($0, from: start, quote: quote)
        }
        #expect(found == expected, "bytes \(bytes) from \(start) quote \(quote)")
        if found != expected { return }
      }
    }
  }

  @Test func everyByteValueAtEveryPlaceOfAWord() {
    for quote: UInt8 in [0x22, 0x27] {
      for value in 0...255 {
        for place in 0..<16 {
          var bytes = [UInt8](repeating: 0x61, count: 16)
          bytes[place] = UInt8(value)
          let expected = Self.bytewise(bytes, from: 0, quote: quote)
          let found = bytes.withUnsafeBufferPointer {
            AppleHealthExportParser.plainRunEnd($0, from: 0, quote: quote)
          }
          #expect(found == expected, "byte \(value) at \(place), quote \(quote)")
        }
      }
    }
  }

  @Test func anEmptyBufferHasNoByteToLookAt() {
    let found = [UInt8]().withUnsafeBufferPointer {
      AppleHealthExportParser.plainRunEnd($0, from: 0, quote: 0x22)
    }
    #expect(found == 0)
  }
}
