/// The hardware that measured a sample (HKDevice); every field is optional.
public struct HealthDevice: Hashable, Codable, Sendable {
  /// The device's name, e.g. "Body+".
  public let name: String?
  /// The maker, e.g. "Withings".
  public let manufacturer: String?
  /// The model, e.g. "WBS05".
  public let model: String?
  /// The hardware version.
  public let hardwareVersion: String?
  /// The firmware version.
  public let firmwareVersion: String?
  /// The software version.
  public let softwareVersion: String?
  /// A local identifier, e.g. a Bluetooth id.
  public let localIdentifier: String?

  /// A device description; `nil` fields are unknown.
  public init(
    name: String? = nil, manufacturer: String? = nil, model: String? = nil,
    hardwareVersion: String? = nil, firmwareVersion: String? = nil,
    softwareVersion: String? = nil, localIdentifier: String? = nil
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
