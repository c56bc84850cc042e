import HealthSim
import Testing

@testable import WeighKit

/// The writer's per-type tally (`HealthSQLiteTypeTally`) answers as the two dictionaries
/// keyed by type that it replaces, for random counts and durations of every type.
@Suite struct HealthSQLiteTypeTallyTests {
  @Test func theTallyAnswersAsDictionariesKeyedByType() {
    var random = SeededGenerator(seed: 12)
    for _ in 0..<200 {
      var tally = HealthSQLiteTypeTally()
      var counts: [SampleType: (samples: Int64, deletions: Int64)] = [:]
      var longest: [SampleType: Double] = [:]
      for _ in 0..<Int.random(in: 0...40, using: &random) {
        let type = SampleType.allCases.randomElement(using: &random)!
        if Bool.random(using: &random) {
          let isDeletion = Bool.random(using: &random)
          let delta: Int64 = Bool.random(using: &random) ? 1 : -1
          tally.count(type, isDeletion: isDeletion, by: delta)
          if isDeletion {
            counts[type, default: (0, 0)].deletions += delta
          } else {
            counts[type, default: (0, 0)].samples += delta
          }
        } else {
          let duration = Double(Int.random(in: 0...100, using: &random))
          tally.noteDuration(duration, of: type)
          longest[type] = max(longest[type] ?? 0, duration)
        }
      }
      #expect(tally.longest == longest)
      #expect(tally.counts.count == counts.count)
      for type in SampleType.allCases {
        #expect(tally.counts[type]?.samples == counts[type]?.samples)
        #expect(tally.counts[type]?.deletions == counts[type]?.deletions)
        #expect(tally.counts(of: type)?.samples == counts[type]?.samples)
        #expect(tally.counts(of: type)?.deletions == counts[type]?.deletions)
        #expect(tally.longest(of: type) == longest[type])
      }
    }
  }
}
