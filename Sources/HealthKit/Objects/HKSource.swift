import HealthSim

/// An app or device that writes Health data (HKSource).
public final class HKSource: NSObject, NSCopying, @unchecked Sendable {
  /// The source's name as Health shows it.
  public let name: String
  /// The app's bundle identifier.
  public let bundleIdentifier: String

  init(_ source: HealthSource) {
    name = source.name
    bundleIdentifier = source.bundleIdentifier
  }

  /// The source of the running app: the app of the current simulated device.
  public class func `default`() -> HKSource { HKSource(SimulatedDevice.current.app.source) }

  var simulated: HealthSource { HealthSource(name: name, bundleIdentifier: bundleIdentifier) }

  override public func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? HKSource else { return false }
    return other.bundleIdentifier == bundleIdentifier && other.name == name
  }

  override public var hash: Int { bundleIdentifier.hashValue }
  override public var description: String { "\(name) (\(bundleIdentifier))" }
  public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// A source at a version (HKSourceRevision).
public final class HKSourceRevision: NSObject, NSCopying, @unchecked Sendable {
  /// The source.
  public let source: HKSource
  /// The app's version, if known.
  public let version: String?
  /// The device model, e.g. `iPhone15,2`, if known.
  public let productType: String?
  /// The operating system's version.
  public let operatingSystemVersion: OperatingSystemVersion

  /// A revision; the operating system version is unknown (0.0.0).
  public convenience init(source: HKSource, version: String?) {
    self.init(
      source: source, version: version, productType: nil,
      operatingSystemVersion: OperatingSystemVersion(
        majorVersion: 0, minorVersion: 0, patchVersion: 0))
  }

  /// A revision with every field.
  public init(
    source: HKSource, version: String?, productType: String?,
    operatingSystemVersion: OperatingSystemVersion
  ) {
    self.source = source
    self.version = version
    self.productType = productType
    self.operatingSystemVersion = operatingSystemVersion
  }

  convenience init(_ revision: SourceRevision) {
    // checked: parses text; a part that is not a number is 0
    let parts = (revision.operatingSystemVersion ?? "").split(separator: ".").map { Int($0) ?? 0 }
    let version = OperatingSystemVersion(
      majorVersion: parts.count > 0 ? parts[0] : 0, minorVersion: parts.count > 1 ? parts[1] : 0,
      patchVersion: parts.count > 2 ? parts[2] : 0)
    self.init(
      source: HKSource(revision.source), version: revision.version,
      productType: revision.productType, operatingSystemVersion: version)
  }

  var simulated: SourceRevision {
    let os = operatingSystemVersion
    let osText =
      os.majorVersion == 0 && os.minorVersion == 0 && os.patchVersion == 0
      ? nil : "\(os.majorVersion).\(os.minorVersion).\(os.patchVersion)"
    return SourceRevision(
      source: source.simulated, version: version, productType: productType,
      operatingSystemVersion: osText)
  }

  override public func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? HKSourceRevision else { return false }
    return other.source == source && other.version == version
      && other.productType == productType
  }

  override public var hash: Int { source.hash }
  public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// The hardware that took a measurement (HKDevice).
public final class HKDevice: NSObject, NSCopying, @unchecked Sendable {
  /// The name of the device.
  public let name: String?
  /// The device's manufacturer.
  public let manufacturer: String?
  /// The device's model.
  public let model: String?
  /// The device's hardware revision.
  public let hardwareVersion: String?
  /// The device's firmware version.
  public let firmwareVersion: String?
  /// The device's software version.
  public let softwareVersion: String?
  /// A local identifier for the device.
  public let localIdentifier: String?
  /// The device's FDA unique device identifier; the simulator does not store it.
  public let udiDeviceIdentifier: String?

  /// A device; every field optional.
  public init(
    name: String?, manufacturer: String?, model: String?, hardwareVersion: String?,
    firmwareVersion: String?, softwareVersion: String?, localIdentifier: String?,
    udiDeviceIdentifier: String?
  ) {
    self.name = name
    self.manufacturer = manufacturer
    self.model = model
    self.hardwareVersion = hardwareVersion
    self.firmwareVersion = firmwareVersion
    self.softwareVersion = softwareVersion
    self.localIdentifier = localIdentifier
    self.udiDeviceIdentifier = udiDeviceIdentifier
  }

  convenience init(_ device: HealthDevice) {
    self.init(
      name: device.name, manufacturer: device.manufacturer, model: device.model,
      hardwareVersion: device.hardwareVersion, firmwareVersion: device.firmwareVersion,
      softwareVersion: device.softwareVersion, localIdentifier: device.localIdentifier,
      udiDeviceIdentifier: nil)
  }

  /// The device the app runs on.
  public class func local() -> HKDevice {
    HKDevice(
      name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardwareVersion: nil,
      firmwareVersion: nil, softwareVersion: nil, localIdentifier: nil, udiDeviceIdentifier: nil)
  }

  var simulated: HealthDevice {
    HealthDevice(
      name: name, manufacturer: manufacturer, model: model, hardwareVersion: hardwareVersion,
      firmwareVersion: firmwareVersion, softwareVersion: softwareVersion,
      localIdentifier: localIdentifier)
  }

  override public func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? HKDevice else { return false }
    return other.simulated == simulated && other.udiDeviceIdentifier == udiDeviceIdentifier
  }

  override public var hash: Int { simulated.hashValue }
  public func copy(with zone: NSZone? = nil) -> Any { self }
}
