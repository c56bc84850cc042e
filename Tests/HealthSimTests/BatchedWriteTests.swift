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
}
