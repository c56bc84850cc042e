import HealthKit
import Testing

@Suite struct ModuleTests {
  @Test func foundationComesWithHealthKit() {
    // Apps write `import HealthKit` and use Date without importing Foundation, as on iOS.
    let date = Date(timeIntervalSince1970: 0)
    #expect(date.timeIntervalSince1970 == 0)
  }
}
