import Foundation
import HealthSim
import Testing

@Suite("Saves while the device is locked are merged at unlock")
struct LockedSaveTests {
  @Test("a save while locked succeeds, takes no position, and is merged at unlock")
  func savedAtUnlock() throws {
    let store = makeStore()
    store.lockDevice()
    store.advance(to: at(5))
    let kept = try store.save([weight(70)])
    #expect(kept.count == 1 && kept[0].uuid != nil)
    #expect(kept[0].creationDate == at(5) && kept[0].sourceRevision == store.app)
    #expect(store.latestAnchor == .noAnchor)
    #expect(store.allSamples(of: .bodyMass).isEmpty)
    store.advance(to: at(10))
    store.unlockDevice()
    let result = try store.anchoredResult(type: .bodyMass, anchor: nil)
    #expect(result.samples == kept)
    #expect(store.position(of: kept[0].uuid!) == 1)
  }

  @Test("another source's save while locked keeps its earlier position")
  func harnessWritesFirst() throws {
    let store = makeStore()
    store.lockDevice()
    let kept = try store.save([weight(70, at: 0)])
    let scale = try scaleWrites(store, 71, at: 1)
    store.unlockDevice()
    #expect(try store.samples(of: .bodyMass).map(\.uuid) == [scale.uuid, kept[0].uuid])
  }

  @Test("observers wake once at unlock, not again when the saves are merged")
  func observersWakeAtUnlock() throws {
    let store = makeStore()
    let probe = try observe(store)
    store.lockDevice()
    try store.save([weight(70)])
    store.settle()
    #expect(probe.calls == 0)
    store.unlockDevice()
    #expect(deliveries(store.settle()).map(\.1) == [.unlock])
    #expect(probe.calls == 1)
    #expect(try store.samples(of: .bodyMass).count == 1)
    #expect(deliveries(store.settle()).isEmpty)
    #expect(probe.calls == 1)
  }

  @Test("saving a kept object again is a no-op; another object with its UUID fails with 3")
  func identityWhileLocked() throws {
    let store = makeStore()
    let sample = HealthSample(type: .bodyMass, value: 70, start: at(0), uuid: store.makeUUID())
    store.lockDevice()
    #expect(try store.save([sample]).count == 1)
    #expect(try store.save([sample]).isEmpty)
    let clash = HealthSample(type: .bodyMass, value: 72, start: at(0), uuid: sample.uuid)
    #expect { try store.save([clash]) } throws: {
      ($0 as? HealthError)?.code == .errorInvalidArgument
    }
    store.unlockDevice()
    #expect(store.liveSampleCount(of: .bodyMass) == 1)
  }

  @Test("permissions and checks still apply while locked; deleting fails with 6")
  func checksWhileLocked() throws {
    let store = makeStore()
    let saved = try store.save([weight(70)])
    store.lockDevice()
    #expect { try store.delete(saved) } throws: {
      ($0 as? HealthError)?.code == .errorDatabaseInaccessible
    }
    #expect { try store.save([weight(-1)]) } throws: {
      ($0 as? HealthError)?.code == .errorInvalidArgument
    }
    store.setWriteAuthorization(.denied, for: [.bodyMass])
    #expect { try store.save([weight(70)]) } throws: {
      ($0 as? HealthError)?.code == .errorAuthorizationDenied
    }
    store.setHealthDataAvailable(false)
    #expect { try store.save([weight(70)]) } throws: {
      ($0 as? HealthError)?.code == .errorHealthDataUnavailable
    }
  }

  @Test("a correlation saved while locked is merged with its objects")
  func correlationWhileLocked() throws {
    let store = makeStore()
    store.lockDevice()
    let kept = try store.save([pressure(120, 80)])
    #expect(kept[0].objects?.allSatisfy { $0.uuid != nil } == true)
    store.unlockDevice()
    #expect(try store.samples(of: .bloodPressure) == kept)
    #expect(store.liveSampleCount(of: .bloodPressureDiastolic) == 1)
  }

  @Test("kept saves survive the snapshot and the change feed")
  func persistence() throws {
    let store = makeStore()
    var feed: [HealthChange] = []
    store.recorder = { feed.append($0) }
    store.lockDevice()
    let kept = try store.save([weight(70, syncID: "w-1", version: 1)])
    let decoded = try JSONDecoder().decode(
      HealthSnapshot.self, from: JSONEncoder().encode(store.snapshot()))
    let restored = HealthStore(snapshot: decoded)
    store.unlockDevice()
    #expect(try store.samples(of: .bodyMass) == kept)
    let replayed = HealthStore(clock: epoch)
    for change in feed { replayed.apply(change) }
    #expect(try replayed.samples(of: .bodyMass) == kept)
    restored.unlockDevice()
    #expect(try restored.samples(of: .bodyMass) == kept)
    #expect(restored.latestAnchor == store.latestAnchor)
  }
}
