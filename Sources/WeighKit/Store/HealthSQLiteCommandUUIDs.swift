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
/// a blocked Bloom filter of fixed size (`filterWords`, 16 MiB), so the memory does not grow
/// with the file. A UUID's bits are one bit in each of the eight 64-bit words of one 64-byte
/// block (one cache line: a question or a note misses the processor's caches once, where
/// four bits anywhere in the filter missed four times). At 1.25 million UUIDs (the 1 GB
/// export) about one question in 60 million of a UUID not there is a "maybe"; at ten
/// million, about one in 400 (two filters with four bits anywhere in 8 MiB: 1 in 38,000 and 1 in 25). Few enough at 1 GB that the UUID index, which a "maybe" makes
/// again (`HealthSQLiteUUIDIndex`), is made only at the end.
final class HealthSQLiteCommandUUIDs {
  /// The UUIDs kept exactly before the filter is made.
  static let exactLimit = 4096
  /// The filter's 64-bit words: 2^21 (16 MiB), in blocks of `blockWords`.
  static let filterWords = 1 << 21
  /// The words of a block (64 bytes, a cache line); a UUID sets one bit in each.
  static let blockWords = 8
  /// A block's number from a hash: its low 18 bits.
  private static let blockMask = UInt64(truncatingIfNeeded: filterWords / blockWords - 1)

  private var exact: Set<UUID> = []
  /// The filter's words, aligned on 64 bytes so that a block is one cache line; nil until
  /// the exact set is full.
  private var filter: UnsafeMutablePointer<UInt64>?
  /// The allocation the filter is in (`calloc`'s, freed by `free`).
  private var allocation: UnsafeMutableRawPointer?

  /// Whether the UUIDs are still kept exactly (the filter is not made yet).
  var isExact: Bool { filter == nil }

  deinit { free(allocation) }

  /// Notes that a live sample row with `uuid` is (or is about to be) in the table.
  func insert(_ uuid: UUID) {
    guard let filter else {
      exact.insert(uuid)
      guard exact.count > Self.exactLimit, let words = zeroedWords() else { return }
      self.filter = words
      for kept in exact { Self.setBits(of: kept, in: words) }
      exact = []
      return
    }
    Self.setBits(of: uuid, in: filter)
  }

  /// False when no live row the command inserted has `uuid`; true when one may have it.
  func mayContain(_ uuid: UUID) -> Bool {
    guard let filter else { return exact.contains(uuid) }
    var (base, bits) = Self.block(of: uuid)
    for offset in 0..<Self.blockWords {
      if filter[base + offset] & (1 << (bits & 63)) == 0 { return false }
      bits >>= 6
    }
    return true
  }

  private static func setBits(of uuid: UUID, in filter: UnsafeMutablePointer<UInt64>) {
    var (base, bits) = block(of: uuid)
    for offset in 0..<blockWords {
      filter[base + offset] |= 1 << (bits & 63)
      bits >>= 6
    }
  }

  /// `filterWords` zero words, aligned on 64 bytes: from `calloc`, whose pages of a large
  /// size come from the system already zero (written only where bits are set), where
  /// zeroing 16 MiB cost 4 M instructions and touched every page at once.
  private func zeroedWords() -> UnsafeMutablePointer<UInt64>? {
    let line = 64
    // Out of memory: nil, and the UUIDs stay in the exact set (right answers, more memory).
    guard let base = calloc(1, Self.filterWords * MemoryLayout<UInt64>.size + line) else {
      return nil
    }
    allocation = base
    let aligned = (Int(bitPattern: base) + line - 1) / line * line
    return base.advanced(by: aligned - Int(bitPattern: base)).bindMemory(
      to: UInt64.self, capacity: Self.filterWords)
  }

  /// The first word of `uuid`'s block, and its bits: six bits of hash per word, the lowest
  /// for the block's first word.
  private static func block(of uuid: UUID) -> (base: Int, bits: UInt64) {
    let (first, second) = hashes(uuid)
    let base = Int(truncatingIfNeeded: first & blockMask) * blockWords
    return (base, second)
  }

  /// Two hashes of the UUID's 16 bytes (SplitMix64's finalizer of each half, mixed): the
  /// first picks the block, the second the bits in it (a caller's UUID need not be random).
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
