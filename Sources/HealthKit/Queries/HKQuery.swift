import HealthSim

/// A query the app executes on a store (HKQuery). Each query runs once; `stop` silences it.
public class HKQuery: NSObject, @unchecked Sendable {
  /// The type the query reads.
  public let objectType: HKObjectType?
  /// The predicate, as the app gave it.
  public let predicate: NSPredicate?

  /// The types and predicates of a query made from descriptors (then `objectType` is nil).
  var queryDescriptors: [HKQueryDescriptor]?
  /// The engine's queries, once executed: one, or one per descriptor.
  var engineQueries: [HealthQuery] = []
  /// The device it was executed on.
  var executedOn: SimulatedDevice?
  /// Whether `execute` was called; a query runs only once.
  private var wasExecuted = false

  init(objectType: HKObjectType?, predicate: NSPredicate?) {
    self.objectType = objectType
    self.predicate = predicate
  }

  /// The sample type the query reads.
  public var sampleType: HKSampleType? { objectType as? HKSampleType }

  /// Builds the engine query; it reports errors through the app's handler.
  func makeEngineQuery(type: SampleType, predicate: SamplePredicate?) -> HealthQuery? { nil }

  /// Reports an error through the app's handler without running anything.
  func fail(_ error: HKError) {}

  /// Whether the query keeps calling a handler after its first results.
  var isLongRunning: Bool { false }

  /// Called once every engine query has run its first results.
  func didStart() {}
}

// MARK: Predicates

extension HKQuery {
  /// Samples in an interval: with no options, those that overlap it.
  public class func predicateForSamples(
    withStart startDate: Date?, end endDate: Date?, options: HKQueryOptions = []
  ) -> NSPredicate {
    HKPredicate(
      direct: SamplePredicate(startDate: startDate, endDate: endDate, options: options.simulated))
  }

  /// The objects with the given UUIDs.
  public class func predicateForObjects(with uuids: Set<UUID>) -> NSPredicate {
    HKPredicate(direct: SamplePredicate(uuids: uuids))
  }

  /// The object with a UUID.
  public class func predicateForObject(with uuid: UUID) -> NSPredicate {
    HKPredicate(direct: SamplePredicate(uuids: [uuid]))
  }

  /// The objects written by a source.
  public class func predicateForObjects(from source: HKSource) -> NSPredicate {
    HKPredicate(direct: SamplePredicate(sourceBundleIdentifiers: [source.bundleIdentifier]))
  }

  /// The objects written by any of some sources.
  public class func predicateForObjects(from sources: Set<HKSource>) -> NSPredicate {
    HKPredicate(
      direct: SamplePredicate(sourceBundleIdentifiers: Set(sources.map(\.bundleIdentifier))))
  }

  /// The objects measured by any of some devices.
  public class func predicateForObjects(from devices: Set<HKDevice>) -> NSPredicate {
    let wanted = Set(devices.map(\.simulated))
    return HKPredicate(
      sample: { sample in sample.device.map { wanted.contains($0) } ?? false },
      deletion: { _ in false })
  }

  /// The objects whose metadata has a key.
  public class func predicateForObjects(withMetadataKey key: String) -> NSPredicate {
    HKPredicate(
      sample: { $0.metadata[key] != nil },
      deletion: { MetadataMatch.deletionValue(key, $0) != nil })
  }

  /// The objects whose metadata value for a key is one of some values.
  public class func predicateForObjects(withMetadataKey key: String, allowedValues: [Any])
    -> NSPredicate
  {
    let allowed = allowedValues.compactMap(MetadataMatch.value)
    return HKPredicate(
      sample: { sample in sample.metadata[key].map { allowed.contains($0) } ?? false },
      deletion: { record in
        MetadataMatch.deletionValue(key, record).map { allowed.contains($0) } ?? false
      })
  }

  /// The objects whose metadata value for a key compares with `value` as asked.
  public class func predicateForObjects(
    withMetadataKey key: String, operatorType: NSComparisonPredicate.Operator, value: Any
  ) -> NSPredicate {
    let target = MetadataMatch.value(value)
    return HKPredicate(
      sample: { MetadataMatch.compare($0.metadata[key], operatorType, target) },
      deletion: {
        MetadataMatch.compare(MetadataMatch.deletionValue(key, $0), operatorType, target)
      })
  }

  /// The quantity samples whose value compares with `quantity` as asked.
  public class func predicateForQuantitySamples(
    with operatorType: NSComparisonPredicate.Operator, quantity: HKQuantity
  ) -> NSPredicate {
    let box = UncheckedQuantity(quantity: quantity)
    return HKPredicate(
      sample: { sample in
        let unit = HKUnit(from: sample.type.canonicalUnit.unitString)
        guard box.quantity.is(compatibleWith: unit) else { return false }
        let target = box.quantity.doubleValue(for: unit)
        return MetadataMatch.compare(.number(sample.value), operatorType, .number(target))
      },
      deletion: { _ in false })
  }

  /// The workouts of an activity type.
  public class func predicateForWorkouts(with workoutActivityType: HKWorkoutActivityType)
    -> NSPredicate
  {
    HKPredicate(
      sample: { sample in
        guard sample.type == .workout else { return false }
        return HKWorkout(simulated: sample).workoutActivityType == workoutActivityType
      },
      deletion: { _ in false })
  }
}

/// Quantities are immutable; the box only tells the compiler so.
private struct UncheckedQuantity: @unchecked Sendable {
  let quantity: HKQuantity
}

/// Metadata comparisons as HealthKit's metadata predicates make them.
enum MetadataMatch {
  static func value(_ any: Any) -> MetadataValue? {
    switch any {
    case let bool as Bool: return .bool(bool)
    case let text as String: return .string(text)
    case let date as Date: return .date(date)
    case let number as Int: return .number(Double(number))
    case let number as Double: return .number(number)
    case let number as NSNumber: return .number(number.doubleValue)
    default: return nil
    }
  }

  static func deletionValue(_ key: String, _ record: DeletedObjectRecord) -> MetadataValue? {
    if key == MetadataKey.syncIdentifier { return record.syncIdentifier.map(MetadataValue.string) }
    if key == MetadataKey.syncVersion { return record.syncVersion.map(MetadataValue.number) }
    return nil
  }

  static func compare(
    _ value: MetadataValue?, _ operation: NSComparisonPredicate.Operator, _ target: MetadataValue?
  ) -> Bool {
    guard let value, let target else { return false }
    let order: ComparisonResult?
    switch (value, target) {
    case (.string(let a), .string(let b)):
      order = a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending
    case (.date(let a), .date(let b)):
      order = a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending
    default:
      guard let a = value.numberValue, let b = target.numberValue else { return false }
      order = a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending
    }
    guard let order else { return false }
    switch operation {
    case .lessThan: return order == .orderedAscending
    case .lessThanOrEqualTo: return order != .orderedDescending
    case .greaterThan: return order == .orderedDescending
    case .greaterThanOrEqualTo: return order != .orderedAscending
    case .equalTo: return order == .orderedSame
    case .notEqualTo: return order != .orderedSame
    default: return false
    }
  }
}

// MARK: Running

extension HKQuery {
  /// Executes the query on a store's device; errors go to the app's handler, as
  /// HealthKit reports them.
  func execute(on store: HKHealthStore) {
    let device = store.device
    // HealthKit raises for a second execute; here the handler hears of it instead.
    let isFirst = device.mutex.withLock {
      defer { wasExecuted = true }
      return !wasExecuted
    }
    guard isFirst else {
      fail(HKError(.errorInvalidArgument, message: "a query runs only once; create a new query"))
      return
    }
    guard device.call({ $0.isHealthDataAvailable() }) else {
      fail(HKError(.errorHealthDataUnavailable, message: "health data is not available"))
      return
    }
    let targets =
      queryDescriptors?.map { ($0.sampleType as HKObjectType, $0.predicate) }
      ?? objectType.map { [($0, predicate)] } ?? []
    var queries: [HealthQuery] = []
    for (objectType, predicate) in targets {
      guard let type = objectType.simulated else {
        fail(
          HKError(
            .errorInvalidArgument,
            message: "the simulator does not store \(objectType.identifier) yet"))
        return
      }
      guard let query = makeEngineQuery(type: type, predicate: PredicateBridge.simulated(predicate))
      else { return }
      queries.append(query)
    }
    guard !queries.isEmpty else {
      fail(HKError(.errorInvalidArgument, message: "the query names no type; give one"))
      return
    }
    engineQueries = queries
    executedOn = device
    do {
      try device.call { engine throws(HealthError) in
        for query in queries { try engine.execute(query) }
      }
    } catch {
      device.call { engine in for query in queries { engine.stop(query) } }
      fail(HKError(error))
      return
    }
    didStart()
    if isLongRunning { for query in queries { device.noteRunning(query) } }
  }
}
