import HealthSim

@testable import WeighKit

/// Ways the export parser's tests make their input: a document fed as a stream would deliver
/// it, and random bytes for the word-at-a-time scans.
extension AppleHealthExportParser {
  /// Feeds `bytes` in chunks whose sizes cycle through `sizes` (each at least 1).
  func feed(_ bytes: [UInt8], inChunksOf sizes: [Int]) throws {
    var start = 0
    var turn = 0
    while start < bytes.count {
      let end = min(bytes.count, start + sizes[turn % sizes.count])
      try feed(Array(bytes[start..<end]))
      start = end
      turn += 1
    }
  }
}

enum ScanTestBytes {
  /// `count` random bytes: in a `plainOnly` round, each one of `plain` plus 0 to 9; otherwise
  /// one in six is one of `interesting` (the bytes a scan stops on and their neighbours).
  static func make(
    count: Int, plainOnly: Bool, plain: [UInt8], interesting: [UInt8],
    using generator: inout SeededGenerator
  ) -> [UInt8] {
    (0..<count).map { _ in
      if !plainOnly, Int.random(in: 0..<6, using: &generator) == 0 {
        return interesting.randomElement(using: &generator)!
      }
      return plain.randomElement(using: &generator)! &+ UInt8.random(in: 0...9, using: &generator)
    }
  }
}
