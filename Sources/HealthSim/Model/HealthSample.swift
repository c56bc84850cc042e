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
  private let fields: SharedFields<Fields>

  /// The sample's identity; `nil` only before the store saved it.
  public var uuid: UUID? { fields.value.uuid }
  /// The sample type.
  public var type: SampleType { fields.value.type }
  /// When the measurement starts.
  public var startDate: Date { fields.value.startDate }
  /// When the measurement ends; equal to `startDate` for instantaneous types.
  public var endDate: Date { fields.value.endDate }
  /// The value in the type's canonical unit.
  public var value: Double { fields.value.value }
  /// The writer; set by the store at save time.
  public var sourceRevision: SourceRevision? { fields.value.sourceRevision }
  /// The measuring device, if any.
  public var device: HealthDevice? { fields.value.device }
  /// Metadata, including sync identifier and version.
  public var metadata: Metadata { fields.value.metadata }
  /// When the sample was saved; set by the store.
  public var creationDate: Date? { fields.value.creationDate }
  /// Workout fields, for workout samples only.
  public var workout: WorkoutDetails? { fields.value.workout }
  /// The samples a correlation groups (HKCorrelation.objects), for correlations only.
  /// Saving a correlation saves these with it; reading one returns those still live
  /// that the app may read.
  public var objects: [HealthSample]? { fields.value.objects }
  /// Whether the sample has metadata, a workout or objects, asked where they stand: each of
  /// those getters returns a copy (a workout's is 100 instructions), and a store's writer
  /// asks this of every row (docs/performance.md, hrow15).
  ///
  /// Matched where they stand, not compared with nil: `workout != nil` copied the optional
  /// workout (its arrays and texts retained and released) for every row, 200 instructions
  /// a call (docs/performance.md, hrow16).
  public var hasNestedParts: Bool {
    if !fields.value.metadata.isEmpty { return true }
    if case .some = fields.value.workout { return true }
    if case .some = fields.value.objects { return true }
    return false
  }
  /// Whether `objects` is there, without its copy (a store's write asks it three times a
  /// sample saved: 280 instructions of copies; docs/performance.md, hrow15).
  var hasObjects: Bool { fields.value.objects != nil }

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
    fields = SharedFields(
      Fields(
        uuid: uuid, type: type, startDate: startDate, endDate: endDate, value: value,
        sourceRevision: sourceRevision, device: device, metadata: metadata,
        creationDate: creationDate, workout: workout, objects: objects))
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
  /// The fields as a struct of them: its equality, hashing and coding are the sample's (the
  /// coded form is what health.sqlite and the state document hold).
  private struct Fields: Hashable, Codable, Sendable {
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
  }

  // Coded as a struct of these fields was (the keys and their order unchanged); equality
  // and hashing are the fields'.

  public init(from decoder: any Decoder) throws { fields = try SharedFields(from: decoder) }

  public func encode(to encoder: any Encoder) throws { try fields.encode(to: encoder) }
}
