import HealthKit
import Testing

/// HKSampleQuery and HKSampleQueryDescriptor: order, limit and predicates (Q1–Q5).
@Suite struct SampleQueryTests {
  let weight = Make.weightType

  /// Five of the app's samples an hour apart, saved out of date order, and two of a scale.
  struct Seeded {
    let start: Date
    let mine: [HKQuantitySample]
    let scale: [HKQuantitySample]
    var all: [HKQuantitySample] { mine + scale }
  }

  func seed(_ device: SimulatedDevice, _ store: HKHealthStore) async throws -> Seeded {
    let start = device.now
    let hours = [2.0, 0, 4, 1, 3]
    let mine = hours.map { hour in
      Make.weight(
        70 + hour, at: start.addingTimeInterval(hour * 3600),
        metadata: [
          HKMetadataKeyWasUserEntered: hour < 2, "Meal": hour < 3 ? "before" : "after",
          "Score": hour,
        ])
    }
    try await store.save(mine)
    let scale = [0.5, 3.5].map { Make.weight(80 + $0, at: start.addingTimeInterval($0 * 3600)) }
    try device.saveAsOtherApp(scale, name: "Scale", bundleIdentifier: "com.example.scale")
    return Seeded(start: start, mine: mine, scale: scale)
  }

  func uuids(_ samples: [HKQuantitySample], sortedByStart ascending: Bool) -> [UUID] {
    samples.sorted { ascending ? $0.startDate < $1.startDate : $0.startDate > $1.startDate }
      .map(\.uuid)
  }

  @Test func nsSortDescriptorOnStartDateDescendingWithALimit() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let seeded = try await seed(device, store)
      let newestFirst = [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)]
      let all = try await store.samples(of: weight, sortDescriptors: newestFirst)
      #expect(all.map(\.uuid) == uuids(seeded.all, sortedByStart: false))
      let latest = try await store.samples(of: weight, limit: 1, sortDescriptors: newestFirst)
      #expect(latest.map(\.uuid) == [seeded.mine[2].uuid])
      let oldestTwo = try await store.samples(
        of: weight, limit: 2,
        sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: true)])
      #expect(oldestTwo.map(\.uuid) == [seeded.mine[1].uuid, seeded.scale[0].uuid])
      // Without sort descriptors, in save order.
      let unsorted = try await store.samples(of: weight)
      #expect(unsorted.map(\.uuid) == seeded.all.map(\.uuid))
    }
  }

  @Test func sortDescriptorKeyPathsInADescriptor() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let seeded = try await seed(device, store)
      let descriptor = HKSampleQueryDescriptor(
        predicates: [.quantitySample(type: weight)],
        sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)], limit: 3)
      let samples = try await descriptor.result(for: store)
      #expect(samples.map(\.uuid) == Array(uuids(seeded.all, sortedByStart: false).prefix(3)))
      #expect(samples.first?.quantity.doubleValue(for: Make.kilogram) == 74)
      let forward = HKSampleQueryDescriptor(
        predicates: [.quantitySample(type: weight)], sortDescriptors: [SortDescriptor(\.startDate)])
      #expect(
        try await forward.result(for: store).map(\.uuid) == uuids(seeded.all, sortedByStart: true))
    }
  }

  @Test func compoundPredicatesOfDatesAndSources() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let seeded = try await seed(device, store)
      let firstTwoHours = HKQuery.predicateForSamples(
        withStart: seeded.start, end: seeded.start.addingTimeInterval(1.75 * 3600),
        options: .strictStartDate)
      let mine = HKQuery.predicateForObjects(from: HKSource.default())
      let startOrder = [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)]

      let both = NSCompoundPredicate(andPredicateWithSubpredicates: [firstTwoHours, mine])
      let anded = try await store.samples(of: weight, predicate: both, sortDescriptors: startOrder)
      #expect(anded.map(\.uuid) == [seeded.mine[1].uuid, seeded.mine[3].uuid])

      let either = NSCompoundPredicate(orPredicateWithSubpredicates: [
        HKQuery.predicateForObjects(with: [seeded.mine[4].uuid]), firstTwoHours,
      ])
      let ored = try await store.samples(of: weight, predicate: either, sortDescriptors: startOrder)
      #expect(
        ored.map(\.uuid) == [
          seeded.mine[1].uuid, seeded.scale[0].uuid, seeded.mine[3].uuid, seeded.mine[4].uuid,
        ])

      let notMine = NSCompoundPredicate(notPredicateWithSubpredicate: mine)
      let others = try await store.samples(of: weight, predicate: notMine)
      #expect(others.map(\.uuid) == seeded.scale.map(\.uuid))
      #expect(others.allSatisfy { $0.sourceRevision.source.name == "Scale" })

      let nested = NSCompoundPredicate(andPredicateWithSubpredicates: [
        notMine, NSCompoundPredicate(notPredicateWithSubpredicate: firstTwoHours),
      ])
      #expect(
        try await store.samples(of: weight, predicate: nested).map(\.uuid) == [seeded.scale[1].uuid]
      )
    }
  }

  @Test func metadataPredicates() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let seeded = try await seed(device, store)
      let sorted = [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)]
      // Every app sample has the key (true or false); the scale's have no metadata.
      let keyed = try await store.samples(
        of: weight,
        predicate: HKQuery.predicateForObjects(withMetadataKey: HKMetadataKeyWasUserEntered))
      #expect(Set(keyed.map(\.uuid)) == Set(seeded.mine.map(\.uuid)))
      let entered = try await store.samples(
        of: weight,
        predicate: HKQuery.predicateForObjects(
          withMetadataKey: HKMetadataKeyWasUserEntered, allowedValues: [true]),
        sortDescriptors: sorted)
      #expect(entered.map(\.uuid) == [seeded.mine[1].uuid, seeded.mine[3].uuid])
      let after = try await store.samples(
        of: weight,
        predicate: HKQuery.predicateForObjects(withMetadataKey: "Meal", allowedValues: ["after"]),
        sortDescriptors: sorted)
      #expect(after.map(\.uuid) == [seeded.mine[4].uuid, seeded.mine[2].uuid])
      let high = try await store.samples(
        of: weight,
        predicate: HKQuery.predicateForObjects(
          withMetadataKey: "Score", operatorType: .greaterThanOrEqualTo, value: 3),
        sortDescriptors: sorted)
      #expect(high.map(\.uuid) == [seeded.mine[4].uuid, seeded.mine[2].uuid])
      let notOne = try await store.samples(
        of: weight,
        predicate: HKQuery.predicateForObjects(
          withMetadataKey: "Score", operatorType: .notEqualTo, value: 1))
      #expect(notOne.count == 4)
      #expect(notOne.allSatisfy { ($0.metadata?["Score"] as? NSNumber)?.intValue != 1 })
    }
  }

  @Test func predicateForObjectsWithUUIDs() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let seeded = try await seed(device, store)
      let wanted: Set<UUID> = [seeded.mine[0].uuid, seeded.scale[1].uuid, UUID()]
      let found = try await store.samples(
        of: weight, predicate: HKQuery.predicateForObjects(with: wanted))
      #expect(Set(found.map(\.uuid)) == [seeded.mine[0].uuid, seeded.scale[1].uuid])
      let one = try await store.samples(
        of: weight, predicate: HKQuery.predicateForObject(with: seeded.mine[3].uuid))
      #expect(one.map(\.uuid) == [seeded.mine[3].uuid])
      let none = try await store.samples(
        of: weight, predicate: HKQuery.predicateForObjects(with: []))
      #expect(none.isEmpty)
    }
  }

  @Test func samplesComeBackAsTheAppSavedThem() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let scale = HKDevice(
        name: "Body+", manufacturer: "Withings", model: "WBS05", hardwareVersion: nil,
        firmwareVersion: nil, softwareVersion: "1.2", localIdentifier: nil, udiDeviceIdentifier: nil
      )
      let pounds = HKQuantitySample(
        type: weight, quantity: HKQuantity(unit: .pound(), doubleValue: 154),
        start: device.now, end: device.now, device: scale,
        metadata: [HKMetadataKeyExternalUUID: "abc", "Fraction": 0.25])
      try await store.save(pounds)
      let read = try #require(try await store.samples(of: weight).first as? HKQuantitySample)
      #expect(read.uuid == pounds.uuid)
      #expect(read.quantity.doubleValue(for: .pound()) == 154)
      #expect(abs(read.quantity.doubleValue(for: Make.kilogram) - 154 * 0.45359237) < 1e-9)
      #expect(read.device == scale)
      #expect(read.device?.manufacturer == "Withings")
      #expect(read.metadata?[HKMetadataKeyExternalUUID] as? String == "abc")
      #expect((read.metadata?["Fraction"] as? NSNumber)?.doubleValue == 0.25)
      #expect(read.sourceRevision.source == HKSource.default())
      #expect(read.sampleType == weight)
      let devices = try await store.samples(
        of: weight, predicate: HKQuery.predicateForObjects(from: [scale]))
      #expect(devices.map(\.uuid) == [pounds.uuid])
    }
  }
}
