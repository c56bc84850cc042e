// checked-file: bit arithmetic on UInt32 values and table indices masked to 0…255 or built
// from a level below 64 and a byte; no value here can trap.

/// The CRC-32 of two pieces of bytes one after the other, from the CRC-32 of each and the
/// second's length (the math of zlib's `crc32_combine`, written here): a journal record's
/// checksum takes each streamed row's own checksum, computed once for the row's table line,
/// instead of running over the row's bytes a second time.
///
/// Why it holds: the register of a CRC is linear over GF(2). Running bytes B from a register
/// s gives M(s) ⊕ R(B), where M shifts s through |B| zero bytes and R(B) is B run from 0;
/// with the start value and the final complement of the zip checksum that becomes
/// crc(A ‖ B) = M(crc(A)) ⊕ crc(B) (`CRC32CombinationTests` checks it against the direct
/// checksum). M for a length is the product of the maps for 2^k zero bytes for each bit k
/// set in the length; each of those is kept as four tables of 256 entries, one per byte of
/// the register, so a row of 100–200 bytes costs two to four table steps.
enum CRC32Combination {
  /// The checksum of `first`'s bytes followed by `secondLength` bytes whose checksum is
  /// `second`.
  ///
  /// - Complexity: O(number of bits set in `secondLength`).
  static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
    var register = first
    var remaining = UInt64(truncatingIfNeeded: secondLength)  // a length is not negative
    var level = 0
    zeroShifts.withUnsafeBufferPointer { tables in
      while remaining != 0 {
        if remaining & 1 == 1 { register = shift(register, level: level, tables) }
        remaining >>= 1
        level += 1
      }
    }
    return register ^ second
  }

  /// Entries of one level's four byte tables.
  private static let levelSize = 1024

  @inline(__always)
  private static func shift(
    _ register: UInt32, level: Int, _ tables: UnsafeBufferPointer<UInt32>
  ) -> UInt32 {
    let base = level &* levelSize
    return tables[base &+ Int(register & 0xFF)]
      ^ tables[base &+ 256 &+ Int(register >> 8 & 0xFF)]
      ^ tables[base &+ 512 &+ Int(register >> 16 & 0xFF)]
      ^ tables[base &+ 768 &+ Int(register >> 24)]
  }

  /// For each level k below 64, the map that runs a raw register through 2^k zero bytes, as
  /// four tables: entry 256·j + b is the image of byte b placed at byte j of the register.
  private static let zeroShifts: [UInt32] = {
    // The images of the 32 one-bit registers through one zero byte (the reflected
    // polynomial 0xEDB88320, one bit at a time).
    var basis = (0..<32).map { (bit: Int) -> UInt32 in
      var register = UInt32(1) << UInt32(bit)
      for _ in 0..<8 {
        register = register & 1 == 1 ? (register >> 1) ^ 0xEDB8_8320 : register >> 1
      }
      return register
    }
    var tables = [UInt32](repeating: 0, count: 64 * levelSize)
    for level in 0..<64 {
      let base = level * levelSize
      for byte in 0..<4 {
        for value in 1..<256 {
          let lowest = value & -value
          tables[base + 256 * byte + value] =
            tables[base + 256 * byte + (value ^ lowest)]
            ^ basis[8 * byte + lowest.trailingZeroBitCount]
        }
      }
      // 2^(k+1) zero bytes are 2^k twice: the next level's basis is this one's run again.
      basis = basis.map { register in
        tables.withUnsafeBufferPointer { shift(register, level: level, $0) }
      }
    }
    return tables
  }()
}
