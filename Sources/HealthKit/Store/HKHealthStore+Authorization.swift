import HealthSim

extension HKHealthStore {
  /// Asks the user for permissions; success says only that the prompt finished.
  public func requestAuthorization(
    toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
    completion: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    do {
      try requestAuthorization(share: typesToShare ?? [], read: typesToRead ?? [])
      completion(true, nil)
    } catch {
      completion(false, error)
    }
  }

  /// Asks the user for permissions.
  public func requestAuthorization(
    toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>
  ) async throws {
    try requestAuthorization(share: typesToShare, read: typesToRead)
  }

  /// Whether a request for these permissions would show a prompt.
  public func getRequestStatusForAuthorization(
    toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
    completion: @escaping @Sendable (HKAuthorizationRequestStatus, (any Error)?) -> Void
  ) {
    do {
      completion(try requestStatus(share: typesToShare, read: typesToRead), nil)
    } catch {
      completion(.unknown, error)
    }
  }

  /// Whether a request for these permissions would show a prompt.
  public func statusForAuthorizationRequest(
    toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>
  ) async throws -> HKAuthorizationRequestStatus {
    try requestStatus(share: typesToShare, read: typesToRead)
  }

  private func requestAuthorization(share: Set<HKSampleType>, read: Set<HKObjectType>)
    throws(HKError)
  {
    guard !share.isEmpty || !read.isEmpty else {
      throw HKError(
        .errorInvalidArgument, message: "requestAuthorization needs at least one type")
    }
    let share = try simulatedTypes(share.map { $0 })
    let read = try simulatedTypes(Array(read))
    _ = try perform { engine throws(HealthError) in
      try engine.requestAuthorization(toShare: share, read: read)
    }
  }

  private func requestStatus(share: Set<HKSampleType>, read: Set<HKObjectType>) throws(HKError)
    -> HKAuthorizationRequestStatus
  {
    let share = try simulatedTypes(share.map { $0 })
    let read = try simulatedTypes(Array(read))
    guard device.call({ $0.isHealthDataAvailable() }) else {
      throw HKError(.errorHealthDataUnavailable, message: "health data is not available")
    }
    let status = device.call { $0.requestStatusForAuthorization(toShare: share, read: read) }
    return HKAuthorizationRequestStatus(rawValue: status.rawValue) ?? .unknown
  }

  /// The engine's types; a type the simulator does not store is asked for and ignored,
  /// as Health ignores types it has no data for.
  private func simulatedTypes(_ types: [HKObjectType]) throws(HKError) -> Set<SampleType> {
    Set(types.compactMap(\.simulated))
  }
}
