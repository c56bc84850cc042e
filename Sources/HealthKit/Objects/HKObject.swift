import HealthSim

/// Something HealthKit stores (HKObject). Its UUID is assigned when it is created, as on a
/// device, so saving it twice is one sample and deleting it right after saving finds it.
public class HKObject: NSObject, @unchecked Sendable {
  /// The object's identity.
  public let uuid: UUID
  /// The app's metadata; numbers come back as NSNumber.
  public let metadata: [String: Any]?
  /// The app and version that wrote it: the running app until it is saved.
  public let sourceRevision: HKSourceRevision
  /// The device that measured it, if any.
  public let device: HKDevice?
  /// The source that wrote it (deprecated in favour of `sourceRevision`).
  public var source: HKSource { sourceRevision.source }

  init(uuid: UUID, metadata: [String: Any]?, sourceRevision: HKSourceRevision, device: HKDevice?) {
    self.uuid = uuid
    self.metadata = metadata
    self.sourceRevision = sourceRevision
    self.device = device
  }

  override public func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? HKObject else { return false }
    return other.uuid == uuid
  }

  override public var hash: Int { uuid.hashValue }
}

/// Something with a type, a start and an end (HKSample).
public class HKSample: HKObject, @unchecked Sendable {
  /// The sample's type.
  public let sampleType: HKSampleType
  /// When it starts.
  public let startDate: Date
  /// When it ends.
  public let endDate: Date
  /// Whether the end is not known yet (never, in the simulator).
  public var hasUndeterminedDuration: Bool { false }

  init(
    type: HKSampleType, start: Date, end: Date, uuid: UUID, metadata: [String: Any]?,
    sourceRevision: HKSourceRevision, device: HKDevice?
  ) {
    sampleType = type
    startDate = start
    endDate = end
    super.init(uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
  }

  /// The engine's sample for this object, as an app saves it.
  func simulatedSample() throws(HKError) -> HealthSample {
    throw HKError(
      .errorInvalidArgument,
      message: "the simulator does not store \(sampleType.identifier) samples yet")
  }

  /// The app's object for an engine sample.
  static func from(_ sample: HealthSample) -> HKSample {
    if sample.type == .workout { return HKWorkout(simulated: sample) }
    if sample.type.isCorrelation { return HKCorrelation(simulated: sample) }
    return HKQuantitySample(simulated: sample)
  }

  /// The writer of an engine sample; the Health app when the engine has none.
  static func revision(of sample: HealthSample) -> HKSourceRevision {
    sample.sourceRevision.map(HKSourceRevision.init)
      ?? HKSourceRevision(source: HKSource(.health), version: nil)
  }

  /// The fields a new object takes from the running app: a fresh UUID and its revision.
  static func newIdentity() -> (UUID, HKSourceRevision) {
    let device = SimulatedDevice.current
    return (device.makeUUID(), HKSourceRevision(device.app))
  }
}

/// A deleted sample as an anchored query reports it (HKDeletedObject).
public final class HKDeletedObject: NSObject, @unchecked Sendable {
  /// The deleted sample's UUID.
  public let uuid: UUID
  /// Only the sync identifier and version survive deletion.
  public let metadata: [String: Any]?

  init(_ deleted: DeletedObject) {
    uuid = deleted.uuid
    metadata = MetadataBridge.app(deleted.metadata)
  }

  override public func isEqual(_ object: Any?) -> Bool {
    (object as? HKDeletedObject)?.uuid == uuid
  }

  override public var hash: Int { uuid.hashValue }
}
