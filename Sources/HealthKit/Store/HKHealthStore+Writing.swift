import HealthSim

extension HKHealthStore {
  /// Saves an object.
  public func save(
    _ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    save([object], withCompletion: completion)
  }

  /// Saves objects, all or none.
  public func save(
    _ objects: [HKObject],
    withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    do {
      try saveObjects(objects)
      completion(true, nil)
    } catch {
      completion(false, error)
    }
  }

  /// Saves an object.
  public func save(_ object: HKObject) async throws { try saveObjects([object]) }

  /// Saves objects, all or none.
  public func save(_ objects: [HKObject]) async throws { try saveObjects(objects) }

  /// Deletes an object the app saved.
  public func delete(
    _ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    delete([object], withCompletion: completion)
  }

  /// Deletes objects the app saved, all or none.
  public func delete(
    _ objects: [HKObject],
    withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    do {
      try deleteObjects(objects)
      completion(true, nil)
    } catch {
      completion(false, error)
    }
  }

  /// Deletes an object the app saved.
  public func delete(_ object: HKObject) async throws { try deleteObjects([object]) }

  /// Deletes objects the app saved, all or none.
  public func delete(_ objects: [HKObject]) async throws { try deleteObjects(objects) }

  /// Deletes the app's objects of a type that match a predicate, reporting how many.
  public func deleteObjects(
    of objectType: HKObjectType, predicate: NSPredicate,
    withCompletion completion: @escaping @Sendable (Bool, Int, (any Error)?) -> Void
  ) {
    do {
      let count = try deleteMatching(objectType, predicate)
      completion(true, count, nil)
    } catch {
      completion(false, 0, error)
    }
  }

  /// Deletes the app's objects of a type that match a predicate; returns how many.
  public func deleteObjects(of objectType: HKObjectType, predicate: NSPredicate) async throws
    -> Int
  {
    try deleteMatching(objectType, predicate)
  }

  // MARK: The work

  private func saveObjects(_ objects: [HKObject]) throws(HKError) {
    let samples = try engineSamples(objects)
    _ = try perform { engine throws(HealthError) in try engine.save(samples) }
    device.afterChange()
  }

  private func deleteObjects(_ objects: [HKObject]) throws(HKError) {
    let samples = try engineSamples(objects)
    try perform { engine throws(HealthError) in try engine.delete(samples) }
    device.afterChange()
  }

  private func deleteMatching(_ objectType: HKObjectType, _ predicate: NSPredicate)
    throws(HKError) -> Int
  {
    let type = try simulatedType(objectType)
    let count = try perform { engine throws(HealthError) in
      try engine.deleteObjects(of: type, predicate: PredicateBridge.simulated(predicate))
    }
    if count > 0 { device.afterChange() }
    return count
  }

  private func engineSamples(_ objects: [HKObject]) throws(HKError) -> [HealthSample] {
    var samples: [HealthSample] = []
    for object in objects {
      guard let sample = object as? HKSample else {
        throw HKError(.errorInvalidArgument, message: "only samples can be saved or deleted")
      }
      samples.append(try sample.simulatedSample())
    }
    return samples
  }

  /// The engine's type for a type the app names.
  func simulatedType(_ type: HKObjectType) throws(HKError) -> SampleType {
    guard let simulated = type.simulated else {
      throw HKError(
        .errorInvalidArgument, message: "the simulator does not store \(type.identifier) yet")
    }
    return simulated
  }
}
