import Foundation

/// The simulator's one random generator: xoshiro256** seeded through splitmix64.
///
/// Same seed, same sequence on every machine. Simulations and new UUIDs draw from it.
public struct SeededGenerator: RandomNumberGenerator, Codable, Hashable, Sendable {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// A generator whose whole sequence is fixed by `seed`.
  public init(seed: UInt64) {
    var mix = seed
    func splitmix() -> UInt64 {
      mix &+= 0x9E37_79B9_7F4A_7C15
      var z = mix
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    s0 = splitmix()
    s1 = splitmix()
    s2 = splitmix()
    s3 = splitmix()
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    let result = rotate(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotate(s3, 45)
    return result
  }

  /// A uniform double in [0, 1) with 53 random bits.
  public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

  /// A standard normal draw N(0, 1) by the Box–Muller transform (one draw per pair).
  public mutating func nextGaussian() -> Double {
    let u1 = 1 - nextUnit()  // in (0, 1], so the logarithm is finite
    let u2 = nextUnit()
    return (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * Double.pi * u2)
  }

  /// A version-4 UUID made of 122 random bits: the two draws' bytes, most significant
  /// first, with the version and variant bits set. Built from the two words in place (an
  /// array of the 16 bytes was 950 instructions a UUID, most of them its allocation).
  public mutating func nextUUID() -> UUID {
    // Byte 6 is bits 8–15 of the first draw (version 4); byte 8 bits 56–63 of the second
    // (variant 10).
    let high = (next() & ~0xF000) | 0x4000
    let low = (next() & ~(0xC0 << 56)) | (0x80 << 56)
    return withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) {
      UUID(uuid: $0.loadUnaligned(as: uuid_t.self))
    }
  }

  private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

  // MARK: Codable

  /// The state is four 64-bit words, written as hexadecimal strings: as JSON numbers they
  /// would pass through doubles in many readers and lose their low bits, and a reopened
  /// store would then draw other UUIDs than the session that saved it.
  private enum CodingKeys: String, CodingKey {
    case s0, s1, s2, s3
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func word(_ key: CodingKeys) throws -> UInt64 {
      if let text = try? container.decode(String.self, forKey: key) {
        // checked: parses hex text, nil when out of range
        guard let value = UInt64(text, radix: 16) else {
          throw DecodingError.dataCorruptedError(
            forKey: key, in: container,
            debugDescription: "expected 16 hexadecimal digits, got \"\(text)\"")
        }
        return value
      }
      // Stores written before the state was kept as text.
      return try container.decode(UInt64.self, forKey: key)
    }
    s0 = try word(.s0)
    s1 = try word(.s1)
    s2 = try word(.s2)
    s3 = try word(.s3)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    func hex(_ word: UInt64) -> String {
      let digits = String(word, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }
    try container.encode(hex(s0), forKey: .s0)
    try container.encode(hex(s1), forKey: .s1)
    try container.encode(hex(s2), forKey: .s2)
    try container.encode(hex(s3), forKey: .s3)
  }
}
