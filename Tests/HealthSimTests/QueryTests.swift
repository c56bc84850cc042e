import Foundation
import HealthSim
import Testing

@Suite("Sample queries, predicates and statistics (P, Q, T, C)")
struct QueryTests {
  @Test("P1–P5: none = overlap, strictStart/strictEnd = date in [S, E), instant at E excluded")
  func p1DatePredicates() {
    let none = SamplePredicate.samples(withStart: at(10), end: at(20))
    let strictStart = SamplePredicate.samples(
      withStart: at(10), end: at(20), options: .strictStartDate)
    let strictEnd = SamplePredicate.samples(withStart: at(10), end: at(20), options: .strictEndDate)
    #expect(none.matchesDates(start: at(5), end: at(10)))
    #expect(!none.matchesDates(start: at(20), end: at(20)))
    #expect(none.matchesDates(start: at(10), end: at(10)))
    #expect(!strictStart.matchesDates(start: at(5), end: at(15)))
    #expect(strictStart.matchesDates(start: at(10), end: at(25)))
    #expect(!strictEnd.matchesDates(start: at(15), end: at(20)))
    #expect(strictEnd.matchesDates(start: at(5), end: at(19)))
    let both = SamplePredicate.samples(
      withStart: at(10), end: at(20), options: [.strictStartDate, .strictEndDate])
    #expect(!both.matchesDates(start: at(15), end: at(25)))
    #expect(
      SamplePredicate.samples(withStart: nil, end: nil).matchesDates(start: at(-1e6), end: at(1e6)))
  }

  @Test("Q1/Q2: sample queries sort then limit; 0 is no limit; no sort keeps change order")
  func q1SampleQuery() throws {
    let store = makeStore()
    for (value, minute) in [(70.0, 30.0), (71, 10), (72, 20)] {
      try scaleWrites(store, value, at: minute)
    }
    #expect(try store.samples(of: .bodyMass).map(\.value) == [70, 71, 72])
    let latest = try store.samples(
      of: .bodyMass, limit: 1, sortedBy: [SampleSortDescriptor(.startDate, ascending: false)])
    #expect(latest.map(\.value) == [70])
    var received: [Double] = []
    try store.execute(
      SampleQuery(
        sampleType: .bodyMass, limit: 0, sortDescriptors: [SampleSortDescriptor(.startDate)]
      ) {
        _, samples, _ in received = samples?.map(\.value) ?? []
      })
    #expect(received == [71, 72, 70])
  }

  @Test("T2: body mass is discrete: average/min/max/mostRecent; cumulativeSum throws")
  func t2Discrete() throws {
    let store = makeStore()
    try scaleWrites(store, 70, at: 0)
    try scaleWrites(store, 74, at: 10)
    let stats = try store.statistics(
      of: .bodyMass, options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent])
    #expect(stats.averageQuantity()?.value == 72)
    #expect(stats.minimumQuantity()?.value == 70)
    #expect(stats.maximumQuantity()?.value == 74)
    #expect(stats.mostRecentQuantity()?.value == 74)
    #expect(stats.mostRecentQuantityDateInterval() == DateInterval(start: at(10), end: at(10)))
    #expect(throws: HealthError.self) {
      try store.statistics(of: .bodyMass, options: .cumulativeSum)
    }
    let query = StatisticsQuery(quantityType: .bodyMass, options: .cumulativeSum) { _, _, _ in }
    #expect(throws: HealthError.self) { try store.execute(query) }
  }

  @Test("C1: step count is cumulative: only cumulativeSum (and duration); discrete throws")
  func c1Cumulative() throws {
    let store = makeStore()
    try store.save(
      [HealthSample(type: .stepCount, value: 100, start: at(0), end: at(10))], as: otherApp)
    let stats = try store.statistics(of: .stepCount, options: [.cumulativeSum, .duration])
    #expect(stats.sumQuantity()?.value == 100)
    #expect(stats.merged.duration == 600)
    #expect(throws: HealthError.self) {
      try store.statistics(of: .stepCount, options: .discreteAverage)
    }
    #expect(SampleType.appleExerciseTime.aggregationStyle == .cumulative)
  }

  @Test("T3/T5: sources merge by priority; per-source values only with separateBySource")
  func t5Priority() throws {
    let store = makeStore()
    let watch = SourceRevision(
      source: HealthSource(name: "Apple Watch", bundleIdentifier: "com.apple.health.watch"))
    try store.save(
      [HealthSample(type: .stepCount, value: 100, start: at(0), end: at(10))], as: watch)
    try store.save(
      [HealthSample(type: .stepCount, value: 80, start: at(0), end: at(10))], as: otherApp)
    let merged = try store.statistics(of: .stepCount, options: .cumulativeSum)
    #expect(merged.sumQuantity()?.value == 100)
    #expect(merged.sources == nil)
    #expect(merged.sumQuantity(for: otherApp.source) == nil)
    var settings = store.settings
    settings.sourcePriority = [otherApp.source.bundleIdentifier]
    store.settings = settings
    let reordered = try store.statistics(
      of: .stepCount, options: [.cumulativeSum, .separateBySource])
    #expect(reordered.sumQuantity()?.value == 80)
    #expect(reordered.sumQuantity(for: watch.source)?.value == 100)
    #expect(reordered.sources?.count == 2)
  }

  @Test("T7/T8: intervals anchored at a date extend both ways; empty ones have nil values")
  func t7Collection() throws {
    let store = makeStore()
    try scaleWrites(store, 70, at: -60 * 12)
    try scaleWrites(store, 72, at: 60 * 26)
    try scaleWrites(store, 74, at: 60 * 28)
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    let collection = try store.statisticsCollection(
      of: .bodyMass, options: .discreteAverage, anchorDate: epoch,
      intervalComponents: DateComponents(day: 1), calendar: utc)
    #expect(collection.statistics().map { $0.averageQuantity()?.value } == [70, 73])
    let days = collection.enumerateStatistics(from: at(-60 * 24), to: at(60 * 60))
    #expect(days.map(\.startDate) == (-1...2).map { at(Double($0) * 60 * 24) })
    #expect(days.map { $0.averageQuantity()?.value } == [70, nil, 73, nil])
    #expect(collection.statistics(for: at(60 * 25))?.averageQuantity()?.value == 73)
  }

  @Test("T10: DST days are 23 h and 25 h; cumulative samples are pro-rated across intervals")
  func t10DST() throws {
    let store = makeStore()
    var berlin = Calendar(identifier: .gregorian)
    berlin.timeZone = TimeZone(identifier: "Europe/Berlin")!
    let march28 = berlin.date(from: DateComponents(year: 2026, month: 3, day: 28))!
    let collection = try store.statisticsCollection(
      of: .stepCount, options: .cumulativeSum, anchorDate: march28,
      intervalComponents: DateComponents(day: 1), calendar: berlin)
    let days = collection.enumerateStatistics(
      from: march28, to: march28.addingTimeInterval(86_400 * 1.5))
    #expect(days.map { $0.endDate.timeIntervalSince($0.startDate) / 3600 } == [24, 23])
    let october24 = berlin.date(from: DateComponents(year: 2026, month: 10, day: 25))!
    #expect(collection.bucketStart(211).timeIntervalSince(october24) == 0)
    #expect(collection.bucketStart(212).timeIntervalSince(collection.bucketStart(211)) == 25 * 3600)
    let midnight = collection.bucketStart(1)
    try store.save(
      [
        HealthSample(
          type: .stepCount, value: 100, start: midnight.addingTimeInterval(-1800),
          end: midnight.addingTimeInterval(1800))
      ], as: otherApp)
    let split = try store.statisticsCollection(
      of: .stepCount, options: .cumulativeSum, anchorDate: march28,
      intervalComponents: DateComponents(day: 1), calendar: berlin)
    #expect(split.statistics().map { $0.sumQuantity()?.value } == [50, 50])
  }
}
