import Foundation

/// An immutable Health sample (HKQuantitySample, HKWorkout or HKCorrelation).
///
/// `value` is in the type's canonical unit: kg, mg/dL, count, kcal, min, m, %, count/min
/// or mmHg (a workout's value is its duration in minutes; a correlation's is 0). The store
/// sets `sourceRevision` and `creationDate` when it saves the sample, and assigns a UUID
/// from its seeded generator when `uuid` is nil.
public struct HealthSample: Hashable, Codable, Sendable {
  /// The fields, shared by every copy: a sample is never changed in place, and a copy of
  /// the fields themselves (344 bytes, about 17 references retained) was a third of the
  /// all-types import's saving thread, where each sample is copied on its way from the
  /// export's parser to the storage (docs/performance.md, "hmodel12").
  private let fields: Fields

  /// The sample's identity; `nil` only before the store saved it.
  public var uuid: UUID? { fields.uuid }
  /// The sample type.
  public var type: SampleType { fields.type }
  /// When the measurement starts.
  public var startDate: Date { fields.startDate }
  /// When the measurement ends; equal to `startDate` for instantaneous types.
  public var endDate: Date { fields.endDate }
  /// The value in the type's canonical unit.
  public var value: Double { fields.value }
  /// The writer; set by the store at save time.
  public var sourceRevision: SourceRevision? { fields.sourceRevision }
  /// The measuring device, if any.
  public var device: HealthDevice? { fields.device }
  /// Metadata, including sync identifier and version.
  public var metadata: Metadata { fields.metadata }
  /// When the sample was saved; set by the store.
  public var creationDate: Date? { fields.creationDate }
  /// Workout fields, for workout samples only.
  public var workout: WorkoutDetails? { fields.workout }
  /// The samples a correlation groups (HKCorrelation.objects), for correlations only.
  /// Saving a correlation saves these with it; reading one returns those still live
  /// that the app may read.
  public var objects: [HealthSample]? { fields.objects }

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
    fields = Fields(
      uuid: uuid, type: type, startDate: startDate, endDate: endDate, value: value,
      sourceRevision: sourceRevision, device: device, metadata: metadata,
      creationDate: creationDate, workout: workout, objects: objects)
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

extension HealthSample {
  /// The fields of a sample, once: copies of the sample share them.
  private final class Fields: Sendable {
    let uuid: UUID?
    let type: SampleType
    let startDate: Date
    let endDate: Date
    let value: Double
    let sourceRevision: SourceRevision?
    let device: HealthDevice?
    let metadata: Metadata
    let creationDate: Date?
    let workout: WorkoutDetails?
    let objects: [HealthSample]?

    init(
      uuid: UUID?, type: SampleType, startDate: Date, endDate: Date, value: Double,
      sourceRevision: SourceRevision?, device: HealthDevice?, metadata: Metadata,
      creationDate: Date?, workout: WorkoutDetails?, objects: [HealthSample]?
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
  }

  // Equality, hashing and coding as a struct of these fields had them (the coded form is
  // what health.sqlite and the state document hold: the keys and their order unchanged).

  public static func == (lhs: HealthSample, rhs: HealthSample) -> Bool {
    if lhs.fields === rhs.fields { return true }
    let (l, r) = (lhs.fields, rhs.fields)
    return l.uuid == r.uuid && l.type == r.type && l.startDate == r.startDate
      && l.endDate == r.endDate && l.value == r.value && l.sourceRevision == r.sourceRevision
      && l.device == r.device && l.metadata == r.metadata && l.creationDate == r.creationDate
      && l.workout == r.workout && l.objects == r.objects
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(uuid)
    hasher.combine(type)
    hasher.combine(startDate)
    hasher.combine(endDate)
    hasher.combine(value)
    hasher.combine(sourceRevision)
    hasher.combine(device)
    hasher.combine(metadata)
    hasher.combine(creationDate)
    hasher.combine(workout)
    hasher.combine(objects)
  }

  private enum CodingKeys: String, CodingKey {
    case uuid, type, startDate, endDate, value, sourceRevision, device, metadata, creationDate
    case workout, objects
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      uuid: try container.decodeIfPresent(UUID.self, forKey: .uuid),
      type: try container.decode(SampleType.self, forKey: .type),
      startDate: try container.decode(Date.self, forKey: .startDate),
      endDate: try container.decode(Date.self, forKey: .endDate),
      value: try container.decode(Double.self, forKey: .value),
      sourceRevision: try container.decodeIfPresent(SourceRevision.self, forKey: .sourceRevision),
      device: try container.decodeIfPresent(HealthDevice.self, forKey: .device),
      metadata: try container.decode(Metadata.self, forKey: .metadata),
      creationDate: try container.decodeIfPresent(Date.self, forKey: .creationDate),
      workout: try container.decodeIfPresent(WorkoutDetails.self, forKey: .workout),
      objects: try container.decodeIfPresent([HealthSample].self, forKey: .objects))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(uuid, forKey: .uuid)
    try container.encode(type, forKey: .type)
    try container.encode(startDate, forKey: .startDate)
    try container.encode(endDate, forKey: .endDate)
    try container.encode(value, forKey: .value)
    try container.encodeIfPresent(sourceRevision, forKey: .sourceRevision)
    try container.encodeIfPresent(device, forKey: .device)
    try container.encode(metadata, forKey: .metadata)
    try container.encodeIfPresent(creationDate, forKey: .creationDate)
    try container.encodeIfPresent(workout, forKey: .workout)
    try container.encodeIfPresent(objects, forKey: .objects)
  }
}
