import HealthSim

/// Samples recorded together, such as a blood pressure reading (HKCorrelation). Saving a
/// correlation saves its objects with it.
public final class HKCorrelation: HKSample, @unchecked Sendable {
  /// The samples it groups.
  public let objects: Set<HKSample>
  /// The correlation's type.
  public var correlationType: HKCorrelationType {
    sampleType as? HKCorrelationType
      ?? HKCorrelationType(HKCorrelationTypeIdentifier(sampleType.identifier))
  }

  /// A correlation of `objects` from `startDate` to `endDate`.
  public convenience init(
    type correlationType: HKCorrelationType, start startDate: Date, end endDate: Date,
    objects: Set<HKSample>
  ) {
    self.init(
      type: correlationType, start: startDate, end: endDate, objects: objects, device: nil,
      metadata: nil)
  }

  /// A correlation with metadata.
  public convenience init(
    type correlationType: HKCorrelationType, start startDate: Date, end endDate: Date,
    objects: Set<HKSample>, metadata: [String: Any]?
  ) {
    self.init(
      type: correlationType, start: startDate, end: endDate, objects: objects, device: nil,
      metadata: metadata)
  }

  /// A correlation with a device and metadata.
  public init(
    type correlationType: HKCorrelationType, start startDate: Date, end endDate: Date,
    objects: Set<HKSample>, device: HKDevice?, metadata: [String: Any]?
  ) {
    precondition(endDate >= startDate, "HKCorrelation: endDate is before startDate")
    self.objects = objects
    let (uuid, revision) = HKSample.newIdentity()
    super.init(
      type: correlationType, start: startDate, end: endDate, uuid: uuid, metadata: metadata,
      sourceRevision: revision, device: device)
  }

  init(simulated sample: HealthSample) {
    objects = Set((sample.objects ?? []).map(HKSample.from))
    super.init(
      type: HKObjectType.of(sample.type), start: sample.startDate, end: sample.endDate,
      uuid: sample.uuid ?? UUID(), metadata: MetadataBridge.app(sample.metadata),
      sourceRevision: HKSample.revision(of: sample),
      device: sample.device.map(HKDevice.init))
  }

  /// The objects of one type.
  public func objects(for objectType: HKObjectType) -> Set<HKSample> {
    objects.filter { $0.sampleType == objectType }
  }

  override func simulatedSample() throws(HKError) -> HealthSample {
    guard let type = correlationType.simulated else {
      throw HKError(
        .errorInvalidArgument,
        message: "the simulator does not store \(correlationType.identifier) correlations yet")
    }
    var members: [HealthSample] = []
    for object in objects.sorted(by: { $0.uuid.uuidString < $1.uuid.uuidString }) {
      members.append(try object.simulatedSample())
    }
    return HealthSample(
      correlation: type, objects: members, start: startDate, end: endDate, uuid: uuid,
      device: device?.simulated, metadata: try MetadataBridge.simulated(metadata))
  }
}
