import HealthKit
import Testing

/// Queries over several types made from HKQueryDescriptor (iOS 15).
@Suite struct QueryDescriptorTests {
  let weight = HKQuantityType(.bodyMass)
  let steps = HKQuantityType(.stepCount)

  func save(_ store: HKHealthStore, _ device: SimulatedDevice) async throws {
    let now = device.now
    try await store.save([
      HKQuantitySample(
        type: weight, quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70),
        start: now, end: now),
      HKQuantitySample(
        type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 500),
        start: now, end: now.addingTimeInterval(60)),
    ])
  }

  @Test func anAnchoredQueryOverTwoTypesReturnsBothInOneCall() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      try await save(store, device)
      let calls = Locked<[[HKSample]]>([])
      let query = HKAnchoredObjectQuery(
        queryDescriptors: [
          HKQueryDescriptor(sampleType: weight, predicate: nil),
          HKQueryDescriptor(sampleType: steps, predicate: nil),
        ], anchor: nil, limit: HKObjectQueryNoLimit
      ) { _, samples, _, anchor, error in
        #expect(error == nil)
        #expect(anchor != nil)
        calls.update { $0.append(samples ?? []) }
      }
      #expect(query.objectType == nil)
      store.execute(query)
      let received = calls.value
      #expect(received.count == 1)
      #expect(
        Set(received.first?.map(\.sampleType.identifier) ?? []) == [
          weight.identifier, steps.identifier,
        ])
    }
  }

  @Test func anObserverOverTwoTypesIsToldWhichTypeChanged() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let changed = Locked<[Set<HKSampleType>?]>([])
      let query = HKObserverQuery(
        queryDescriptors: [
          HKQueryDescriptor(sampleType: weight, predicate: nil),
          HKQueryDescriptor(sampleType: steps, predicate: nil),
        ]
      ) { _, types, completionHandler, _ in
        changed.update { $0.append(types) }
        completionHandler()
      }
      store.execute(query)
      try await store.save(
        HKQuantitySample(
          type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 10),
          start: device.now, end: device.now))
      await device.settle()
      #expect(changed.value == [[steps]])
      store.stop(query)
      try await save(store, device)
      await device.settle()
      #expect(changed.value.count == 1)
    }
  }
}

@Suite struct MultiTypePagingTests {
  @Test func pagingTwoTypesWithALimitMissesNothing() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let weight = HKQuantityType(.bodyMass)
      let height = HKQuantityType(.height)
      var saved: [UUID] = []
      for index in 0..<4 {
        let date = device.now.addingTimeInterval(Double(index) * 60)
        let sample =
          index.isMultiple(of: 2)
          ? HKQuantitySample(
            type: weight, quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70),
            start: date, end: date)
          : HKQuantitySample(
            type: height, quantity: HKQuantity(unit: .meter(), doubleValue: 1.8), start: date,
            end: date)
        try await store.save(sample)
        saved.append(sample.uuid)
      }
      var anchor: HKQueryAnchor?
      var read: [UUID] = []
      for _ in 0..<6 {
        let page = try await HKAnchoredObjectQueryDescriptor(
          predicates: [.quantitySample(type: weight), .quantitySample(type: height)],
          anchor: anchor, limit: 1
        ).result(for: store)
        read += page.addedSamples.map(\.uuid)
        anchor = page.newAnchor
      }
      #expect(read == saved)
    }
  }
}
