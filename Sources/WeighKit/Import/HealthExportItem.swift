/// An attribute of an element read as a whole (`Me`, `ActivitySummary`), in file order.
public struct HealthExportAttribute: Hashable, Sendable {
  /// The attribute name.
  public var name: String
  /// The attribute value, entities decoded.
  public var value: String

  /// An attribute.
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}

extension Array where Element == HealthExportAttribute {
  /// The value of the first attribute called `name`.
  public subscript(attribute name: String) -> String? {
    first { $0.name == name }?.value
  }
}

/// A `Correlation` (blood pressure, food): its own fields; its child records are skipped
/// because Apple repeats them as top-level records.
public struct HealthExportCorrelation: Hashable, Sendable {
  /// e.g. `HKCorrelationTypeIdentifierBloodPressure`.
  public var type: String
  /// The app or device that wrote it.
  public var sourceName: String
  public var sourceVersion: String?
  public var device: String?
  public var creationDate: HealthExportDate?
  public var startDate: HealthExportDate
  public var endDate: HealthExportDate
  /// Attributes Apple does not define, then its `MetadataEntry` children.
  public var metadata: [HealthExportMetadataEntry]
  /// Whether the reader repaired the element: attributes whose names hold spaces (a defect of
  /// 2015 exports), kept in `metadata`.
  public var repairedAttributes = false
  /// How many child `Record`s were skipped as duplicates of top-level records.
  public var skippedRecords: Int

  /// A correlation.
  public init(
    type: String, sourceName: String, sourceVersion: String? = nil, device: String? = nil,
    creationDate: HealthExportDate? = nil, startDate: HealthExportDate,
    endDate: HealthExportDate, metadata: [HealthExportMetadataEntry] = [], skippedRecords: Int = 0
  ) {
    self.type = type
    self.sourceName = sourceName
    self.sourceVersion = sourceVersion
    self.device = device
    self.creationDate = creationDate
    self.startDate = startDate
    self.endDate = endDate
    self.metadata = metadata
    self.skippedRecords = skippedRecords
  }
}

/// One thing read from an Apple Health export, handed to the caller as soon as it is complete.
public enum HealthExportItem: Hashable, Sendable {
  /// The root `HealthData` element and its `locale`.
  case healthData(locale: String?)
  /// `ExportDate value=…`, as written.
  case exportDate(String)
  /// `Me`: date of birth, biological sex, blood type, skin type, …
  case me([HealthExportAttribute])
  /// A top-level `Record`.
  case record(HealthExportRecord)
  /// A `Workout` with its events and statistics.
  case workout(HealthExportWorkout)
  /// A `Correlation`, without its repeated child records.
  case correlation(HealthExportCorrelation)
  /// An `ActivitySummary`; iOS 14 renamed `appleMoveMinutes` to `appleMoveTime`, so both
  /// spellings are passed through as written.
  case activitySummary([HealthExportAttribute])
  /// A well-formed element whose required attributes are missing or malformed.
  case invalid(ImportRejection)
}
