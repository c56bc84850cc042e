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
  private let fields: Fields

  /// The writing app or device.
  public var source: HealthSource { fields.source }
  /// The app's version, e.g. "1.4"; `nil` when unknown.
  public var version: String? { fields.version }
  /// The product type, e.g. "iPhone15,2".
  public var productType: String? { fields.productType }
  /// The operating system version, e.g. "17.4".
  public var operatingSystemVersion: String? { fields.operatingSystemVersion }

  /// A revision of `source`.
  public init(
    source: HealthSource, version: String? = nil, productType: String? = nil,
    operatingSystemVersion: String? = nil
  ) {
    fields = Fields(
      source: source, version: version, productType: productType,
      operatingSystemVersion: operatingSystemVersion)
  }

  private final class Fields: Sendable {
    let source: HealthSource
    let version: String?
    let productType: String?
    let operatingSystemVersion: String?

    init(
      source: HealthSource, version: String?, productType: String?,
      operatingSystemVersion: String?
    ) {
      self.source = source
      self.version = version
      self.productType = productType
      self.operatingSystemVersion = operatingSystemVersion
    }
  }

  // Equality, hashing and coding as a struct of these fields had them.

  public static func == (lhs: SourceRevision, rhs: SourceRevision) -> Bool {
    if lhs.fields === rhs.fields { return true }
    return lhs.source == rhs.source && lhs.version == rhs.version
      && lhs.productType == rhs.productType
      && lhs.operatingSystemVersion == rhs.operatingSystemVersion
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(source)
    hasher.combine(version)
    hasher.combine(productType)
    hasher.combine(operatingSystemVersion)
  }

  private enum CodingKeys: String, CodingKey {
    case source, version, productType, operatingSystemVersion
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      source: try container.decode(HealthSource.self, forKey: .source),
      version: try container.decodeIfPresent(String.self, forKey: .version),
      productType: try container.decodeIfPresent(String.self, forKey: .productType),
      operatingSystemVersion: try container.decodeIfPresent(
        String.self, forKey: .operatingSystemVersion))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(source, forKey: .source)
    try container.encodeIfPresent(version, forKey: .version)
    try container.encodeIfPresent(productType, forKey: .productType)
    try container.encodeIfPresent(operatingSystemVersion, forKey: .operatingSystemVersion)
  }
}
