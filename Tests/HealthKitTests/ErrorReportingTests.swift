import HealthKit
import Testing

/// Errors reach the app's handlers as HKError values; nothing crashes (A22, Z1).
@Suite struct ErrorReportingTests {
  let weight = Make.weightType
  /// A type the simulator does not store (flights climbed is not modelled).
  let unstored = HKQuantityType(.flightsClimbed)

  @Test func executingAQueryTwiceReportsAnInvalidArgument() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      try await store.save(Make.weight(70, at: device.now))
      let reports = Locked<[Int?]>([])
      let query = HKSampleQuery(
        sampleType: weight, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil
      ) { _, samples, error in
        reports.update { $0.append(error.map { ($0 as NSError).code } ?? samples?.count) }
      }
      store.execute(query)
      store.execute(query)
      #expect(reports.value == [1, 3])
      let observed = Locked<[HKError.Code?]>([])
      let observer = HKObserverQuery(sampleType: weight, predicate: nil) {
        _, completionHandler, error in
        observed.update { $0.append(.of(error)) }
        completionHandler()
      }
      store.execute(observer)
      store.execute(observer)
      #expect(observed.value == [.errorInvalidArgument])
      // The first execution still runs, once per change.
      try await store.save(Make.weight(71, at: device.now))
      await device.settle()
      #expect(observed.value == [.errorInvalidArgument, nil])
      #expect(device.runningQueries == 1)
    }
  }

  @Test func aStoppedQueryCannotBeExecutedAgain() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let errors = Locked<[HKError.Code?]>([])
      let query = HKAnchoredObjectQuery(
        type: weight, predicate: nil, anchor: nil, limit: HKObjectQueryNoLimit
      ) {
        _, _, _, _, error in errors.update { $0.append(.of(error)) }
      }
      query.updateHandler = { _, _, _, _, error in errors.update { $0.append(.of(error)) } }
      store.execute(query)
      store.stop(query)
      store.execute(query)
      #expect(errors.value == [nil, .errorInvalidArgument])
      try await store.save(Make.weight(71, at: device.now))
      await device.settle()
      #expect(errors.value.count == 2)
    }
  }

  @Test func aTypeTheSimulatorDoesNotStoreReachesEveryHandler() async throws {
    let device = SimulatedDevice()
    await device.run {
      let store = HKHealthStore()
      let codes = Locked<[HKError.Code?]>([])
      @Sendable func record(_ error: (any Error)?) { codes.update { $0.append(.of(error)) } }
      store.execute(
        HKSampleQuery(sampleType: unstored, predicate: nil, limit: 0, sortDescriptors: nil) {
          _, samples, error in
          #expect(samples == nil)
          record(error)
        })
      store.execute(
        HKAnchoredObjectQuery(type: unstored, predicate: nil, anchor: nil, limit: 0) {
          _, _, _, _, error in record(error)
        })
      store.execute(
        HKStatisticsQuery(
          quantityType: unstored, quantitySamplePredicate: nil, options: .discreteAverage
        ) {
          _, _, error in record(error)
        })
      store.execute(
        HKObserverQuery(sampleType: unstored, predicate: nil) { _, completionHandler, error in
          record(error)
          completionHandler()
        })
      let collection = HKStatisticsCollectionQuery(
        quantityType: unstored, quantitySamplePredicate: nil, options: .discreteAverage,
        anchorDate: device.now, intervalComponents: DateComponents(day: 1))
      collection.initialResultsHandler = { _, _, error in record(error) }
      store.execute(collection)
      #expect(codes.value == Array(repeating: .errorInvalidArgument, count: 5))
      let sample = HKQuantitySample(
        type: unstored, quantity: HKQuantity(unit: .count(), doubleValue: 3), start: device.now,
        end: device.now)
      await #expect(throws: HKError(.errorInvalidArgument)) { try await store.save(sample) }
      await #expect(throws: HKError(.errorInvalidArgument)) {
        try await store.enableBackgroundDelivery(for: unstored, frequency: .immediate)
      }
      let descriptor = HKSampleQueryDescriptor(
        predicates: [.quantitySample(type: unstored)], sortDescriptors: [])
      await #expect(throws: HKError(.errorInvalidArgument)) {
        _ = try await descriptor.result(for: store)
      }
    }
  }

  @Test func healthUnavailableIsCodeOneEverywhere() async throws {
    let device = SimulatedDevice()
    device.setHealthDataAvailable(false)
    try await device.run {
      #expect(!HKHealthStore.isHealthDataAvailable())
      let store = HKHealthStore()
      let unavailable = HKError(.errorHealthDataUnavailable)
      await #expect(throws: unavailable) { try await store.save(Make.weight(70, at: device.now)) }
      await #expect(throws: unavailable) {
        try await store.requestAuthorization(toShare: [weight], read: [weight])
      }
      await #expect(throws: unavailable) {
        try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      }
      await #expect(throws: unavailable) { _ = try await store.samples(of: weight) }
      await #expect(throws: unavailable) { _ = try await store.changes(of: weight, after: nil) }
      await #expect(throws: unavailable) {
        _ = try await store.statistics(of: weight, options: .discreteAverage)
      }
      await #expect(throws: unavailable) {
        _ = try await HKAnchoredObjectQueryDescriptor(
          predicates: [.quantitySample(type: weight)], anchor: nil
        ).result(for: store)
      }
      let codes = Locked<[Int]>([])
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, error in
          codes.update { $0.append((error as NSError?)?.code ?? 0) }
          completionHandler()
        })
      #expect(codes.value == [1])
      store.getRequestStatusForAuthorization(toShare: [weight], read: []) { status, error in
        codes.update { $0.append((error as NSError?)?.code ?? 0) }
      }
      store.save(Make.weight(70, at: device.now)) { success, error in
        codes.update { $0.append(success ? 0 : (error as NSError?)?.code ?? 0) }
      }
      #expect(codes.value == [1, 1, 1])
      // Available again: the same store works.
      device.setHealthDataAvailable(true)
      #expect(HKHealthStore.isHealthDataAvailable())
      try await store.save(Make.weight(70, at: device.now))
      #expect(try await store.samples(of: weight).count == 1)
    }
  }

  @Test func deletingAnotherSourcesSampleIsDenied() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let theirs = Make.weight(80, at: device.now)
      try device.saveAsOtherApp([theirs], name: "Scale", bundleIdentifier: "com.example.scale")
      let read = try await store.samples(of: weight)
      await #expect(throws: HKError(.errorAuthorizationDenied)) { try await store.delete(read) }
      #expect(try await store.samples(of: weight).count == 1)
      let mine = HKQuery.predicateForObjects(from: HKSource.default())
      #expect(try await store.deleteObjects(of: weight, predicate: mine) == 0)
      let all = HKQuery.predicateForSamples(withStart: nil, end: nil)
      #expect(try await store.deleteObjects(of: weight, predicate: all) == 0)
      #expect(try await store.samples(of: weight).count == 1)
    }
  }
}
