import HealthKit
import Testing

/// One hundred whole app flows, each on its own device, timed by scripts/bench-healthkit.sh
/// (the tests assert behaviour only). Ninety cycle through nine flows whose observers
/// complete; ten miss their completions, which costs `completionGrace` of real time each.
@Suite struct ScenarioBenchmarkTests {
  let weight = Make.weightType

  @Test(arguments: 0..<90)
  func completing(_ index: Int) async throws {
    let device = SimulatedDevice(seed: UInt64(index))
    try await device.run {
      switch index % 9 {
      case 0: try await incrementalImport(device, index)
      case 1: try await syncVersions(device, index)
      case 2: try await hiddenReadDenial(device, index)
      case 3: try await writeDenied(device, index)
      case 4: try await lockedDevice(device, index)
      case 5: try await forceQuitAndRelaunch(device, index)
      case 6: try await observerDrivenSync(device, index)
      case 7: try await dailyStatistics(device, index)
      default: try await descriptorUpdates(device, index)
      }
    }
  }

  @Test(arguments: 0..<10)
  func missingCompletions(_ index: Int) async throws {
    let device = SimulatedDevice(seed: UInt64(index))
    try await device.run {
      let store = HKHealthStore()
      let log = WeightLog(store: store)
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, _, _ in
          Task { try await log.sync() }  // and never calls its completion
        })
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      await device.moveAppToBackground()
      try scaleSaves(device, count: 1 + index % 3)
      await device.settle()
      await device.advance(by: 180)
      #expect(device.observerStatus(for: weight) == .stopped)
      #expect(device.deliveries(for: weight) == 3)
      #expect(await log.entries.count == 1 + index % 3)
    }
  }

  // MARK: The flows

  func scaleSaves(_ device: SimulatedDevice, count: Int, from kg: Double = 80) throws {
    let samples = (0..<count).map { Make.weight(kg + Double($0) / 10, at: device.now) }
    try device.saveAsOtherApp(samples, name: "Scale", bundleIdentifier: "com.example.scale")
  }

  func incrementalImport(_ device: SimulatedDevice, _ index: Int) async throws {
    let store = HKHealthStore()
    let log = WeightLog(store: store, page: 3)
    try scaleSaves(device, count: 5 + index % 7)
    #expect(try await log.sync() == 5 + index % 7)
    let live = try await store.samples(of: weight)
    try device.deleteAsOwner([live[0].uuid])
    try await store.save(Make.weight(70, at: device.now))
    #expect(try await log.sync() == 2)
    let now = try await store.samples(of: weight)
    #expect(Set(await log.entries.keys) == Set(now.map(\.uuid)))
  }

  func syncVersions(_ device: SimulatedDevice, _ index: Int) async throws {
    let store = HKHealthStore()
    let log = WeightLog(store: store)
    for version in 1...3 {
      try await store.save(
        Make.synced(70 + Double(version), at: device.now, id: "e\(index)", version: version))
    }
    try await store.save(Make.synced(99, at: device.now, id: "e\(index)", version: 2))
    try await log.sync()
    #expect(await log.entries.values.sorted() == [73])
  }

  func hiddenReadDenial(_ device: SimulatedDevice, _ index: Int) async throws {
    let store = HKHealthStore()
    try scaleSaves(device, count: 3)
    let mine = Make.weight(70, at: device.now)
    try await store.save(mine)
    device.setReadPermission(.denied, for: [weight])
    let log = WeightLog(store: store)
    try await log.sync()
    #expect(Array(await log.entries.keys) == [mine.uuid])
  }

  func writeDenied(_ device: SimulatedDevice, _ index: Int) async throws {
    let store = HKHealthStore()
    device.setWritePermission(.notDetermined, for: [weight])
    device.answerPrompts(.deny)
    try await store.requestAuthorization(toShare: [weight], read: [weight])
    #expect(store.authorizationStatus(for: weight) == .sharingDenied)
    do {
      try await store.save(Make.weight(70, at: device.now))
      Issue.record("saved with write denied")
    } catch HKError.errorAuthorizationDenied {
    }
  }

  func lockedDevice(_ device: SimulatedDevice, _ index: Int) async throws {
    let store = HKHealthStore()
    let log = WeightLog(store: store)
    store.execute(
      HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
        Task {
          try? await log.sync()
          completionHandler()
        }
      })
    try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
    await device.moveAppToBackground()
    device.lockDevice()
    await #expect(throws: HKError(.errorDatabaseInaccessible)) { try await log.sync() }
    try scaleSaves(device, count: 2)
    await device.advance(by: 600)
    #expect(device.deliveries(for: weight) == 0)
    await device.unlockDevice()
    #expect(device.deliveries(for: weight) == 1)
    #expect(await log.entries.count == 2)
  }

  func forceQuitAndRelaunch(_ device: SimulatedDevice, _ index: Int) async throws {
    let store = HKHealthStore()
    let log = WeightLog(store: store)
    func launch() async throws {
      store.execute(
        HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
          Task {
            try? await log.sync()
            completionHandler()
          }
        })
      try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
      try await log.sync()
    }
    try await launch()
    device.quitApp()
    try scaleSaves(device, count: 2)
    await device.advance(by: 3600)
    #expect(await log.entries.isEmpty)
    device.launchApp()
    try await launch()
    #expect(await log.entries.count == 2)
    await device.moveAppToBackground()
    try scaleSaves(device, count: 1, from: 90)
    await device.settle()
    #expect(await log.entries.count == 3)
  }

  func observerDrivenSync(_ device: SimulatedDevice, _ index: Int) async throws {
    let store = HKHealthStore()
    let log = WeightLog(store: store, page: 2)
    store.execute(
      HKObserverQuery(sampleType: weight, predicate: nil) { _, completionHandler, _ in
        Task {
          try? await log.sync()
          completionHandler()
        }
      })
    try await store.enableBackgroundDelivery(for: weight, frequency: .immediate)
    await device.moveAppToBackground()
    for round in 0..<3 {
      try scaleSaves(device, count: 1 + (index + round) % 4, from: 80 + Double(round))
      await device.settle()
    }
    #expect(device.observerStatus(for: weight) == .active)
    let live = try await store.samples(of: weight)
    #expect(Set(await log.entries.keys) == Set(live.map(\.uuid)))
  }

  func dailyStatistics(_ device: SimulatedDevice, _ index: Int) async throws {
    let store = HKHealthStore()
    let day = Calendar.current.startOfDay(for: device.now)
    let days = 3 + index % 5
    try await store.save(
      (0..<days).map { Make.steps(1000, from: day.addingTimeInterval(Double($0) * 86_400 + 3600)) })
    let totals = Locked<[Double]>([])
    let query = HKStatisticsCollectionQuery(
      quantityType: Make.stepType, quantitySamplePredicate: nil, options: .cumulativeSum,
      anchorDate: day, intervalComponents: DateComponents(day: 1))
    query.initialResultsHandler = { _, collection, _ in
      totals.update {
        $0 =
          collection?.statistics().compactMap { $0.sumQuantity()?.doubleValue(for: .count()) } ?? []
      }
    }
    query.statisticsUpdateHandler = { _, _, collection, _ in
      totals.update {
        $0 =
          collection?.statistics().compactMap { $0.sumQuantity()?.doubleValue(for: .count()) } ?? []
      }
    }
    store.execute(query)
    #expect(totals.value == Array(repeating: 1000, count: days))
    try await store.save(Make.steps(500, from: day.addingTimeInterval(7200)))
    await device.settle()
    #expect(totals.value.first == 1500)
    store.stop(query)
  }

  func descriptorUpdates(_ device: SimulatedDevice, _ index: Int) async throws {
    let store = HKHealthStore()
    try scaleSaves(device, count: 2)
    let descriptor = HKAnchoredObjectQueryDescriptor(
      predicates: [.quantitySample(type: weight)], anchor: nil)
    var counts: [Int] = []
    for try await result in descriptor.results(for: store) {
      counts.append(result.addedSamples.count)
      if counts.count == 3 { break }
      try await store.save(Make.weight(70, at: device.now))
      await device.settle()
    }
    #expect(counts == [2, 1, 1])
    #expect(device.runningQueries == 0)
  }
}
