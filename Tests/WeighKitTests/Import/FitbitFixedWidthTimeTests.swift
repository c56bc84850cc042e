import Testing

@testable import WeighKit

/// A Fitbit log's date and time are read in one step when they have the shape every Fitbit
/// file writes (`07/05/17`, `12:44:00`); what that step reads must be what the general
/// reading (`LocalDateTime`) reads from the same bytes.
@Suite struct FitbitFixedWidthTimeTests {
  @Test func theFixedShapeReadsWhatTheGeneralReadingReads() {
    let alphabet = Array("0123456789/:.-a ".utf8)
    var state: UInt64 = 20_261_127
    func below(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var read = 0
    for trial in 0..<400_000 {
      // Half the trials the shape itself with random digits, the rest random bytes.
      let shaped = trial % 2 == 0
      let separator: UInt8 = trial % 4 == 0 ? 0x2F : 0x3A
      let bytes: [UInt8] = (0..<(shaped ? 8 : below(11))).map { index in
        guard shaped else { return alphabet[below(alphabet.count)] }
        return index == 2 || index == 5 ? separator : UInt8(0x30 + below(10))
      }
      bytes.withUnsafeBufferPointer { buffer in
        let date = FixedWidthTime.read(buffer, separator: 0x2F)
        if let date {
          read += 1
          let general = LocalDateTime.numbers(
            buffer, separator: 0x2F, widths: (1...2, 1...2, 2...4))
          #expect(general.map { [$0.0, $0.1, $0.2] } == [date.0, date.1, date.2])
        }
        let clock = FixedWidthTime.read(buffer, separator: 0x3A)
        if let clock {
          read += 1
          let general = LocalDateTime.time(ascii: buffer)
          #expect(general.map { [$0.0, $0.1, $0.2] } == [clock.0, clock.1, clock.2])
        }
      }
    }
    #expect(read > 150_000)
  }
}
