import Foundation

/// An immutable Health sample (HKQuantitySample, HKWorkout or HKCorrelation).
///
/// `value` is in the type's canonical unit: kg, mg/dL, count, kcal, min, m, %, count/min
/// or mmHg (a workout's value is its duration in minutes; a correlation's is 0). The store
/// sets `sourceRevision` and `creationDate` when it saves the sample, and assigns a UUID
/// from its seeded generator when `uuid` is nil.
public struct HealthSample: Hashable, Codable, Sendable {
  /// The sample's identity; `nil` only before the store saved it.
  public let uuid: UUID?
  /// The sample type.
  public let type: SampleType
  /// When the measurement starts.
  public let startDate: Date
  /// When the measurement ends; equal to `startDate` for instantaneous types.
  public let endDate: Date
  /// The value in the type's canonical unit.
  public let value: Double
  /// The writer; set by the store at save time.
  public let sourceRevision: SourceRevision?
  /// The measuring device, if any.
  public let device: HealthDevice?
  /// Metadata, including sync identifier and version.
  public let metadata: Metadata
  /// When the sample was saved; set by the store.
  public let creationDate: Date?
  /// Workout fields, for workout samples only.
  public let workout: WorkoutDetails?
  /// The samples a correlation groups (HKCorrelation.objects), for correlations only.
  /// Saving a correlation saves these with it; reading one returns those still live
  /// that the app may read.
  public let objects: [HealthSample]?

  /// A quantity sample; `end` defaults to `start`.
  public init(
    type: SampleType, value: Double, start: Date, end: Date? = nil, uuid: UUID? = nil,
    device: HealthDevice? = nil, metadata: Metadata = [:]
  ) {
    self.init(
      uuid: uuid, type: type, startDate: start, endDate: end ?? start, value: value,
      sourceRevision: nil, device: device, metadata: metadata, creationDate: nil, workout: nil)
  }

  /// A quantity sample from a value in any compatible unit, e.g. 151.2 lb of body mass.
  public init(
    type: SampleType, quantity: HealthQuantity, start: Date, end: Date? = nil,
    uuid: UUID? = nil, device: HealthDevice? = nil, metadata: Metadata = [:]
  ) throws(HealthError) {
    self.init(
      type: type, value: try quantity.doubleValue(for: type.canonicalUnit), start: start,
      end: end, uuid: uuid, device: device, metadata: metadata)
  }

  /// A workout of `details.duration` seconds starting at `start`.
  public init(
    workout details: WorkoutDetails, start: Date, end: Date? = nil, uuid: UUID? = nil,
    device: HealthDevice? = nil, metadata: Metadata = [:]
  ) {
    self.init(
      uuid: uuid, type: .workout, startDate: start,
      endDate: end ?? start.addingTimeInterval(details.duration), value: details.duration / 60,
      sourceRevision: nil, device: device, metadata: metadata, creationDate: nil,
      workout: details)
  }

  /// A correlation of `type` (blood pressure) grouping `objects` (one systolic and one
  /// diastolic sample); `end` defaults to `start`.
  public init(
    correlation type: SampleType, objects: [HealthSample], start: Date, end: Date? = nil,
    uuid: UUID? = nil, device: HealthDevice? = nil, metadata: Metadata = [:]
  ) {
    self.init(
      uuid: uuid, type: type, startDate: start, endDate: end ?? start, value: 0,
      sourceRevision: nil, device: device, metadata: metadata, creationDate: nil, workout: nil,
      objects: objects)
  }

  /// Every field, as the store builds a saved sample.
  public init(
    uuid: UUID?, type: SampleType, startDate: Date, endDate: Date, value: Double,
    sourceRevision: SourceRevision?, device: HealthDevice?, metadata: Metadata,
    creationDate: Date?, workout: WorkoutDetails?, objects: [HealthSample]? = nil
  ) {
    self.uuid = uuid
    self.type = type
    self.startDate = startDate
    self.endDate = endDate
    self.value = value
    self.sourceRevision = sourceRevision
    self.device = device
    self.metadata = metadata
    self.creationDate = creationDate
    self.workout = workout
    self.objects = objects
  }

  /// The value as a quantity in the canonical unit.
  public var quantity: HealthQuantity { HealthQuantity(value, type.canonicalUnit) }

  /// The sync identifier from metadata, if any.
  public var syncIdentifier: String? { metadata[MetadataKey.syncIdentifier]?.stringValue }

  /// The sync version from metadata, if any.
  public var syncVersion: Double? { metadata[MetadataKey.syncVersion]?.numberValue }

  /// Whether metadata marks the sample as entered by hand.
  public var wasUserEntered: Bool { metadata[MetadataKey.wasUserEntered]?.numberValue == 1 }

  /// The source that wrote the sample, once saved.
  public var source: HealthSource? { sourceRevision?.source }

  /// This sample as saved: with identity, writer and creation date, and a correlation's
  /// objects as saved.
  func saved(
    uuid: UUID, revision: SourceRevision, at date: Date, objects: [HealthSample]? = nil
  ) -> HealthSample {
    HealthSample(
      uuid: uuid, type: type, startDate: startDate, endDate: endDate, value: value,
      sourceRevision: revision, device: device, metadata: metadata, creationDate: date,
      workout: workout, objects: objects ?? self.objects)
  }

  /// This sample with other correlation objects (those an app may see).
  func with(objects: [HealthSample]?) -> HealthSample {
    HealthSample(
      uuid: uuid, type: type, startDate: startDate, endDate: endDate, value: value,
      sourceRevision: sourceRevision, device: device, metadata: metadata,
      creationDate: creationDate, workout: workout, objects: objects)
  }

  /// Whether `other` is this sample as the app created it: the same identity and content,
  /// whatever the store set at save time (writer, creation date). A correlation's objects
  /// are compared by identity, in any order.
  public func hasSameContent(as other: HealthSample) -> Bool {
    uuid == other.uuid && type == other.type && startDate == other.startDate
      && endDate == other.endDate && value == other.value && device == other.device
      && metadata == other.metadata && workout == other.workout
      && objects.map { Set($0.map(\.uuid)) } == other.objects.map { Set($0.map(\.uuid)) }
  }
}
