import HealthSim

/// A workout (HKWorkout).
public final class HKWorkout: HKSample, @unchecked Sendable {
  /// The kind of workout.
  public let workoutActivityType: HKWorkoutActivityType
  /// How long it lasted, in seconds.
  public let duration: TimeInterval
  /// The energy burned, if recorded.
  public let totalEnergyBurned: HKQuantity?
  /// The distance covered, if recorded.
  public let totalDistance: HKQuantity?

  /// Metadata key that keeps an activity the engine does not model.
  private static let activityKey = "HKSimulatorWorkoutActivityType"

  /// A workout from `startDate` to `endDate` (deprecated in iOS 17, still used).
  public convenience init(
    activityType: HKWorkoutActivityType, start startDate: Date, end endDate: Date
  ) {
    self.init(
      activityType: activityType, start: startDate, end: endDate,
      duration: endDate.timeIntervalSince(startDate), totalEnergyBurned: nil, totalDistance: nil,
      device: nil, metadata: nil)
  }

  /// A workout with totals and metadata (deprecated in iOS 17, still used).
  public convenience init(
    activityType: HKWorkoutActivityType, start startDate: Date, end endDate: Date,
    duration: TimeInterval, totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?,
    metadata: [String: Any]?
  ) {
    self.init(
      activityType: activityType, start: startDate, end: endDate, duration: duration,
      totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance, device: nil,
      metadata: metadata)
  }

  /// A workout with totals, device and metadata (deprecated in iOS 17, still used).
  public init(
    activityType: HKWorkoutActivityType, start startDate: Date, end endDate: Date,
    duration: TimeInterval, totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?,
    device: HKDevice?, metadata: [String: Any]?
  ) {
    precondition(endDate >= startDate, "HKWorkout: endDate is before startDate")
    workoutActivityType = activityType
    self.duration = duration
    self.totalEnergyBurned = totalEnergyBurned
    self.totalDistance = totalDistance
    let (uuid, revision) = HKSample.newIdentity()
    super.init(
      type: HKWorkoutType(), start: startDate, end: endDate, uuid: uuid, metadata: metadata,
      sourceRevision: revision, device: device)
  }

  init(simulated sample: HealthSample) {
    let details = sample.workout
    var metadata = sample.metadata
    let kept = metadata.removeValue(forKey: Self.activityKey)?.numberValue
      .flatMap { UInt(exactly: $0) }.flatMap(HKWorkoutActivityType.init(rawValue:))
    workoutActivityType =
      kept
      ?? details.flatMap {
        HKWorkoutActivityType(rawValue: UInt(truncatingIfNeeded: $0.activityType.healthKitRawValue))
      } ?? .other
    duration = details?.duration ?? sample.endDate.timeIntervalSince(sample.startDate)
    totalEnergyBurned = details?.totalEnergyBurned.map {
      HKQuantity(unit: .kilocalorie(), doubleValue: $0)
    }
    totalDistance = details?.totalDistance.map { HKQuantity(unit: .meter(), doubleValue: $0) }
    super.init(
      type: HKWorkoutType(), start: sample.startDate, end: sample.endDate,
      uuid: sample.uuid ?? UUID(), metadata: MetadataBridge.app(metadata),
      sourceRevision: sample.sourceRevision.map(HKSourceRevision.init)
        ?? HKSourceRevision(source: HKSource(.health), version: nil),
      device: sample.device.map(HKDevice.init))
  }

  override func simulatedSample() throws(HKError) -> HealthSample {
    var metadata = try MetadataBridge.simulated(self.metadata)
    let activity = workoutActivityType.simulated ?? .other
    if workoutActivityType.simulated == nil {
      metadata[Self.activityKey] = .number(Double(workoutActivityType.rawValue))
    }
    let energy = try Self.value(of: totalEnergyBurned, in: .kilocalorie(), "totalEnergyBurned")
    let distance = try Self.value(of: totalDistance, in: .meter(), "totalDistance")
    let details = WorkoutDetails(
      activityType: activity, duration: duration, totalEnergyBurned: energy,
      totalDistance: distance)
    return HealthSample(
      uuid: uuid, type: .workout, startDate: startDate, endDate: endDate, value: duration / 60,
      sourceRevision: nil, device: device?.simulated, metadata: metadata, creationDate: nil,
      workout: details)
  }

  /// A total in the engine's unit; one in a unit of another kind is an invalid argument.
  private static func value(of quantity: HKQuantity?, in unit: HKUnit, _ name: String)
    throws(HKError) -> Double?
  {
    guard let quantity else { return nil }
    guard quantity.is(compatibleWith: unit) else {
      throw HKError(
        .errorInvalidArgument,
        message: "the workout's \(name) \(quantity) is not compatible with \(unit.unitString)")
    }
    return quantity.doubleValue(for: unit)
  }
}
