// checked-file: bit arithmetic on UInt32 and UInt64 values and table indices below the
// table's size; no value here can trap.
import Foundation

/// A live sample's row checksum (`HealthSQLiteRowParts.checksum(originID:)`) in two parts:
/// the checksum of the row's bytes with zeros where the position, the UUID, the origin id
/// and the creation time go (made on the import's reading thread, `HealthSQLitePreparedRow`),
/// and those columns' own part, which the saving thread adds.
///
/// Why it holds: a CRC's register is linear over GF(2), so for two messages of one length,
/// crc(M) = crc(M0) ⊕ r(M ⊕ M0), where r runs the raw register from 0 without the final
/// complement; M ⊕ M0 is zero but for the four columns, and r of it is the xor of each of
/// their bytes run through the zero bytes that follow it to the row's end. A byte b at
/// distance d from the end of the 74 bytes before the suffix counts `table[256·d + b]`; the
/// whole is then run through the suffix's zero bytes (`CRC32Combination` math).
/// `HealthSQLiteRowChecksumSplitTests` compares it with the whole sum on random rows.
enum HealthSQLiteRowChecksumSplit {
  /// A row's bytes up to the end of its creation time: position 8, kind 1, type 8, UUID 16,
  /// start, end and value 24, origin id 8, the creation time's presence byte and its 8.
  static let prefixLength = 74

  /// The UUID of zeros.
  static let zeroUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

  /// The checksummed bytes of a row with a creation time after it: the sync identifier's
  /// presence byte (and its length and text), the deletion time's (and it), `extra`'s (and
  /// its length and bytes).
  static func suffixLength(of parts: HealthSQLiteRowParts) -> Int {
    var length = 3
    if let syncIdentifier = parts.syncIdentifier { length += 8 + syncIdentifier.utf8.count }
    if parts.deleted != nil { length += 8 }
    if let extra = parts.extra { length += 8 + extra.count }
    return length
  }

  /// The checksum of a live row with a creation time, from `fixed` (the checksum with zeros
  /// for the four columns) and the columns.
  static func checksum(
    fixed: UInt32, suffixLength: Int, position: Int64, uuid: UUID, originID: Int64,
    created: Double
  ) -> UInt32 {
    var register: UInt32 = 0
    tables.withUnsafeBufferPointer { tables in
      // The word at `offset`, its bytes least significant first, as the checksum adds them.
      func add(_ word: UInt64, at offset: Int) {
        var word = word
        var distance = prefixLength &- 1 &- offset
        for _ in 0..<8 {
          register ^= tables[distance &* 256 &+ Int(word & 0xFF)]
          word >>= 8
          distance &-= 1
        }
      }
      add(UInt64(bitPattern: position), at: 0)
      let (low, high) = withUnsafeBytes(of: uuid.uuid) {
        ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      }
      add(UInt64(littleEndian: low), at: 17)
      add(UInt64(littleEndian: high), at: 25)
      add(UInt64(bitPattern: originID), at: 57)
      add(created.bitPattern, at: 66)
      // Through the suffix's zero bytes: one table step a byte for a plain row's 3.
      if suffixLength <= 16 {
        for _ in 0..<suffixLength {
          register = (register >> 8) ^ tables[Int(register & 0xFF)]
        }
      }
    }
    if suffixLength > 16 {
      register = CRC32Combination.combine(register, 0, secondLength: suffixLength)
    }
    return fixed ^ register
  }

  /// For each distance d below `prefixLength`, the raw register of byte b followed by d zero
  /// bytes, at 256·d + b.
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: prefixLength * 256)
    for byte in 0..<256 {
      var register = UInt32(byte)
      for _ in 0..<8 {
        register = register & 1 == 1 ? (register >> 1) ^ 0xEDB8_8320 : register >> 1
      }
      tables[byte] = register
    }
    for distance in 1..<prefixLength {
      for byte in 0..<256 {
        let previous = tables[(distance - 1) * 256 + byte]
        tables[distance * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
      }
    }
    return tables
  }()
}
