import HealthKit
import Testing

@Suite struct StatisticsDescriptorTests {
  @Test func aStatisticsDescriptorSumsTheStepsThatMatch() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let steps = HKQuantityType(.stepCount)
      let start = device.now
      for (offset, count) in [(0.0, 400.0), (600, 600), (7200, 1000)] {
        try await store.save(
          HKQuantitySample(
            type: steps, quantity: HKQuantity(unit: .count(), doubleValue: count),
            start: start.addingTimeInterval(offset), end: start.addingTimeInterval(offset + 60)))
      }
      let firstHour = HKQuery.predicateForSamples(
        withStart: start, end: start.addingTimeInterval(3600), options: .strictStartDate)
      let statistics = try await HKStatisticsQueryDescriptor(
        predicate: .quantitySample(type: steps, predicate: firstHour), options: .cumulativeSum
      ).result(for: store)
      #expect(statistics?.sumQuantity()?.doubleValue(for: .count()) == 1000)
    }
  }
}
