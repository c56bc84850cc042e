import HealthSim
import Testing

@testable import WeighKit

/// The word-at-a-time scans of attribute names and of values being decoded find what a
/// byte-at-a-time scan finds.
struct AppleHealthExportNameScanTests {
  /// The first byte from `start` that may end a name, one byte at a time.
  private func bytewiseName(_ bytes: [UInt8], from start: Int) -> Int {
    var j = start
    while j < bytes.count {
      let c = bytes[j]
      if c <= 0x20 || c == 0x3C || c == 0x3D || c == 0x3E || c == 0x2F { return j }
      j += 1
    }
    return bytes.count
  }

  /// The first byte from `start` to `end` that decoding looks at, one byte at a time.
  private func bytewiseDecoded(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
    var j = start
    while j < end {
      let c = bytes[j]
      if c == 0x26 || c < 0x20 { return j }
      j += 1
    }
    return end
  }

  /// Bytes that matter to either scan, their neighbours, and bytes whose subtraction borrows.
  private static let interesting: [UInt8] = [
    0x3C, 0x3D, 0x3E, 0x3F, 0x3B, 0x2F, 0x2E, 0x30, 0x26, 0x25, 0x27, 0x0A, 0x09, 0x0D, 0x00,
    0x01, 0x1F, 0x20, 0x21, 0x7F, 0x80, 0xBC, 0xBD, 0xBE, 0xAF, 0xFF, 0xA0,
  ]

  @Test func wordScansMatchByteScansOnRandomBytes() {
    // Seeded, so a failure can be replayed.
    var generator = SeededGenerator(seed: 14)
    for round in 0..<20_000 {
      let count = Int.random(in: 0...40, using: &generator)
      let plainOnly = round % 3 == 0
      let bytes = ScanTestBytes.make(
        count: count, plainOnly: plainOnly, plain: [0x30, 0x61, 0x41, 0x2D, 0x3A, 0xE2, 0x80],
        interesting: Self.interesting, using: &generator)
      for start in 0...count {
        let name = bytes.withUnsafeBufferPointer {
          AppleHealthExportParser.nameRunEnd($0, from: start)
        }
        #expect(name == bytewiseName(bytes, from: start), "bytes \(bytes) from \(start)")
        let end = Int.random(in: start...count, using: &generator)
        let decoded = bytes.withUnsafeBufferPointer {
          AppleHealthExportParser.decodedRunEnd($0, from: start, to: end)
        }
        #expect(
          decoded == bytewiseDecoded(bytes, from: start, to: end),
          "bytes \(bytes) from \(start) to \(end)")
        if name != bytewiseName(bytes, from: start) { return }
      }
    }
  }

  @Test func everyByteValueAtEveryPlaceOfAWord() {
    for value in 0...255 {
      for place in 0..<16 {
        var bytes = [UInt8](repeating: 0x61, count: 16)
        bytes[place] = UInt8(value)
        let name = bytes.withUnsafeBufferPointer {
          AppleHealthExportParser.nameRunEnd($0, from: 0)
        }
        #expect(name == bytewiseName(bytes, from: 0), "byte \(value) at \(place)")
        for end in [place, place + 1, 16] {
          let decoded = bytes.withUnsafeBufferPointer {
            AppleHealthExportParser.decodedRunEnd($0, from: 0, to: end)
          }
          #expect(
            decoded == bytewiseDecoded(bytes, from: 0, to: end), "byte \(value) at \(place)")
        }
      }
    }
  }

  @Test func emptyRangesHaveNoByteToLookAt() {
    let empty = [UInt8]()
    #expect(empty.withUnsafeBufferPointer { AppleHealthExportParser.nameRunEnd($0, from: 0) } == 0)
    let bytes: [UInt8] = Array("&&&&&&&&&&".utf8)
    #expect(
      bytes.withUnsafeBufferPointer { AppleHealthExportParser.decodedRunEnd($0, from: 3, to: 3) }
        == 3)
  }
}
