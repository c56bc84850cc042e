import Testing

@testable import WeighKit

/// A weigh JSON entry's origin is compared as bytes (`WeighJSONImporter.origin`); it must
/// read what `WeighCSVImporter.origin` reads from the same bytes.
@Suite struct WeighJSONOriginTests {
  @Test func theOriginReadsAsTheGeneralReadingReadsIt() {
    let pieces = ["import", "manual", "health", "Import", "impor", "imports", "", "healtH"]
    var state: UInt64 = 20_261_127
    func below(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var found = 0
    for trial in 0..<100_000 {
      var bytes = Array(pieces[below(pieces.count)].utf8)
      // Now and then one byte changed.
      if trial % 3 == 0, !bytes.isEmpty { bytes[below(bytes.count)] = UInt8(below(256)) }
      let general = WeighCSVImporter.origin(bytes)
      let fast = bytes.withUnsafeBufferPointer { WeighJSONImporter.origin($0) }
      #expect(fast == general, "\(bytes)")
      if fast != nil { found += 1 }
    }
    #expect(found > 20_000)
  }
}
