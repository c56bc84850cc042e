import Foundation

/// Whether a list of UUIDs has no two alike, without `Hasher`: `HealthStore.write` asks it
/// of the UUIDs it draws for a batch, where a set of them cost two SipHash runs a sample
/// (its `contains` and its `insert`).
///
/// An open-addressing table of indexes into the list, twice its size, placed by the UUID's
/// second half multiplied (Fibonacci hashing); equal halves are compared in full, so the
/// answer is exact whatever the UUIDs (random ones, as drawn, rarely probe twice).
enum DistinctUUIDs {
  static func areDistinct(_ uuids: [UUID]) -> Bool {
    guard uuids.count > 1 else { return true }
    let halves = uuids.map(Self.halves)
    var shift = 64
    var size = 1
    while size < 2 * halves.count {
      size <<= 1
      shift -= 1
    }
    // Each slot holds an index into `halves` plus one; zero is empty.
    var slots = [Int](repeating: 0, count: size)
    let mask = size - 1
    for (index, (high, low)) in halves.enumerated() {
      let hash = (low &* 0x9E37_79B9_7F4A_7C15) >> UInt64(truncatingIfNeeded: shift)
      var slot = Int(truncatingIfNeeded: hash)
      while slots[slot] != 0 {
        let other = halves[slots[slot] - 1]
        if other.0 == high, other.1 == low { return false }
        slot = (slot + 1) & mask
      }
      slots[slot] = index + 1
    }
    return true
  }

  /// The UUID's 16 bytes as two 64-bit words.
  private static func halves(_ uuid: UUID) -> (UInt64, UInt64) {
    withUnsafeBytes(of: uuid.uuid) {
      (
        $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
        $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
      )
    }
  }
}
