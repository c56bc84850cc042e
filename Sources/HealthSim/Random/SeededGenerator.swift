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

  /// A version-4 UUID made of 122 random bits.
  public mutating func nextUUID() -> UUID {
    let high = next()
    let low = next()
    var bytes = [UInt8](repeating: 0, count: 16)
    for index in 0..<8 {
      // checked: an index below 8
      bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
      // checked: an index below 8
      bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index)))
    }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
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
