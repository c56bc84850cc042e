/// The app or device that wrote a sample (HKSource).
public struct HealthSource: Hashable, Codable, Sendable, Comparable {
  /// The name shown in Health, e.g. "Withings".
  public let name: String
  /// The bundle identifier; sources are matched by it.
  public let bundleIdentifier: String

  /// A source with a display name and a bundle identifier.
  public init(name: String, bundleIdentifier: String) {
    self.name = name
    self.bundleIdentifier = bundleIdentifier
  }

  /// The Health app itself, which owns samples the user enters by hand.
  public static let health = HealthSource(name: "Health", bundleIdentifier: "com.apple.Health")

  public static func < (lhs: HealthSource, rhs: HealthSource) -> Bool {
    (lhs.bundleIdentifier, lhs.name) < (rhs.bundleIdentifier, rhs.name)
  }
}

/// A source at a version (HKSourceRevision); the store sets it when it saves a sample.
public struct SourceRevision: Hashable, Codable, Sendable {
  /// The fields, shared by every copy (five strings retained at each copy of them: every
  /// sample saved copies its revision; docs/performance.md, "hmodel12").
  private let fields: SharedFields<Fields>

  /// The writing app or device.
  public var source: HealthSource { fields.value.source }
  /// The app's version, e.g. "1.4"; `nil` when unknown.
  public var version: String? { fields.value.version }
  /// The product type, e.g. "iPhone15,2".
  public var productType: String? { fields.value.productType }
  /// The operating system version, e.g. "17.4".
  public var operatingSystemVersion: String? { fields.value.operatingSystemVersion }

  /// A revision of `source`.
  public init(
    source: HealthSource, version: String? = nil, productType: String? = nil,
    operatingSystemVersion: String? = nil
  ) {
    fields = SharedFields(
      Fields(
        source: source, version: version, productType: productType,
        operatingSystemVersion: operatingSystemVersion))
  }

  /// One bit for each optional field present: bit 0 the version, bit 1 the product type,
  /// bit 2 the operating system version (asked where they stand, as
  /// `HealthDevice.presentFields`).
  public var presentFields: UInt16 {
    var bits: UInt16 = 0
    if fields.value.version != nil { bits |= 1 << 0 }
    if fields.value.productType != nil { bits |= 1 << 1 }
    if fields.value.operatingSystemVersion != nil { bits |= 1 << 2 }
    return bits
  }

  /// The fields as a struct of them: its equality, hashing and coding are the revision's.
  private struct Fields: Hashable, Codable, Sendable {
    let source: HealthSource
    let version: String?
    let productType: String?
    let operatingSystemVersion: String?
  }

  // Coded as a struct of these fields was (the keys and their order unchanged); equality
  // and hashing are the fields'.

  public init(from decoder: any Decoder) throws { fields = try SharedFields(from: decoder) }

  public func encode(to encoder: any Encoder) throws { try fields.encode(to: encoder) }
}
