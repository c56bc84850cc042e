import HealthSim

/// One `MetadataEntry` of an Apple Health export: a key and its stringified value.
public struct HealthExportMetadataEntry: Hashable, Sendable {
  /// The key, e.g. `HKWasUserEntered` or a third party's `Withings User Identifier`.
  public var key: String
  /// The value as Apple wrote it (`1`, `56 degF`, `2016-04-18 15:56:05 +0000`).
  public var value: String

  /// A metadata entry.
  public init(key: String, value: String) {
    self.key = key
    self.value = value
  }
}

/// One `Record` of an Apple Health export, in plain values that the app maps to and from
/// its Health samples.
public struct HealthExportRecord: Hashable, Sendable {
  /// The full type identifier, e.g. `HKQuantityTypeIdentifierBodyMass`.
  public var type: String
  /// The app or device that wrote the sample.
  public var sourceName: String
  /// Its version; absent on old manual entries.
  public var sourceVersion: String?
  /// The device in Apple's `<<HKDevice: 0x…>, name:…>` form (see `HealthExportDevice`).
  public var device: String?
  /// The unit as written (`kg`, `lb`, `count/min`); absent for category samples.
  public var unit: String?
  /// When the sample was saved.
  public var creationDate: HealthExportDate?
  /// When the measured period starts.
  public var startDate: HealthExportDate
  /// When the measured period ends.
  public var endDate: HealthExportDate
  /// The value as written: a number for quantities, a case name for categories.
  public var value: String?
  /// The `MetadataEntry` children, in file order.
  public var metadata: [HealthExportMetadataEntry]
  /// Whether the reader repaired the element: attributes whose names hold spaces (a defect of
  /// 2015 exports), kept in `metadata`.
  public var repairedAttributes = false
  /// The device, read from the attribute's bytes, when the reader was asked to read devices
  /// so (`AppleHealthExportParser.init(recordTypes:resolvingDevices:handler:)`); `device` is
  /// then nil.
  public internal(set) var resolvedDevice: HealthDevice?

  /// A record; the attributes Apple marks optional default to absent.
  public init(
    type: String, sourceName: String, sourceVersion: String? = nil, device: String? = nil,
    unit: String? = nil, creationDate: HealthExportDate? = nil, startDate: HealthExportDate,
    endDate: HealthExportDate, value: String? = nil, metadata: [HealthExportMetadataEntry] = []
  ) {
    self.init(
      type: type, sourceName: sourceName, sourceVersion: sourceVersion, device: device,
      unit: unit, creationDate: creationDate, startDate: startDate, endDate: endDate,
      value: value, metadata: metadata, repairedAttributes: false, resolvedDevice: nil)
  }

  /// A record with every field given, as the reader makes it.
  init(
    type: String, sourceName: String, sourceVersion: String?, device: String?, unit: String?,
    creationDate: HealthExportDate?, startDate: HealthExportDate, endDate: HealthExportDate,
    value: String?, metadata: [HealthExportMetadataEntry], repairedAttributes: Bool,
    resolvedDevice: HealthDevice?
  ) {
    self.type = type
    self.sourceName = sourceName
    self.sourceVersion = sourceVersion
    self.device = device
    self.unit = unit
    self.creationDate = creationDate
    self.startDate = startDate
    self.endDate = endDate
    self.value = value
    self.metadata = metadata
    self.repairedAttributes = repairedAttributes
    self.resolvedDevice = resolvedDevice
  }

  /// The value as a number, when it is one.
  public var numericValue: Double? { value.flatMap { DecimalText.parseJSONNumber($0) } }
}

/// The body-mass type identifier, matched whole (`…BodyMassIndex` is a different type).
public let healthBodyMassType = "HKQuantityTypeIdentifierBodyMass"

/// The identifier that selects workouts in a record-type filter (`HKWorkoutTypeIdentifier`).
public let healthWorkoutType = "HKWorkoutTypeIdentifier"
