/// The fields of Apple's device description
/// `<<HKDevice: 0x…>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2>`.
public struct HealthExportDevice: Hashable, Sendable {
  /// The fields in Apple's order; only non-nil fields are written.
  public var name: String?
  public var manufacturer: String?
  public var model: String?
  public var hardware: String?
  public var firmware: String?
  public var software: String?
  public var localIdentifier: String?
  public var udiDeviceIdentifier: String?

  /// A device; absent fields are left out of the description.
  public init(
    name: String? = nil, manufacturer: String? = nil, model: String? = nil,
    hardware: String? = nil, firmware: String? = nil, software: String? = nil,
    localIdentifier: String? = nil, udiDeviceIdentifier: String? = nil
  ) {
    self.name = name
    self.manufacturer = manufacturer
    self.model = model
    self.hardware = hardware
    self.firmware = firmware
    self.software = software
    self.localIdentifier = localIdentifier
    self.udiDeviceIdentifier = udiDeviceIdentifier
  }

  private static let keys = [
    "name", "manufacturer", "model", "hardware", "firmware", "software", "localIdentifier",
    "UDIDeviceIdentifier",
  ]

  private var fields: [String?] {
    [name, manufacturer, model, hardware, firmware, software, localIdentifier, udiDeviceIdentifier]
  }

  /// Apple's description with the given object address (which varies per record in real
  /// exports and identifies nothing).
  public func exportDescription(address: UInt64 = 0x2_82a4_5810) -> String {
    var text = "<<HKDevice: 0x\(String(address, radix: 16))>"
    for (key, value) in zip(Self.keys, fields) {
      if let value { text += ", \(key):\(value)" }
    }
    return text + ">"
  }

  /// Reads Apple's description; nil when it does not start with `<<HKDevice:`.
  ///
  /// Values may hold commas (`hardware:Watch2,4`), so a field ends only where `, ` is
  /// followed by a known key and a colon.
  public init?(exportDescription text: String) {
    guard text.hasPrefix("<<HKDevice:"), text.hasSuffix(">"),
      let headerEnd = text.range(of: ">")
    else { return nil }
    var rest = Substring(text[headerEnd.upperBound...].dropLast())
    self.init()
    var current: (key: String, start: Substring.Index)?
    var values: [String: String] = [:]
    var index = rest.startIndex
    func startsField(at position: Substring.Index) -> String? {
      guard rest[position...].hasPrefix(", ") else { return nil }
      let afterComma = rest.index(position, offsetBy: 2)
      for key in Self.keys where rest[afterComma...].hasPrefix(key + ":") { return key }
      return nil
    }
    while index < rest.endIndex {
      if let key = startsField(at: index) {
        if let open = current { values[open.key] = String(rest[open.start..<index]) }
        let valueStart = rest.index(index, offsetBy: 2 + key.count + 1)
        current = (key, valueStart)
        index = valueStart
      } else {
        index = rest.index(after: index)
      }
    }
    if let open = current { values[open.key] = String(rest[open.start..<rest.endIndex]) }
    rest = ""
    name = values["name"]
    manufacturer = values["manufacturer"]
    model = values["model"]
    hardware = values["hardware"]
    firmware = values["firmware"]
    software = values["software"]
    localIdentifier = values["localIdentifier"]
    udiDeviceIdentifier = values["UDIDeviceIdentifier"]
  }
}
