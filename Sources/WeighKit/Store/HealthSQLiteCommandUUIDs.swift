import Foundation

/// The UUIDs of the live sample rows a command inserted into a `record` table that held no
/// row when the command's writer was made (a new store's first import): in such a command,
/// a UUID not among them is on no live sample, and needs no look-up in the UUID index.
///
/// An import asks about each new UUID it draws (a reseeded generator repeats UUIDs); at
/// 1.25 million rows each look-up is a descent of a random path of the UUID index
/// (docs/performance.md, "The all-types import: the saving thread, fourth round").
///
/// The answer may be wrong only one way: a UUID may be said to be maybe present when it is
/// not (a row rolled back, a sample deleted, a false positive of the filter), and is then
/// looked up in the table, as before. It is never said absent when a live row has it, since
/// every live sample row the command's writer inserts is noted here before it is inserted
/// (`HealthSQLiteStorage.Writer.insert(_:at:_:)`). Nothing is undone on a rollback: a
/// reference shared by the copies of the writer that savepoints and steps keep.
///
/// Exact (a set) up to `exactLimit` UUIDs, so that a small command allocates little; past it
/// a Bloom filter of fixed size (`filterWords`, 8 MiB), so the memory does not grow with the
/// file: at 1.25 million UUIDs about 1 look-up in 38,000 of a UUID not there goes to the
/// table anyway; at ten million, about 1 in 25.
final class HealthSQLiteCommandUUIDs {
  /// The UUIDs kept exactly before the filter is made.
  static let exactLimit = 4096
  /// The filter's 64-bit words: 2^20 (8 MiB, 2^26 bits).
  static let filterWords = 1 << 20
  /// Bits set per UUID.
  static let bitsPerUUID = 4
  /// A bit's number in the filter from a hash: its low 26 bits.
  private static let bitMask = UInt64(truncatingIfNeeded: filterWords * 64 - 1)

  private var exact: Set<UUID> = []
  private var filter: [UInt64] = []

  /// Notes that a live sample row with `uuid` is (or is about to be) in the table.
  func insert(_ uuid: UUID) {
    if filter.isEmpty {
      exact.insert(uuid)
      guard exact.count > Self.exactLimit else { return }
      filter = Array(repeating: 0, count: Self.filterWords)
      for kept in exact { setBits(of: kept) }
      exact = []
      return
    }
    setBits(of: uuid)
  }

  /// False when no live row the command inserted has `uuid`; true when one may have it.
  func mayContain(_ uuid: UUID) -> Bool {
    if filter.isEmpty { return exact.contains(uuid) }
    var (index, step) = Self.hashes(uuid)
    for _ in 0..<Self.bitsPerUUID {
      let bit = index & Self.bitMask
      if filter[Int(truncatingIfNeeded: bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
      index &+= step
    }
    return true
  }

  private func setBits(of uuid: UUID) {
    var (index, step) = Self.hashes(uuid)
    for _ in 0..<Self.bitsPerUUID {
      let bit = index & Self.bitMask
      filter[Int(truncatingIfNeeded: bit >> 6)] |= 1 << (bit & 63)
      index &+= step
    }
  }

  /// Two hashes of the UUID's 16 bytes (SplitMix64's finalizer of each half, mixed): the
  /// filter's bits are `first + i × second` (a caller's UUID need not be random).
  private static func hashes(_ uuid: UUID) -> (UInt64, UInt64) {
    let (high, low) = withUnsafeBytes(of: uuid.uuid) {
      (
        $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
        $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
      )
    }
    let first = mix(high ^ mix(low))
    return (first, mix(low &+ first) | 1)
  }

  private static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
