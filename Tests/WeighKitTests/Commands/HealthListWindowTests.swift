import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// `health list TYPE RANGE` reads Health from the range's first instant, or for `last N` from
/// a window back from the newest start, and selects exactly what it selected from every
/// sample of the type.
@Suite struct HealthListWindowTests {
  /// Steps at random starts over about 40 years up to the golden clock, some far apart (so
  /// `last N` widens its window several times), several within one second (ties kept in
  /// change order) and some at fractions of a second; a few saved out of time order.
  static func session(seed: UInt64) throws -> Session {
    let session = try Session(options: .golden, output: CapturedOutput())
    var random = SeededGenerator(seed: seed)
    let now = Double(session.now)
    var starts: [Double] = []
    for _ in 0..<60 {
      switch random.next() % 4 {
      case 0: starts.append(now - Double(random.next() % 40 * 365 * 86_400))
      case 1: starts.append(now - Double(random.next() % (3 * 86_400)))
      case 2: starts.append((starts.last ?? now - 86_400).rounded(.down) + 0.25)
      default: starts.append(now - Double(random.next() % (60 * 86_400)) - 0.5)
      }
    }
    let samples = starts.enumerated().map { index, start in
      HealthSample(
        type: .stepCount, value: Double(index + 1), start: Date(timeIntervalSince1970: start))
    }
    let revision = SourceRevision(
      source: HealthSource(name: "Phone", bundleIdentifier: "sim.phone"))
    try session.health().save(samples, as: revision)
    return session
  }

  static let ranges: [EntryRange] = [
    .all, .last(1), .last(2), .last(5), .last(17), .last(59), .last(60), .last(1_000), .today,
    .week, .month, .since(1_767_254_400 - 10 * 86_400),
    .between(1_767_254_400 - 400 * 86_400, 1_767_254_400 - 86_400),
    .back(TimeSpan(seconds: 36 * 3_600)),
  ]

  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func aWindowSelectsWhatEverySampleGave(seed: UInt64) throws {
    let session = try Self.session(seed: seed)
    let health = try session.health()
    let every = health.allSamples(of: .stepCount)
    #expect(every.count == 60)
    for range in Self.ranges {
      let expected = range.select(every, instant: \.startInstant, in: session)
      let result = try HealthListCommand(kind: "steps", range: range).execute(in: session)
      guard case .healthSamples(let list) = result.items.first else {
        Issue.record("no samples listed for \(range)")
        continue
      }
      #expect(list.samples.map(\.value) == expected.map(\.value), "\(range), seed \(seed)")
    }
  }

  @Test func aTypeWithoutSamplesListsNone() throws {
    let session = try Self.session(seed: 5)
    let result = try HealthListCommand(kind: "glucose", range: .last(3)).execute(in: session)
    guard case .healthSamples(let list) = result.items.first else {
      Issue.record("no list")
      return
    }
    #expect(list.samples.isEmpty)
  }
}
