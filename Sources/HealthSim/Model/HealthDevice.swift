/// The hardware that measured a sample (HKDevice); every field is optional.
public struct HealthDevice: Hashable, Codable, Sendable {
  /// The fields, shared by every copy (seven strings retained at each copy of them: every
  /// sample saved copies its device; docs/performance.md, "hmodel12").
  private let fields: Fields

  /// The device's name, e.g. "Body+".
  public var name: String? { fields.name }
  /// The maker, e.g. "Withings".
  public var manufacturer: String? { fields.manufacturer }
  /// The model, e.g. "WBS05".
  public var model: String? { fields.model }
  /// The hardware version.
  public var hardwareVersion: String? { fields.hardwareVersion }
  /// The firmware version.
  public var firmwareVersion: String? { fields.firmwareVersion }
  /// The software version.
  public var softwareVersion: String? { fields.softwareVersion }
  /// A local identifier, e.g. a Bluetooth id.
  public var localIdentifier: String? { fields.localIdentifier }

  /// A device description; `nil` fields are unknown.
  public init(
    name: String? = nil, manufacturer: String? = nil, model: String? = nil,
    hardwareVersion: String? = nil, firmwareVersion: String? = nil,
    softwareVersion: String? = nil, localIdentifier: String? = nil
  ) {
    fields = Fields(
      name: name, manufacturer: manufacturer, model: model, hardwareVersion: hardwareVersion,
      firmwareVersion: firmwareVersion, softwareVersion: softwareVersion,
      localIdentifier: localIdentifier)
  }

  private final class Fields: Sendable {
    let name: String?
    let manufacturer: String?
    let model: String?
    let hardwareVersion: String?
    let firmwareVersion: String?
    let softwareVersion: String?
    let localIdentifier: String?

    init(
      name: String?, manufacturer: String?, model: String?, hardwareVersion: String?,
      firmwareVersion: String?, softwareVersion: String?, localIdentifier: String?
    ) {
      self.name = name
      self.manufacturer = manufacturer
      self.model = model
      self.hardwareVersion = hardwareVersion
      self.firmwareVersion = firmwareVersion
      self.softwareVersion = softwareVersion
      self.localIdentifier = localIdentifier
    }
  }

  // Equality, hashing and coding as a struct of these fields had them.

  public static func == (lhs: HealthDevice, rhs: HealthDevice) -> Bool {
    if lhs.fields === rhs.fields { return true }
    return lhs.name == rhs.name && lhs.manufacturer == rhs.manufacturer
      && lhs.model == rhs.model && lhs.hardwareVersion == rhs.hardwareVersion
      && lhs.firmwareVersion == rhs.firmwareVersion
      && lhs.softwareVersion == rhs.softwareVersion
      && lhs.localIdentifier == rhs.localIdentifier
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(manufacturer)
    hasher.combine(model)
    hasher.combine(hardwareVersion)
    hasher.combine(firmwareVersion)
    hasher.combine(softwareVersion)
    hasher.combine(localIdentifier)
  }

  private enum CodingKeys: String, CodingKey {
    case name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion
    case localIdentifier
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      name: try container.decodeIfPresent(String.self, forKey: .name),
      manufacturer: try container.decodeIfPresent(String.self, forKey: .manufacturer),
      model: try container.decodeIfPresent(String.self, forKey: .model),
      hardwareVersion: try container.decodeIfPresent(String.self, forKey: .hardwareVersion),
      firmwareVersion: try container.decodeIfPresent(String.self, forKey: .firmwareVersion),
      softwareVersion: try container.decodeIfPresent(String.self, forKey: .softwareVersion),
      localIdentifier: try container.decodeIfPresent(String.self, forKey: .localIdentifier))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(name, forKey: .name)
    try container.encodeIfPresent(manufacturer, forKey: .manufacturer)
    try container.encodeIfPresent(model, forKey: .model)
    try container.encodeIfPresent(hardwareVersion, forKey: .hardwareVersion)
    try container.encodeIfPresent(firmwareVersion, forKey: .firmwareVersion)
    try container.encodeIfPresent(softwareVersion, forKey: .softwareVersion)
    try container.encodeIfPresent(localIdentifier, forKey: .localIdentifier)
  }
}
