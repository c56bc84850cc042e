import HealthSim

extension HKHealthStore {
  /// Lets Health wake the app in the background when samples of a type change.
  public func enableBackgroundDelivery(
    for type: HKObjectType, frequency: HKUpdateFrequency,
    withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    report(completion) { () throws(HKError) in try enableDelivery(type, frequency) }
  }

  /// Lets Health wake the app in the background when samples of a type change.
  public func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency)
    async throws
  {
    try enableDelivery(type, frequency)
  }

  /// Stops background delivery of a type.
  public func disableBackgroundDelivery(
    for type: HKObjectType,
    withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    report(completion) { () throws(HKError) in try disableDelivery(type) }
  }

  /// Stops background delivery of a type.
  public func disableBackgroundDelivery(for type: HKObjectType) async throws {
    try disableDelivery(type)
  }

  /// Stops background delivery of every type.
  public func disableAllBackgroundDelivery(
    completion: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    report(completion) { () throws(HKError) in
      try perform { engine throws(HealthError) in try engine.disableAllBackgroundDelivery() }
    }
  }

  /// Stops background delivery of every type.
  public func disableAllBackgroundDelivery() async throws {
    try perform { engine throws(HealthError) in try engine.disableAllBackgroundDelivery() }
  }

  /// Runs a query; its handlers receive the results, or an error.
  public func execute(_ query: HKQuery) {
    query.execute(on: self)
  }

  /// Stops a query; it calls no handler again.
  public func stop(_ query: HKQuery) {
    let queries = query.engineQueries
    guard !queries.isEmpty else { return }
    (query.executedOn ?? device).call { engine in for query in queries { engine.stop(query) } }
  }

  /// The units the user prefers for types: the simulator's are the metric ones.
  public func preferredUnits(
    for quantityTypes: Set<HKQuantityType>,
    completion: @escaping @Sendable ([HKQuantityType: HKUnit], (any Error)?) -> Void
  ) {
    completion(preferred(quantityTypes), nil)
  }

  /// The units the user prefers for types.
  public func preferredUnits(for quantityTypes: Set<HKQuantityType>) async throws
    -> [HKQuantityType: HKUnit]
  {
    preferred(quantityTypes)
  }

  private func preferred(_ types: Set<HKQuantityType>) -> [HKQuantityType: HKUnit] {
    var units: [HKQuantityType: HKUnit] = [:]
    for type in types {
      if let facts = QuantityTypeFacts.of(type.identifier) {
        units[type] = HKUnit(from: facts.unitString)
      }
    }
    return units
  }

  private func enableDelivery(_ type: HKObjectType, _ frequency: HKUpdateFrequency)
    throws(HKError)
  {
    let simulated = try simulatedType(type)
    try perform { engine throws(HealthError) in
      try engine.enableBackgroundDelivery(for: simulated, frequency: frequency.simulated)
    }
  }

  private func disableDelivery(_ type: HKObjectType) throws(HKError) {
    let simulated = try simulatedType(type)
    try perform { engine throws(HealthError) in
      try engine.disableBackgroundDelivery(for: simulated)
    }
  }

  private func report(
    _ completion: @Sendable (Bool, (any Error)?) -> Void, _ body: () throws(HKError) -> Void
  ) {
    do {
      try body()
      completion(true, nil)
    } catch {
      completion(false, error)
    }
  }
}
