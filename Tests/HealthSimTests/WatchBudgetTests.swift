import Foundation
import HealthSim
import Testing

/// A store whose app runs on Apple Watch, with an optional daily wake budget.
func makeWatchStore(budget: Int? = nil) -> HealthStore {
  let store = makeStore()
  var settings = store.settings
  settings.platform = .watchOS
  if let budget { settings.watchBackgroundBudgetPerDay = budget }
  store.settings = settings
  return store
}

/// Saves a scale reading every hour from `at(0)` for `hours` hours, advancing the clock,
/// and returns every delivery that happened until `until` minutes.
func hourlyReadings(_ store: HealthStore, hours: Int, until: Double) throws -> [Date] {
  var dates: [Date] = []
  for hour in 0..<hours {
    let minute = Double(hour) * 60
    dates += deliveries(store.advance(to: at(minute))).map(\.0)
    try scaleWrites(store, 70 + Double(hour) / 10, at: minute)
    dates += deliveries(store.settle()).map(\.0)
  }
  dates += deliveries(store.advance(to: at(until))).map(\.0)
  return dates
}

@Suite("watchOS background delivery: hourly cap and daily budget (O14)")
struct WatchBudgetTests {
  @Test("O14: on watchOS every type is capped at hourly; coarser requests stay as asked")
  func o14HourlyCap() throws {
    let store = makeWatchStore()
    try observe(store, frequency: .immediate)
    try observe(store, frequency: .daily, type: .bloodGlucose)
    #expect(store.effectiveFrequency(for: .bodyMass) == .hourly)
    #expect(store.effectiveFrequency(for: .bloodGlucose) == .daily)
    store.backgroundApp()
    try scaleWrites(store, 70)
    #expect(deliveries(store.settle()).map(\.0) == [at(0)])
    store.advance(to: at(10))
    try scaleWrites(store, 71, at: 10)
    #expect(deliveries(store.advance(to: at(120))).map(\.0) == [at(60)])
  }

  @Test("O14: iOS keeps immediate delivery for body mass and has no budget")
  func o14IOSUnchanged() throws {
    let store = makeStore()
    #expect(store.settings.platform == .iOS)
    try observe(store, frequency: .immediate)
    #expect(store.effectiveFrequency(for: .bodyMass) == .immediate)
    #expect(store.remainingBackgroundWakes == nil)
    store.backgroundApp()
    let dates = try hourlyReadings(store, hours: 6, until: 60 * 48)
    #expect(dates == (0..<6).map { at(Double($0) * 60) })
    #expect(store.smallState.wakeBudget == nil)
  }

  @Test("O14: watchOS wakes beyond the day's budget (default 4) wait until the next day")
  func o14DailyBudget() throws {
    let store = makeWatchStore()
    #expect(store.settings.watchBackgroundBudgetPerDay == 4)
    let probe = try observe(store, frequency: .immediate)
    store.backgroundApp()
    #expect(store.remainingBackgroundWakes == 4)
    let dates = try hourlyReadings(store, hours: 6, until: 60 * 23)
    #expect(dates == (0..<4).map { at(Double($0) * 60) })
    #expect(store.remainingBackgroundWakes == 0)
    #expect(probe.calls == 4)
    let nextDay = deliveries(store.advance(to: at(60 * 30))).map(\.0)
    #expect(nextDay == [at(60 * 24)])
    #expect(store.remainingBackgroundWakes == 3)
    #expect(probe.calls == 5)
  }

  @Test("O14: the budget is shared by every type and foreground deliveries do not use it")
  func o14SharedBudget() throws {
    let store = makeWatchStore(budget: 2)
    try observe(store, frequency: .hourly)
    try observe(store, frequency: .hourly, type: .stepCount)
    try scaleWrites(store, 69)
    #expect(deliveries(store.settle()).count == 1)
    #expect(store.remainingBackgroundWakes == 2)
    store.backgroundApp()
    store.advance(to: at(5))
    try scaleWrites(store, 70, at: 5)
    try store.save(
      [HealthSample(type: .stepCount, value: 100, start: at(0), end: at(5))], as: otherApp)
    #expect(deliveries(store.settle()).map(\.0) == [at(5), at(5)])
    #expect(store.remainingBackgroundWakes == 0)
    try scaleWrites(store, 71, at: 5)
    #expect(deliveries(store.advance(to: at(60 * 23))).isEmpty)
    #expect(deliveries(store.advance(to: at(60 * 25))).map(\.0) == [at(60 * 24)])
  }

  @Test("O14: settings saved before the platform knobs existed decode with the defaults")
  func o14SettingsDecodeDefaults() throws {
    var settings = HealthSettings()
    settings.retryBackoff = 90
    let data = try JSONEncoder().encode(settings)
    var object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    object["platform"] = nil
    object["watchBackgroundBudgetPerDay"] = nil
    let old = try JSONSerialization.data(withJSONObject: object)
    let decoded = try JSONDecoder().decode(HealthSettings.self, from: old)
    #expect(decoded == settings)
    var watch = settings
    watch.platform = .watchOS
    watch.watchBackgroundBudgetPerDay = 7
    let roundTrip = try JSONDecoder().decode(
      HealthSettings.self, from: JSONEncoder().encode(watch))
    #expect(roundTrip == watch)
  }
}
