import HealthKit
import Testing

/// Objects have their UUID from creation; saving and deleting find them by it (S1–S6).
@Suite struct ObjectIdentityTests {
  let weight = Make.weightType

  @Test func aNewObjectHasItsUUIDAndTheRunningAppAsSource() {
    let device = SimulatedDevice(appName: "Tracker", bundleIdentifier: "com.example.tracker")
    device.run {
      let first = Make.weight(70, at: device.now)
      let second = Make.weight(70, at: device.now)
      #expect(first.uuid != second.uuid)
      #expect(first != second)
      #expect(first.sourceRevision.source.bundleIdentifier == "com.example.tracker")
      #expect(first.sourceRevision.source.name == "Tracker")
      #expect(HKSource.default().bundleIdentifier == "com.example.tracker")
    }
  }

  @Test func theSameSeedGivesTheSameUUIDs() {
    func uuids() -> [UUID] {
      let device = SimulatedDevice(seed: 42)
      return device.run { (0..<3).map { _ in Make.weight(70, at: device.now).uuid } }
    }
    #expect(uuids() == uuids())
    let other = SimulatedDevice(seed: 43)
    #expect(other.run { Make.weight(70, at: other.now).uuid } != uuids()[0])
  }

  @Test func savingAnObjectAlreadySavedIsANoOpSuccess() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let sample = Make.weight(70, at: device.now)
      try await store.save(sample)
      let synced = try await store.changes(of: weight, after: nil)
      try await store.save(sample)
      let change = try await store.changes(of: weight, after: synced.anchor)
      #expect(change.samples.isEmpty)
      #expect(change.anchor == synced.anchor)
      #expect(try await store.samples(of: weight).count == 1)
    }
  }

  @Test func aBatchSaveIsAllOrNothing() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let good = Make.weight(70, at: device.now)
      let bad = Make.weight(71, at: device.now, metadata: [HKMetadataKeySyncVersion: 1])
      await #expect(throws: HKError(.errorInvalidArgument)) { try await store.save([good, bad]) }
      #expect(try await store.samples(of: weight).isEmpty)
      try await store.save([good])
      #expect(try await store.samples(of: weight).map(\.uuid) == [good.uuid])
    }
  }

  @Test func deleteObjectsOfATypeCountsTheAppsOwnMatches() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let start = device.now
      try await store.save(
        (0..<4).map { Make.weight(70, at: start.addingTimeInterval(Double($0) * 3600)) })
      try device.saveAsOtherApp(
        [Make.weight(80, at: start)], name: "Scale", bundleIdentifier: "com.example.scale")
      let synced = try await store.changes(of: weight, after: nil)
      let firstTwoHours = HKQuery.predicateForSamples(
        withStart: start, end: start.addingTimeInterval(5400), options: .strictStartDate)
      let count = Locked<(Bool, Int)?>(nil)
      store.deleteObjects(of: weight, predicate: firstTwoHours) { success, deleted, _ in
        count.update { $0 = (success, deleted) }
      }
      #expect(count.value?.0 == true)
      #expect(count.value?.1 == 2)
      let change = try await store.changes(of: weight, after: synced.anchor)
      #expect(change.deleted.count == 2)
      #expect(try await store.samples(of: weight).count == 3)
    }
  }

  @Test func onlySamplesCanBeSavedAndAWorkoutRoundTrips() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let workout = HKWorkout(
        activityType: .running, start: device.now, end: device.now.addingTimeInterval(1800),
        duration: 1800, totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 320),
        totalDistance: nil, metadata: [HKMetadataKeyIndoorWorkout: false])
      try await store.save(workout)
      let read = try await store.samples(of: HKObjectType.workoutType())
      let found = try #require(read.first as? HKWorkout)
      #expect(found.uuid == workout.uuid)
      #expect(found.workoutActivityType == .running)
      #expect(found.duration == 1800)
      #expect(found.totalEnergyBurned?.doubleValue(for: .kilocalorie()) == 320)
      #expect(found.totalDistance == nil)
      #expect((found.metadata?[HKMetadataKeyIndoorWorkout] as? NSNumber)?.boolValue == false)
      let running = try await store.samples(
        of: HKObjectType.workoutType(), predicate: HKQuery.predicateForWorkouts(with: .running))
      #expect(running.count == 1)
      let cycling = try await store.samples(
        of: HKObjectType.workoutType(), predicate: HKQuery.predicateForWorkouts(with: .cycling))
      #expect(cycling.isEmpty)
    }
  }

  @Test func aWorkoutTotalInTheWrongKindOfUnitIsAnErrorNotACrash() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let workout = HKWorkout(
        activityType: .walking, start: device.now, end: device.now.addingTimeInterval(600),
        duration: 600, totalEnergyBurned: HKQuantity(unit: .count(), doubleValue: 3),
        totalDistance: nil, metadata: nil)
      await #expect(throws: HKError(.errorInvalidArgument)) { try await store.save(workout) }
      let saved = try await store.samples(of: HKObjectType.workoutType())
      #expect(saved.isEmpty)
    }
  }
}
