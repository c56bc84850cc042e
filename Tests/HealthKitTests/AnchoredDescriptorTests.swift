import HealthKit
import Testing

/// HKAnchoredObjectQueryDescriptor with async/await: one result, and a long-running
/// sequence of results (A16–A21).
@Suite struct AnchoredDescriptorTests {
  let weight = Make.weightType

  @Test func resultReadsAfterTheAnchorAndPagesWithALimit() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let saved = [70.0, 71, 72].map { Make.weight($0, at: device.now) }
      try await store.save(saved)
      var anchor: HKQueryAnchor?
      var read: [UUID] = []
      for _ in 0..<3 {
        let descriptor = HKAnchoredObjectQueryDescriptor(
          predicates: [.quantitySample(type: weight)], anchor: anchor, limit: 2)
        let result = try await descriptor.result(for: store)
        read += result.addedSamples.map(\.uuid)
        anchor = result.newAnchor
      }
      #expect(read == saved.map(\.uuid))
      try await store.delete(saved[1])
      let descriptor = HKAnchoredObjectQueryDescriptor(
        predicates: [.quantitySample(type: weight)], anchor: anchor)
      let result = try await descriptor.result(for: store)
      #expect(result.addedSamples.isEmpty)
      #expect(result.deletedObjects.map(\.uuid) == [saved[1].uuid])
    }
  }

  @Test func resultsYieldTheInitialBatchThenEachChange() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let first = Make.weight(70, at: device.now)
      try await store.save(first)
      let descriptor = HKAnchoredObjectQueryDescriptor(
        predicates: [.quantitySample(type: weight)], anchor: nil)
      #expect(device.runningQueries == 0)
      var batches: [HKAnchoredObjectQueryDescriptor<HKQuantitySample>.Result] = []
      let second = Make.weight(71, at: device.now)
      for try await result in descriptor.results(for: store) {
        batches.append(result)
        if batches.count == 1 {
          #expect(device.runningQueries == 1)
          try await store.save(second)
          await device.settle()
        } else if batches.count == 2 {
          try await store.delete(first)
          await device.settle()
        } else {
          break
        }
      }
      #expect(batches.count == 3)
      #expect(batches.map { $0.addedSamples.map(\.uuid) } == [[first.uuid], [second.uuid], []])
      #expect(batches[2].deletedObjects.map(\.uuid) == [first.uuid])
      #expect(batches[2].addedSamples.isEmpty)
      // Each batch's anchor moves on; an anchored read from the last one finds nothing.
      let last = try await store.changes(of: weight, after: batches[2].newAnchor)
      #expect(last.samples.isEmpty && last.deleted.isEmpty)
      // Leaving the loop stopped the query.
      #expect(device.runningQueries == 0)
    }
  }

  @Test func endingTheReadingTaskStopsTheQuery() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let descriptor = HKAnchoredObjectQueryDescriptor(
        predicates: [.quantitySample(type: weight)], anchor: nil)
      let batches = Locked(0)
      let reader = Task {
        for try await _ in descriptor.results(for: store) { batches.increment() }
      }
      while batches.value == 0 { await Task.yield() }
      #expect(device.runningQueries == 1)
      reader.cancel()
      _ = await reader.result
      #expect(device.runningQueries == 0)
      try await store.save(Make.weight(70, at: device.now))
      await device.settle()
      #expect(batches.value == 1)
    }
  }

  @Test func theSampleDescriptorAndTheAnchoredOneAgree() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      try await store.save([70.0, 71, 72].map { Make.weight($0, at: device.now) })
      try device.saveAsOtherApp(
        [Make.weight(90, at: device.now)], name: "Scale", bundleIdentifier: "com.example.scale")
      let mine = HKQuery.predicateForObjects(from: HKSource.default())
      let anchored = try await HKAnchoredObjectQueryDescriptor(
        predicates: [.quantitySample(type: weight, predicate: mine)], anchor: nil
      ).result(for: store)
      let sampled = try await HKSampleQueryDescriptor(
        predicates: [.quantitySample(type: weight, predicate: mine)], sortDescriptors: []
      ).result(for: store)
      #expect(anchored.addedSamples.count == 3)
      #expect(Set(anchored.addedSamples.map(\.uuid)) == Set(sampled.map(\.uuid)))
    }
  }
}
