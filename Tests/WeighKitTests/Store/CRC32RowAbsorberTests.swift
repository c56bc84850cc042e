import Testing

@testable import WeighKit

/// `CRC32RowAbsorber` takes a row's checksum into a record's through tables kept per row
/// length: the record's checksum must be the CRC-32 of the record's bytes, the gap and the row
/// one after the other, for lengths it keeps tables for and for those past its limit.
@Suite struct CRC32RowAbsorberTests {
  private static func crc(_ bytes: [UInt8]) -> UInt32 {
    var crc = ZipCRC32()
    bytes.withUnsafeBytes { crc.update($0) }
    return crc.value
  }

  @Test func aRecordAbsorbingRowsHasTheChecksumOfItsBytes() {
    var random = CRC32CombinationTests.Bytes(state: 10)
    for gapLength in [0, 1, 26, 300] {
      let gap = random.bytes(gapLength)
      var absorber = CRC32RowAbsorber(gap: gap)
      var record = random.bytes(random.below(100))
      var value = Self.crc(record)
      // A few lengths over and over (an import), then more distinct ones than the absorber
      // keeps tables for (notes of every length), then the first ones again.
      var lengths = (0..<2000).map { _ in 100 + random.below(4) }
      lengths += (0..<(3 * CRC32RowAbsorber.maximumLengths)).map { 200 + $0 }
      lengths += [0, 1, 7, 8, 9] + (0..<200).map { _ in 100 + random.below(4) }
      for length in lengths {
        let row = random.bytes(length)
        value = absorber.absorb(value, row: Self.crc(row), rowLength: row.count)
        record += gap + row
        #expect(value == Self.crc(record), "gap \(gapLength), row \(length)")
        if value != Self.crc(record) { return }
      }
    }
  }
}
