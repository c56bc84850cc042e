/// The hardware that measured a sample (HKDevice); every field is optional.
public struct HealthDevice: Hashable, Codable, Sendable {
  /// The fields, shared by every copy (seven strings retained at each copy of them: every
  /// sample saved copies its device; docs/performance.md, "hmodel12").
  private let fields: SharedFields<Fields>

  /// The device's name, e.g. "Body+".
  public var name: String? { fields.value.name }
  /// The maker, e.g. "Withings".
  public var manufacturer: String? { fields.value.manufacturer }
  /// The model, e.g. "WBS05".
  public var model: String? { fields.value.model }
  /// The hardware version.
  public var hardwareVersion: String? { fields.value.hardwareVersion }
  /// The firmware version.
  public var firmwareVersion: String? { fields.value.firmwareVersion }
  /// The software version.
  public var softwareVersion: String? { fields.value.softwareVersion }
  /// A local identifier, e.g. a Bluetooth id.
  public var localIdentifier: String? { fields.value.localIdentifier }

  /// A device description; `nil` fields are unknown.
  public init(
    name: String? = nil, manufacturer: String? = nil, model: String? = nil,
    hardwareVersion: String? = nil, firmwareVersion: String? = nil,
    softwareVersion: String? = nil, localIdentifier: String? = nil
  ) {
    fields = SharedFields(
      Fields(
        name: name, manufacturer: manufacturer, model: model, hardwareVersion: hardwareVersion,
        firmwareVersion: firmwareVersion, softwareVersion: softwareVersion,
        localIdentifier: localIdentifier))
  }

  /// One bit for each field present, in the coded keys' order: bit 0 the firmware version,
  /// then the hardware version, the local identifier, the manufacturer, the model, the name
  /// and bit 6 the software version. Asked where the fields stand: each getter returns a
  /// copy of its text, and a store's writer asks of every row (docs/performance.md, hrow15).
  public var presentFields: UInt16 {
    var bits: UInt16 = 0
    if fields.value.firmwareVersion != nil { bits |= 1 << 0 }
    if fields.value.hardwareVersion != nil { bits |= 1 << 1 }
    if fields.value.localIdentifier != nil { bits |= 1 << 2 }
    if fields.value.manufacturer != nil { bits |= 1 << 3 }
    if fields.value.model != nil { bits |= 1 << 4 }
    if fields.value.name != nil { bits |= 1 << 5 }
    if fields.value.softwareVersion != nil { bits |= 1 << 6 }
    return bits
  }

  /// The fields as a struct of them: its equality, hashing and coding are the device's.
  private struct Fields: Hashable, Codable, Sendable {
    let name: String?
    let manufacturer: String?
    let model: String?
    let hardwareVersion: String?
    let firmwareVersion: String?
    let softwareVersion: String?
    let localIdentifier: String?
  }

  // Coded as a struct of these fields was (the keys and their order unchanged); equality
  // and hashing are the fields'.

  public init(from decoder: any Decoder) throws { fields = try SharedFields(from: decoder) }

  public func encode(to encoder: any Encoder) throws { try fields.encode(to: encoder) }
}
