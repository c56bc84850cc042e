import HealthSim

/// One quantity measured over an interval (HKQuantitySample).
public class HKQuantitySample: HKSample, @unchecked Sendable {
  /// The value.
  public let quantity: HKQuantity
  /// The number of values combined in it (always 1 here).
  public var count: Int { 1 }
  /// The sample's type as a quantity type.
  // checked: init takes only HKQuantityType
  public var quantityType: HKQuantityType { sampleType as! HKQuantityType }

  /// A sample of `quantity` from `startDate` to `endDate`.
  public convenience init(
    type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date,
    end endDate: Date
  ) {
    self.init(
      type: quantityType, quantity: quantity, start: startDate, end: endDate, device: nil,
      metadata: nil)
  }

  /// A sample with metadata.
  public convenience init(
    type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date,
    end endDate: Date, metadata: [String: Any]?
  ) {
    self.init(
      type: quantityType, quantity: quantity, start: startDate, end: endDate, device: nil,
      metadata: metadata)
  }

  /// A sample with a device and metadata. A unit the type cannot hold stops the program,
  /// as HealthKit raises an exception for it.
  public init(
    type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date,
    end endDate: Date, device: HKDevice?, metadata: [String: Any]?
  ) {
    precondition(
      quantityType.accepts(quantity),
      "HKQuantitySample: \(quantity) is not compatible with \(quantityType.identifier)")
    precondition(endDate >= startDate, "HKQuantitySample: endDate is before startDate")
    self.quantity = quantity
    let (uuid, revision) = HKSample.newIdentity()
    super.init(
      type: quantityType, start: startDate, end: endDate, uuid: uuid, metadata: metadata,
      sourceRevision: revision, device: device)
  }

  init(simulated sample: HealthSample) {
    let type = HKObjectType.of(sample.type)
    quantity = HKQuantity(
      unit: HKUnit(from: sample.type.canonicalUnit.unitString), doubleValue: sample.value)
    super.init(
      type: type, start: sample.startDate, end: sample.endDate, uuid: sample.uuid ?? UUID(),
      metadata: MetadataBridge.app(sample.metadata),
      sourceRevision: sample.sourceRevision.map(HKSourceRevision.init)
        ?? HKSourceRevision(source: HKSource(.health), version: nil),
      device: sample.device.map(HKDevice.init))
  }

  override func simulatedSample() throws(HKError) -> HealthSample {
    guard let type = quantityType.simulated, let unit = quantityType.engineUnit else {
      throw HKError(
        .errorInvalidArgument,
        message: "the simulator does not store \(quantityType.identifier) samples yet")
    }
    guard quantity.is(compatibleWith: unit) else {
      throw HKError(
        .errorInvalidArgument,
        message: "\(quantity) is not compatible with \(quantityType.identifier)")
    }
    let value = quantity.doubleValue(for: unit)
    return HealthSample(
      uuid: uuid, type: type, startDate: startDate, endDate: endDate, value: value,
      sourceRevision: nil, device: device?.simulated,
      metadata: try MetadataBridge.simulated(metadata), creationDate: nil, workout: nil)
  }

  override public var description: String {
    "\(uuid.uuidString) \(quantity) \"\(sourceRevision.source.name)\" (\(startDate) - \(endDate))"
  }
}
