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
  /// The writing app or device.
  public let source: HealthSource
  /// The app's version, e.g. "1.4"; `nil` when unknown.
  public let version: String?
  /// The product type, e.g. "iPhone15,2".
  public let productType: String?
  /// The operating system version, e.g. "17.4".
  public let operatingSystemVersion: String?

  /// A revision of `source`.
  public init(
    source: HealthSource, version: String? = nil, productType: String? = nil,
    operatingSystemVersion: String? = nil
  ) {
    self.source = source
    self.version = version
    self.productType = productType
    self.operatingSystemVersion = operatingSystemVersion
  }
}
