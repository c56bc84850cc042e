import HealthKit
import Testing

/// Queries that keep reporting: HKAnchoredObjectQuery's updateHandler and the statistics
/// collection descriptor's results (A17–A19, T9).
@Suite struct LongRunningQueryTests {
  let weight = Make.weightType
  let steps = Make.stepType

  @Test func anAnchoredUpdateHandlerReceivesEachDeltaUntilStopped() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let first = Make.weight(70, at: device.now)
      try await store.save(first)
      let initial = Locked<[UUID]>([])
      let updates = Locked<[([UUID], [UUID])]>([])
      let query = HKAnchoredObjectQuery(
        type: weight, predicate: nil, anchor: nil, limit: HKObjectQueryNoLimit
      ) { _, samples, _, _, _ in initial.update { $0 = (samples ?? []).map(\.uuid) } }
      query.updateHandler = { _, samples, deleted, _, _ in
        updates.update { $0.append(((samples ?? []).map(\.uuid), (deleted ?? []).map(\.uuid))) }
      }
      store.execute(query)
      #expect(initial.value == [first.uuid])
      #expect(updates.value.isEmpty)
      let second = Make.weight(71, at: device.now)
      try await store.save(second)
      await device.settle()
      try await store.delete(first)
      await device.settle()
      #expect(updates.value.map(\.0) == [[second.uuid], []])
      #expect(updates.value.map(\.1) == [[], [first.uuid]])
      store.stop(query)
      try await store.save(Make.weight(72, at: device.now))
      await device.settle()
      #expect(updates.value.count == 2)
    }
  }

  @Test func anUpdateHandlerWithALimitIsAnInvalidArgument() async throws {
    let device = SimulatedDevice()
    await device.run {
      let store = HKHealthStore()
      let codes = Locked<[HKError.Code?]>([])
      let query = HKAnchoredObjectQuery(type: weight, predicate: nil, anchor: nil, limit: 10) {
        _, samples, _, _, error in
        #expect(samples == nil)
        codes.update { $0.append(.of(error)) }
      }
      query.updateHandler = { _, _, _, _, _ in codes.update { $0.append(nil) } }
      store.execute(query)
      #expect(codes.value == [.errorInvalidArgument])
      #expect(device.runningQueries == 0)
    }
  }

  @Test func anUpdateHandlerCanStopItsOwnQuery() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let updates = Locked(0)
      let query = HKAnchoredObjectQuery(
        type: weight, predicate: nil, anchor: nil, limit: HKObjectQueryNoLimit
      ) { _, _, _, _, _ in }
      query.updateHandler = { query, _, _, _, _ in
        updates.increment()
        store.stop(query)
      }
      store.execute(query)
      for kg in [70.0, 71] {
        try await store.save(Make.weight(kg, at: device.now))
        await device.settle()
      }
      #expect(updates.value == 1)
      #expect(device.runningQueries == 0)
    }
  }

  @Test func theStatisticsCollectionDescriptorYieldsUpdates() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let day = Calendar.current.startOfDay(for: device.now)
      try await store.save(Make.steps(500, from: day.addingTimeInterval(3600)))
      let descriptor = HKStatisticsCollectionQueryDescriptor(
        predicate: .quantitySample(type: steps), options: .cumulativeSum, anchorDate: day,
        intervalComponents: DateComponents(day: 1))
      var totals: [Double?] = []
      var changed: [Int?] = []
      for try await result in descriptor.results(for: store) {
        totals.append(
          result.statisticsCollection.statistics(for: day)?.sumQuantity()?.doubleValue(
            for: .count()))
        changed.append(result.updatedStatistics?.count)
        if totals.count == 2 { break }
        try await store.save(Make.steps(250, from: day.addingTimeInterval(7200)))
        await device.settle()
      }
      #expect(totals == [500, 750])
      #expect(changed == [nil, 1])
      #expect(device.runningQueries == 0)
    }
  }

  @Test func aLaunchStopsTheOldProcesssQueries() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let updates = Locked(0)
      let query = HKAnchoredObjectQuery(
        type: weight, predicate: nil, anchor: nil, limit: HKObjectQueryNoLimit
      ) { _, _, _, _, _ in }
      query.updateHandler = { _, _, _, _, _ in updates.increment() }
      store.execute(query)
      store.execute(HKObserverQuery(sampleType: weight, predicate: nil) { _, done, _ in done() })
      #expect(device.runningQueries == 2)
      device.quitApp()
      #expect(device.runningQueries == 0)
      device.launchApp()
      try await store.save(Make.weight(70, at: device.now))
      await device.settle()
      #expect(updates.value == 0)
    }
  }
}
