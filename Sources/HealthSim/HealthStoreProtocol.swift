/// HealthKit's store API in the shape of HKHealthStore, so sync code written against it
/// runs on the simulator. The simulator calls every completion synchronously, before the
/// method returns; a wrapper around the real HKHealthStore calls them later.
public protocol HealthStoreProtocol: AnyObject {
  /// Whether Health data is available on this device.
  func isHealthDataAvailable() -> Bool
  /// The app's write status for a type; read status is never visible.
  func authorizationStatus(for type: SampleType) -> AuthorizationStatus
  /// Asks for permissions; success means only that the prompt finished.
  func requestAuthorization(
    toShare: Set<SampleType>, read: Set<SampleType>,
    completion: @escaping (Bool, HealthError?) -> Void)
  /// Saves samples, all or nothing.
  func save(_ samples: [HealthSample], withCompletion: @escaping (Bool, HealthError?) -> Void)
  /// Deletes samples the app saved.
  func delete(_ samples: [HealthSample], withCompletion: @escaping (Bool, HealthError?) -> Void)
  /// Deletes the app's samples of a type that match, reporting how many.
  func deleteObjects(
    of type: SampleType, predicate: SamplePredicate,
    withCompletion: @escaping (Bool, Int, HealthError?) -> Void)
  /// Runs a query once; its handlers receive results and errors.
  func execute(_ query: HealthQuery) throws(HealthError)
  /// Stops a query.
  func stop(_ query: HealthQuery)
  /// Enables background delivery of a type.
  func enableBackgroundDelivery(
    for type: SampleType, frequency: UpdateFrequency,
    withCompletion: @escaping (Bool, HealthError?) -> Void)
  /// Disables background delivery of a type.
  func disableBackgroundDelivery(
    for type: SampleType, withCompletion: @escaping (Bool, HealthError?) -> Void)
  /// Disables background delivery of every type.
  func disableAllBackgroundDelivery(withCompletion: @escaping (Bool, HealthError?) -> Void)
}

extension HealthStore: HealthStoreProtocol {
  public func requestAuthorization(
    toShare: Set<SampleType>, read: Set<SampleType>,
    completion: @escaping (Bool, HealthError?) -> Void
  ) {
    report(completion) { () throws(HealthError) in
      _ = try requestAuthorization(toShare: toShare, read: read)
    }
  }

  public func save(
    _ samples: [HealthSample], withCompletion: @escaping (Bool, HealthError?) -> Void
  ) {
    report(withCompletion) { () throws(HealthError) in _ = try save(samples) }
  }

  public func delete(
    _ samples: [HealthSample], withCompletion: @escaping (Bool, HealthError?) -> Void
  ) {
    report(withCompletion) { () throws(HealthError) in try delete(samples) }
  }

  public func deleteObjects(
    of type: SampleType, predicate: SamplePredicate,
    withCompletion: @escaping (Bool, Int, HealthError?) -> Void
  ) {
    do {
      let count = try deleteObjects(of: type, predicate: predicate)
      withCompletion(true, count, nil)
    } catch {
      withCompletion(false, 0, error)
    }
  }

  public func enableBackgroundDelivery(
    for type: SampleType, frequency: UpdateFrequency,
    withCompletion: @escaping (Bool, HealthError?) -> Void
  ) {
    report(withCompletion) { () throws(HealthError) in
      try enableBackgroundDelivery(for: type, frequency: frequency)
    }
  }

  public func disableBackgroundDelivery(
    for type: SampleType, withCompletion: @escaping (Bool, HealthError?) -> Void
  ) {
    report(withCompletion) { () throws(HealthError) in try disableBackgroundDelivery(for: type) }
  }

  public func disableAllBackgroundDelivery(
    withCompletion: @escaping (Bool, HealthError?) -> Void
  ) {
    report(withCompletion) { () throws(HealthError) in try disableAllBackgroundDelivery() }
  }

  private func report(
    _ completion: (Bool, HealthError?) -> Void, _ body: () throws(HealthError) -> Void
  ) {
    do {
      try body()
      completion(true, nil)
    } catch {
      completion(false, error)
    }
  }
}
