import Foundation
import HealthSim
import Testing

/// A `CheckedSample` is made only when a save would take the sample's content, refusing in
/// the save's words otherwise; saving checked samples leaves what saving the samples leaves,
/// and still refuses what depends on the store.
@Suite struct CheckedSampleTests {
  /// Samples of every kind a save refuses for its content, and some it takes.
  static let samples: [HealthSample] = {
    let running = WorkoutDetails(activityType: .running, duration: 1_800, totalEnergyBurned: 250)
    let badWorkout = WorkoutDetails(activityType: .running, duration: 600, totalDistance: -1)
    return [
      weight(70),
      weight(70.5, at: 3, syncID: "a", version: 2),
      HealthSample(type: .bodyMass, value: 70, start: at(10), end: at(9)),
      HealthSample(type: .bodyMass, value: -1, start: at(1)),
      HealthSample(type: .bodyMass, value: .nan, start: at(1)),
      HealthSample(type: .bodyMass, value: .infinity, start: at(1)),
      HealthSample(
        type: .bodyMass, value: 70, start: at(1),
        metadata: [MetadataKey.syncIdentifier: .string("a")]),
      HealthSample(
        type: .bodyMass, value: 70, start: at(1),
        metadata: [MetadataKey.syncVersion: .number(1)]),
      HealthSample(
        type: .bodyMass, value: 70, start: at(1),
        metadata: [MetadataKey.syncIdentifier: .number(1), MetadataKey.syncVersion: .number(1)]),
      HealthSample(
        type: .bodyMass, value: 70, start: at(1),
        metadata: [
          MetadataKey.syncIdentifier: .string("b"), MetadataKey.syncVersion: .number(.nan),
        ]),
      HealthSample(type: .bodyMass, value: 70, start: at(1), metadata: ["x": .number(.infinity)]),
      HealthSample(type: .bodyFatPercentage, value: 0.25, start: at(2)),
      HealthSample(type: .bodyFatPercentage, value: 25, start: at(2)),
      HealthSample(type: .workout, value: 30, start: at(4)),
      HealthSample(workout: running, start: at(5)),
      HealthSample(workout: badWorkout, start: at(6)),
      HealthSample(type: .stepCount, value: 1_200, start: at(7), end: at(8)),
    ]
  }()

  /// The check refuses a sample exactly when a save of it alone does, in the same words.
  @Test func theCheckRefusesWhatASaveRefuses() {
    for sample in Self.samples {
      var saveError: HealthError?
      do { try makeStore().save([sample], as: scaleSource) } catch { saveError = error }
      var checkError: HealthError?
      do { _ = try CheckedSample(checking: sample) } catch { checkError = error }
      #expect(checkError?.message == saveError?.message, "\(sample)")
      #expect(checkError?.code == saveError?.code, "\(sample)")
    }
  }

  /// The samples that pass, saved checked and as they are, leave the same store and feed.
  @Test func checkedSamplesAreSavedAsTheSamplesAre() throws {
    let passing = Self.samples.filter { (try? CheckedSample(checking: $0)) != nil }
    #expect(passing.count == 5)
    let checked = makeStore()
    let plain = makeStore()
    var checkedFeed: [HealthChange] = []
    var plainFeed: [HealthChange] = []
    checked.recorder = { checkedFeed.append($0) }
    plain.recorder = { plainFeed.append($0) }
    let saved = try checked.save(passing.map { try CheckedSample(checking: $0) }, as: otherApp)
    #expect(saved == (try plain.save(passing, as: otherApp)))
    #expect(checkedFeed == plainFeed)
    #expect(checked.snapshot() == plain.snapshot())
  }

  /// What depends on the store is still checked: a UUID a live sample has, twice in a save.
  @Test func aCheckedSampleIsStillRefusedForItsUUID() throws {
    let store = makeStore()
    let first = try store.save([weight(70)], as: scaleSource)[0]
    let again = HealthSample(type: .bodyMass, value: 71, start: at(1), uuid: first.uuid)
    #expect(throws: HealthError.self) {
      try store.save([try CheckedSample(checking: again)], as: scaleSource)
    }
    let uuid = UUID()
    let twice = [70.0, 71].map {
      HealthSample(type: .bodyMass, value: $0, start: at(2), uuid: uuid)
    }
    #expect(throws: HealthError.self) {
      try store.save(try twice.map { try CheckedSample(checking: $0) }, as: scaleSource)
    }
    #expect(store.allSamples(of: .bodyMass).count == 1)
  }
}
