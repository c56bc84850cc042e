// checked-file: byte and table-index arithmetic on UInt8 and UInt32 only; every Int(…) and
// UInt32(…) here widens a byte or an index masked to 0…255, so none can trap.

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

  private static let tables: [[UInt32]] = {
    var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
    for index in 0..<256 {
      var crc = UInt32(index)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
      tables[0][index] = crc
    }
    for index in 0..<256 {
      for slice in 1..<8 {
        let previous = tables[slice - 1][index]
        tables[slice][index] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
      }
    }
    return tables
  }()

  /// Adds `bytes` to the checksum.
  ///
  /// - Complexity: O(n).
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    var crc = ~value
    Self.tables.withUnsafeBufferPointer { tables in
      let t0 = tables[0], t1 = tables[1], t2 = tables[2], t3 = tables[3]
      let t4 = tables[4], t5 = tables[5], t6 = tables[6], t7 = tables[7]
      t0.withUnsafeBufferPointer { t0 in
        t1.withUnsafeBufferPointer { t1 in
          t2.withUnsafeBufferPointer { t2 in
            t3.withUnsafeBufferPointer { t3 in
              t4.withUnsafeBufferPointer { t4 in
                t5.withUnsafeBufferPointer { t5 in
                  t6.withUnsafeBufferPointer { t6 in
                    t7.withUnsafeBufferPointer { t7 in
                      var i = 0
                      let n = bytes.count
                      while i + 8 <= n {
                        let low =
                          crc
                          ^ (UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8
                            | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
                        crc =
                          t7[Int(low & 0xFF)] ^ t6[Int(low >> 8 & 0xFF)]
                          ^ t5[Int(low >> 16 & 0xFF)] ^ t4[Int(low >> 24)]
                          ^ t3[Int(bytes[i + 4])] ^ t2[Int(bytes[i + 5])]
                          ^ t1[Int(bytes[i + 6])] ^ t0[Int(bytes[i + 7])]
                        i += 8
                      }
                      while i < n {
                        crc = (crc >> 8) ^ t0[Int((crc ^ UInt32(bytes[i])) & 0xFF)]
                        i += 1
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    value = ~crc
  }
}
