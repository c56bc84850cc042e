import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// `summary DAY`'s latest glucose reading, found through widening windows, is the one the
/// statistics query over every earlier sample gives (value, dates and source priority).
@Suite struct SummaryMostRecentTests {
  private let epoch = Date(timeIntervalSince1970: 1_767_225_600)
  private let sources = [
    SourceRevision(source: HealthSource(name: "Meter", bundleIdentifier: "com.example.meter")),
    SourceRevision(source: HealthSource(name: "Pump", bundleIdentifier: "com.apple.pump")),
  ]

  @Test(arguments: 0..<40)
  func windowedAnswerIsTheWholeHistorysAnswer(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let store = HealthStore(seed: seed, clock: epoch.addingTimeInterval(400 * 86_400))
    // Readings spread over years, some long, some ending together, some far apart.
    let count = Int(random.next() % 30)
    for _ in 0..<count {
      let start = epoch.addingTimeInterval(
        -Double(random.next() % (3 * 365)) * 86_400
          + Double(random.next() % 4) * 3_600)
      let duration = random.next() % 3 == 0 ? Double(random.next() % 40) * 86_400 : 0
      let sample = HealthSample(
        type: .bloodGlucose, value: Double(4 + random.next() % 8),
        start: start, end: start.addingTimeInterval(duration))
      try store.save([sample], as: sources[Int(random.next() % 2)])
    }
    for offset in [-2_000, -400, -30, -1, 0, 1, 200] {
      let end = epoch.addingTimeInterval(Double(offset) * 86_400)
      let windowed = try Session.mostRecent(.bloodGlucose, before: end, in: store)
      let whole = try store.statistics(
        of: .bloodGlucose, predicate: .samples(withStart: nil, end: end), options: .mostRecent
      ).merged
      #expect(windowed.mostRecent == whole.mostRecent, "seed \(seed), day \(offset)")
      #expect(
        windowed.mostRecentDateInterval == whole.mostRecentDateInterval,
        "seed \(seed), day \(offset)")
    }
  }
}
