import Foundation
import HealthSim
import Testing

/// A save's plain samples go to the storage in one `apply`; a sample with a sync identifier
/// first applies those before it, so that its replacement sees them.
@Suite struct BatchedWriteTests {
  @Test func plainSamplesAreAppliedInOneCall() throws {
    let storage = FailingStorage(failingAfter: 10_000)
    let store = HealthStore(storage: storage, clock: epoch)
    let before = storage.callsLeft
    let saved = try store.save(
      (0..<100).map { weight(70 + Double($0) / 10, at: Double($0)) },
      as: scaleSource)
    #expect(saved.count == 100)
    #expect(Set(saved.compactMap(\.uuid)).count == 100)
    // One look-up of each new UUID, one apply of the samples, one of the small state (one
    // apply per sample would make it 200 and more).
    let calls = before - storage.callsLeft
    #expect(calls <= 105, "the save made \(calls) storage calls")
    #expect(store.allSamples(of: .bodyMass).map(\.uuid) == saved.map(\.uuid))
  }

  @Test func aReplacementInTheSameSaveSeesTheSamplesBeforeIt() throws {
    let store = makeStore()
    var feed: [HealthChange] = []
    store.recorder = { feed.append($0) }
    let saved = try store.save(
      [
        weight(70), weight(71, at: 1, syncID: "a", version: 1), weight(72, at: 2),
        weight(73, at: 3, syncID: "a", version: 2), weight(74, at: 4),
      ], as: scaleSource)
    #expect(saved.map(\.value) == [70, 71, 72, 73, 74])
    #expect(store.allSamples(of: .bodyMass).map(\.value) == [70, 72, 73, 74])
    var positions: [String] = []
    for change in feed {
      switch change {
      case .sampleSaved(let sample, let position):
        positions.append("save \(sample.value)@\(position)")
      case .sampleDeleted(_, let position, _): positions.append("delete@\(position)")
      default: continue
      }
    }
    #expect(
      positions == [
        "save 70.0@1", "save 71.0@2", "save 72.0@3", "delete@4", "save 73.0@5", "save 74.0@6",
      ])
    let records = store.snapshot().records.map(\.position)
    #expect(records == [1, 3, 4, 5, 6])
  }

  /// The samples of one save and the same samples saved one at a time leave the same store:
  /// the same UUIDs (a batch's are drawn first and looked up in one read), positions,
  /// change feed and small state, the generator's included.
  @Test func aBatchLeavesWhatOneSaveAtATimeLeaves() throws {
    let samples = (0..<40).map { weight(60 + Double($0) / 4, at: Double($0)) }
    let batched = makeStore()
    let single = makeStore()
    var batchedFeed: [HealthChange] = []
    var singleFeed: [HealthChange] = []
    batched.recorder = { batchedFeed.append($0) }
    single.recorder = { singleFeed.append($0) }
    let saved = try batched.save(samples, as: scaleSource)
    let savedOneByOne = try samples.flatMap { try single.save([$0], as: scaleSource) }
    #expect(saved == savedOneByOne)
    #expect(batchedFeed.filter(\.isSave) == singleFeed.filter(\.isSave))
    #expect(batched.snapshot() == single.snapshot())
    // The generator goes on from the same place.
    #expect(
      try batched.save([weight(80, at: 100)], as: scaleSource).map(\.uuid)
        == single.save([weight(80, at: 100)], as: scaleSource).map(\.uuid))
  }

  /// A generator seeded again draws the UUIDs of live samples again: a batch skips them, in
  /// order, as one save at a time does, and saves every sample under a new UUID.
  @Test func aBatchSkipsTheUUIDsOfLiveSamplesAsOneSaveAtATimeDoes() throws {
    let batched = makeStore()
    let single = makeStore()
    let first = (0..<3).map { weight(70 + Double($0), at: Double($0)) }
    let earlier = try batched.save(first, as: scaleSource)
    #expect(try single.save(first, as: scaleSource) == earlier)
    batched.seed(7)
    single.seed(7)
    let samples = (0..<6).map { weight(80 + Double($0), at: 10 + Double($0)) }
    let saved = try batched.save(samples, as: scaleSource)
    let savedOneByOne = try samples.flatMap { try single.save([$0], as: scaleSource) }
    #expect(saved == savedOneByOne)
    let uuids = Set((earlier + saved).compactMap(\.uuid))
    #expect(uuids.count == 9)
    #expect(batched.snapshot() == single.snapshot())
  }
}

extension HealthChange {
  fileprivate var isSave: Bool {
    if case .sampleSaved = self { return true }
    return false
  }
}
