// checked-file: byte and table-index arithmetic on UInt8 and UInt32 only; every Int(…) and
// UInt32(…) here widens a byte or an index masked to 0…255, so none can trap.

import CWeighCRC32

/// The CRC-32 of zip entries (IEEE 802.3, reflected, polynomial 0xEDB88320), eight bytes a
/// step.
///
/// Written here because ZIPFoundation 0.9.20 on Linux checks entries with a byte-at-a-time
/// Swift loop (its zlib path is compiled for Apple platforms only): on a 1 GB export that
/// loop took 39% of the import's time in perf, 15.3 s against 5.4 s for the unzipped file.
public struct ZipCRC32: Sendable {
  /// The checksum of the bytes so far.
  public private(set) var value: UInt32 = 0

  /// A checksum of no bytes.
  public init() {}

  /// A checksum that goes on from `value`, the checksum of some bytes already seen.
  public init(continuing value: UInt32) { self.value = value }

  /// The eight tables of slicing-by-8, one after the other: entries 256·k ..< 256·(k + 1)
  /// run a byte through k further zero bytes.
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for index in 0..<256 {
      var crc = UInt32(index)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
      tables[index] = crc
    }
    for slice in 1..<8 {
      for index in 0..<256 {
        let previous = tables[256 * (slice - 1) + index]
        tables[256 * slice + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
      }
    }
    return tables
  }()

  /// Whether the processor folds 16 bytes a step (`weigh_crc32_fold`: x86-64 with PCLMULQDQ).
  private static let folds = weigh_crc32_fold_available() == 1

  /// Adds `bytes` to the checksum.
  ///
  /// From 32 bytes on, where the processor has carry-less multiplication, the whole
  /// 16-byte blocks are folded in C (`CWeighCRC32`) and the rest goes through the tables: a
  /// store row's 118 bytes cost 550 instructions through the tables alone (callgrind,
  /// 100,000 imported rows, wstore10). Eight bytes are read as one little-endian word.
  ///
  /// - Complexity: O(n).
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    let count = bytes.count
    var crc = ~value
    var index = 0
    if count >= 32, Self.folds {
      index = count & ~15
      crc = weigh_crc32_fold(crc, base.assumingMemoryBound(to: UInt8.self), index)
    }
    Self.tables.withUnsafeBufferPointer { tables in
      while index &+ 8 <= count {
        let word = UInt64(littleEndian: (base + index).loadUnaligned(as: UInt64.self))
        let low = crc ^ UInt32(truncatingIfNeeded: word)
        let high = UInt32(truncatingIfNeeded: word >> 32)
        crc =
          tables[1792 &+ Int(low & 0xFF)] ^ tables[1536 &+ Int(low >> 8 & 0xFF)]
          ^ tables[1280 &+ Int(low >> 16 & 0xFF)] ^ tables[1024 &+ Int(low >> 24)]
          ^ tables[768 &+ Int(high & 0xFF)] ^ tables[512 &+ Int(high >> 8 & 0xFF)]
          ^ tables[256 &+ Int(high >> 16 & 0xFF)] ^ tables[Int(high >> 24)]
        index &+= 8
      }
      while index < count {
        let byte = base.load(fromByteOffset: index, as: UInt8.self)
        crc = (crc >> 8) ^ tables[Int((crc ^ UInt32(byte)) & 0xFF)]
        index &+= 1
      }
    }
    value = ~crc
  }
}
