import Foundation
import Testing

@testable import HealthSim

/// A batch's drawn UUIDs known free (`HealthStore.write`'s fast path: no set of the pending
/// UUIDs) and the general path leave the same store as one save at a time.
@Suite struct DrawnUUIDTests {
  @Test func distinctUUIDsAgreeWithASet() {
    var generator = SeededGenerator(seed: 11)
    for round in 0..<200 {
      let count = Int(truncatingIfNeeded: generator.next() % 300)
      var uuids = (0..<count).map { _ in generator.nextUUID() }
      // Every other round repeats one, or makes UUIDs that differ only in their first half.
      if round % 2 == 1, count > 1 {
        let from = Int(truncatingIfNeeded: generator.next() % UInt64(count))
        let to = Int(truncatingIfNeeded: generator.next() % UInt64(count))
        uuids[to] = uuids[from]
      }
      if round % 7 == 3 {
        uuids = (0..<count).map { index in
          var bytes = uuids[0].uuid
          bytes.0 = UInt8(truncatingIfNeeded: index)
          bytes.1 = UInt8(truncatingIfNeeded: index >> 8) & (round % 14 == 3 ? 0 : 0xFF)
          return UUID(uuid: bytes)
        }
      }
      #expect(DistinctUUIDs.areDistinct(uuids) == (Set(uuids).count == uuids.count))
    }
  }

  /// The UUID built from the two draws in place is the one the bytes of an array made.
  @Test func aDrawnUUIDIsTheTwoDrawsBytes() {
    for seed in [UInt64(0), 1, 7, 42, .max] {
      var generator = SeededGenerator(seed: seed)
      var words = generator
      for _ in 0..<500 {
        let high = words.next()
        let low = words.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
          bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
          bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index)))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = generator.nextUUID()
        #expect(withUnsafeBytes(of: uuid.uuid) { Array($0) } == bytes)
      }
      #expect(generator == words)
    }
  }

  /// Random batches, some with given UUIDs (one the generator draws next), the generator
  /// seeded again between some (so that drawn UUIDs are live ones'), saved in one call and
  /// one sample at a time, then reopened from the snapshot and saved to again.
  @Test func randomBatchesLeaveWhatOneSaveAtATimeLeaves() throws {
    var random = SeededGenerator(seed: 5)
    let batched = makeStore()
    let single = makeStore()
    var minute = 0.0
    for round in 0..<30 {
      if round % 4 == 2 {
        let seed = random.next() % 3
        batched.seed(seed)
        single.seed(seed)
      }
      let count = 1 + Int(truncatingIfNeeded: random.next() % 40)
      var samples: [HealthSample] = []
      for index in 0..<count {
        minute += 1
        var uuid: UUID?
        if round % 3 == 1, index == 0 {
          // The UUID the generator draws next (or a later one): the drawn must skip it.
          let probe = HealthStore(seed: 0, clock: epoch)
          probe.seed(random.next() % 3)
          uuid = (0...(random.next() % 4)).map { _ in probe.makeUUID() }.last
          if uuid.map({ single.sample(with: $0) != nil }) == true { uuid = nil }
        }
        samples.append(
          HealthSample(
            type: .bodyMass, value: 60 + Double(index), start: at(minute), uuid: uuid))
      }
      let saved = try batched.save(samples, as: scaleSource)
      let savedOneByOne = try samples.flatMap { try single.save([$0], as: scaleSource) }
      #expect(saved == savedOneByOne)
      #expect(Set(saved.compactMap(\.uuid)).count == saved.count)
    }
    #expect(batched.snapshot() == single.snapshot())
    let reopened = HealthStore(snapshot: batched.snapshot())
    let more = (0..<20).map { weight(90, at: minute + 1 + Double($0)) }
    #expect(
      try reopened.save(more, as: scaleSource)
        == more.flatMap { try single.save([$0], as: scaleSource) })
    #expect(reopened.snapshot() == single.snapshot())
  }

  /// A batch with a UUID repeated in it is refused whole, on either path, and nothing moves.
  @Test func aRepeatedUUIDInABatchIsRefused() throws {
    let store = makeStore()
    let uuid = UUID()
    let samples = [
      weight(70, at: 1),
      HealthSample(type: .bodyMass, value: 71, start: at(2), uuid: uuid),
      weight(72, at: 3),
      HealthSample(type: .bodyMass, value: 73, start: at(4), uuid: uuid),
    ]
    let before = store.snapshot()
    #expect(throws: HealthError.self) { try store.save(samples, as: scaleSource) }
    #expect(store.snapshot() == before)
  }
}
