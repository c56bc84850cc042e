import HealthKit
import Testing

/// HKStatisticsQuery, HKStatisticsCollectionQuery and its descriptor (T1–T10).
@Suite struct StatisticsTests {
  let weight = Make.weightType
  let steps = Make.stepType

  /// Midnight of the device's day, in the calendar the queries use.
  func startOfDay(_ device: SimulatedDevice) -> Date {
    Calendar.current.startOfDay(for: device.now)
  }

  @Test func sumOfStepsWithAndWithoutADatePredicate() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let day = startOfDay(device)
      let hours = [(8.0, 1000.0), (12, 2500), (18, 500)]
      try await store.save(
        hours.map { Make.steps($0.1, from: day.addingTimeInterval($0.0 * 3600)) })
      let total = try await store.statistics(of: steps, options: .cumulativeSum)
      #expect(total.sumQuantity()?.doubleValue(for: .count()) == 4000)
      #expect(total.averageQuantity() == nil)
      let morning = HKQuery.predicateForSamples(
        withStart: day, end: day.addingTimeInterval(13 * 3600), options: [])
      let partial = try await store.statistics(
        of: steps, predicate: morning, options: .cumulativeSum)
      #expect(partial.sumQuantity()?.doubleValue(for: .count()) == 3500)
      #expect(partial.startDate == day)
      #expect(partial.endDate == day.addingTimeInterval(13 * 3600))
    }
  }

  @Test func averageMinimumAndMaximumOfBodyMass() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      for (index, kg) in [70.0, 72.0, 71.0].enumerated() {
        try await store.save(Make.weight(kg, at: device.now.addingTimeInterval(Double(index) * 60)))
      }
      let statistics = try await store.statistics(
        of: weight, options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent])
      let kg = Make.kilogram
      #expect(statistics.averageQuantity()?.doubleValue(for: kg) == 71)
      #expect(statistics.minimumQuantity()?.doubleValue(for: kg) == 70)
      #expect(statistics.maximumQuantity()?.doubleValue(for: kg) == 72)
      #expect(statistics.mostRecentQuantity()?.doubleValue(for: kg) == 71)
      #expect(statistics.sumQuantity() == nil)
      let pounds = try #require(statistics.averageQuantity()?.doubleValue(for: .pound()))
      #expect(abs(pounds - 71 / 0.45359237) < 1e-9)
    }
  }

  @Test func separateBySource() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let day = startOfDay(device)
      try await store.save(Make.steps(1000, from: day.addingTimeInterval(3600)))
      try device.saveAsOtherApp(
        [Make.steps(300, from: day.addingTimeInterval(7200))], name: "Watch",
        bundleIdentifier: "com.example.watch")
      let statistics = try await store.statistics(
        of: steps, options: [.cumulativeSum, .separateBySource])
      #expect(statistics.sumQuantity()?.doubleValue(for: .count()) == 1300)
      let sources = try #require(statistics.sources)
      #expect(Set(sources.map(\.bundleIdentifier)) == ["com.example.app", "com.example.watch"])
      let watch = try #require(sources.first { $0.name == "Watch" })
      #expect(statistics.sumQuantity(for: watch)?.doubleValue(for: .count()) == 300)
      #expect(statistics.sumQuantity(for: HKSource.default())?.doubleValue(for: .count()) == 1000)
      // Without the option there is no per-source split.
      let merged = try await store.statistics(of: steps, options: .cumulativeSum)
      #expect(merged.sources == nil || merged.sources?.isEmpty == true)
    }
  }

  @Test func aStatisticsOptionThatDoesNotFitTheTypeIsAnError() async throws {
    let device = SimulatedDevice()
    await device.run {
      let store = HKHealthStore()
      await #expect(throws: HKError(.errorInvalidArgument)) {
        _ = try await store.statistics(of: weight, options: .cumulativeSum)
      }
    }
  }

  @Test func dailyIntervalsEnumeratedWithEmptyDays() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let day = startOfDay(device)
      func at(_ days: Double, _ hours: Double) -> Date {
        day.addingTimeInterval(days * 86_400 + hours * 3600)
      }
      try await store.save([
        Make.steps(1000, from: at(0, 9)), Make.steps(200, from: at(0, 20)),
        Make.steps(700, from: at(2, 9)),
      ])
      let collection = Locked<HKStatisticsCollection?>(nil)
      let query = HKStatisticsCollectionQuery(
        quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum,
        anchorDate: day, intervalComponents: DateComponents(day: 1))
      query.initialResultsHandler = { _, result, _ in collection.update { $0 = result } }
      store.execute(query)
      let result = try #require(collection.value)
      var days: [(Date, Double?)] = []
      result.enumerateStatistics(from: day, to: at(2, 12)) { statistics, _ in
        days.append((statistics.startDate, statistics.sumQuantity()?.doubleValue(for: .count())))
      }
      #expect(days.map(\.0) == [day, at(1, 0), at(2, 0)])
      #expect(days.map(\.1) == [1200, nil, 700])
      #expect(result.statistics().count == 2)
      #expect(result.statistics(for: at(2, 23))?.sumQuantity()?.doubleValue(for: .count()) == 700)
      #expect(result.statistics(for: at(1, 12)) == nil)
      // Setting stop ends the enumeration.
      var seen = 0
      result.enumerateStatistics(from: day, to: at(2, 12)) { _, stop in
        seen += 1
        stop.pointee = true
      }
      #expect(seen == 1)
    }
  }

  @Test func theUpdateHandlerRunsAfterANewSave() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let day = startOfDay(device)
      try await store.save(Make.steps(1000, from: day.addingTimeInterval(9 * 3600)))
      let initial = Locked<Double?>(nil)
      let updates = Locked<[(Date?, Double?)]>([])
      let query = HKStatisticsCollectionQuery(
        quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum,
        anchorDate: day, intervalComponents: DateComponents(day: 1))
      query.initialResultsHandler = { _, collection, _ in
        initial.update {
          $0 = collection?.statistics(for: day)?.sumQuantity()?.doubleValue(for: .count())
        }
      }
      query.statisticsUpdateHandler = { _, statistics, collection, _ in
        let total = collection?.statistics(for: day)?.sumQuantity()?.doubleValue(for: .count())
        updates.update { $0.append((statistics?.startDate, total)) }
      }
      store.execute(query)
      #expect(initial.value == 1000)
      #expect(updates.value.isEmpty)
      try await store.save(Make.steps(234, from: day.addingTimeInterval(10 * 3600)))
      await device.settle()
      #expect(updates.value.count == 1)
      #expect(updates.value.first?.0 == day)
      #expect(updates.value.first?.1 == 1234)
      store.stop(query)
      try await store.save(Make.steps(1, from: day.addingTimeInterval(11 * 3600)))
      await device.settle()
      #expect(updates.value.count == 1)
    }
  }

  @Test func theCollectionDescriptorResult() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let day = startOfDay(device)
      try await store.save([
        Make.weight(70, at: day.addingTimeInterval(8 * 3600)),
        Make.weight(72, at: day.addingTimeInterval(20 * 3600)),
        Make.weight(69, at: day.addingTimeInterval(86_400 + 8 * 3600)),
      ])
      let descriptor = HKStatisticsCollectionQueryDescriptor(
        predicate: .quantitySample(type: weight), options: .discreteAverage, anchorDate: day,
        intervalComponents: DateComponents(day: 1))
      let collection = try await descriptor.result(for: store)
      let averages = collection.statistics().map {
        $0.averageQuantity()?.doubleValue(for: Make.kilogram)
      }
      #expect(averages == [71, 69])
      #expect(collection.statistics().first?.startDate == day)
    }
  }
}
