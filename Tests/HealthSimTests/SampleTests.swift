import Foundation
import HealthSim
import Testing

@Suite("Samples, sync identifiers, deletion, units (S, Y, D, U, G)")
struct SampleTests {
  @Test("S2: save sets the source revision and creation date, not the caller's value")
  func s2SourceRevision() throws {
    let store = makeStore()
    store.advance(to: at(5))
    let sample = weight(70)
    let saved = try store.save([sample])[0]
    #expect(sample.sourceRevision == nil && sample.uuid == nil)
    #expect(saved.sourceRevision == store.app)
    #expect(saved.creationDate == at(5))
    #expect(saved.startDate == saved.endDate)
  }

  @Test("S5: saving a UUID that exists fails with 3")
  func s5DuplicateUUID() throws {
    let store = makeStore()
    let saved = try scaleWrites(store, 70)
    let again = HealthSample(type: .bodyMass, value: 71, start: at(1), uuid: saved.uuid)
    #expect { try store.save([again], as: scaleSource) } throws: {
      ($0 as? HealthError)?.code == .errorInvalidArgument
    }
  }

  @Test("S6: a batch save is all or nothing")
  func s6Atomic() throws {
    let store = makeStore()
    let uuid = store.makeUUID()
    let batch = [
      HealthSample(type: .bodyMass, value: 70, start: at(0), uuid: uuid),
      HealthSample(type: .bodyMass, value: 71, start: at(1), uuid: uuid),
    ]
    #expect(throws: HealthError.self) { try store.save(batch) }
    #expect(store.liveSampleCount(of: .bodyMass) == 0)
    #expect(store.latestAnchor == .noAnchor)
  }

  @Test("Y1: a sync identifier without a version, or the reverse, fails with 3")
  func y1SyncPair() throws {
    let store = makeStore()
    let noVersion = HealthSample(
      type: .bodyMass, value: 70, start: at(0),
      metadata: [MetadataKey.syncIdentifier: .string("a")])
    let noIdentifier = HealthSample(
      type: .bodyMass, value: 70, start: at(0), metadata: [MetadataKey.syncVersion: .number(1)])
    for sample in [noVersion, noIdentifier] {
      #expect { try store.save([sample]) } throws: {
        ($0 as? HealthError)?.code == .errorInvalidArgument
      }
    }
  }

  @Test("Y2/Y6: a higher version replaces: deletion of the old UUID, new sample, one delivery")
  func y2Replace() throws {
    let store = makeStore()
    let probe = try observe(store)
    let first = try store.save([weight(70, syncID: "weigh-1", version: 1)])[0]
    store.settle()
    let second = try store.save([weight(69, syncID: "weigh-1", version: 2)])[0]
    store.settle()
    #expect(probe.calls == 2)
    #expect(second.uuid != first.uuid)
    let changes = try store.anchoredResult(type: .bodyMass, anchor: QueryAnchor(fromValue: 1))
    #expect(changes.deletedObjects.map(\.uuid) == [first.uuid!])
    #expect(changes.samples.map(\.uuid) == [second.uuid])
    #expect(store.liveSampleCount(of: .bodyMass) == 1)
  }

  @Test("Y3/Y4: an equal or lower version is ignored silently: no position, no delivery")
  func y3Ignore() throws {
    let store = makeStore()
    let probe = try observe(store)
    try store.save([weight(70, syncID: "weigh-1", version: 2)])
    store.settle()
    let anchor = store.latestAnchor
    #expect(try store.save([weight(71, syncID: "weigh-1", version: 2)]).isEmpty)
    #expect(try store.save([weight(72, syncID: "weigh-1", version: 1)]).isEmpty)
    store.settle()
    #expect(store.latestAnchor == anchor)
    #expect(probe.calls == 1)
    var settings = store.settings
    settings.staleSyncVersion = .fail
    store.settings = settings
    #expect(throws: HealthError.self) {
      try store.save([weight(71, syncID: "weigh-1", version: 2)])
    }
  }

  @Test("Y5: matching is per source and type by default; the knob widens it to the type")
  func y5Scope() throws {
    let store = makeStore()
    try store.save([weight(70, syncID: "x", version: 1)])
    try store.save([weight(71, syncID: "x", version: 2)], as: scaleSource)
    #expect(store.liveSampleCount(of: .bodyMass) == 2)
    var settings = store.settings
    settings.syncIdentifierScope = .type
    store.settings = settings
    try store.save([weight(72, syncID: "x", version: 3)], as: otherApp)
    #expect(store.liveSampleCount(of: .bodyMass) == 2)
    #expect(store.allSamples(of: .bodyMass).map(\.value).contains(72))
  }

  @Test("D1/D2: an app deletes only its own samples (else 4); deletion leaves a record")
  func d1OwnDeletes() throws {
    let store = makeStore()
    let foreign = try scaleWrites(store, 80)
    let own = try store.save([weight(70, at: 1), weight(71, at: 2)])
    #expect { try store.delete([foreign]) } throws: {
      ($0 as? HealthError)?.code == .errorAuthorizationDenied
    }
    try store.delete([own[0]])
    #expect(store.deletedObjectCount(of: .bodyMass) == 1)
    let count = try store.deleteObjects(of: .bodyMass, predicate: nil)
    #expect(count == 1)
    #expect(store.allSamples(of: .bodyMass) == [foreign])
    #expect(try store.deleteAsOwner([foreign.uuid!]) == 1)
  }

  @Test("U1/U2/U4: unit strings round-trip, exact factors convert, other kinds throw")
  func u1Units() throws {
    for unit in HealthUnit.all { #expect(HealthUnit(from: unit.unitString) == unit) }
    #expect(try HealthQuantity(1, .pound).doubleValue(for: .kilogram) == 0.453_592_37)
    #expect(abs(try HealthQuantity(1, .stone).doubleValue(for: .pound) - 14) < 1e-12)
    #expect(throws: HealthError.self) { try HealthQuantity(1, .kilogram).doubleValue(for: .count) }
    let sample = try HealthSample(
      type: .bodyMass, quantity: HealthQuantity(150, .pound), start: at(0))
    #expect(abs(sample.value - 68.038_855_5) < 1e-9)
  }

  @Test("G2: blood glucose converts with 1 mmol/L = 18.015588 mg/dL (molar mass / 10)")
  func g2Glucose() throws {
    let mgdl = try HealthQuantity(5.5, .millimolesPerLiter).doubleValue(
      for: .milligramsPerDeciliter)
    #expect(abs(mgdl - 99.085_734) < 1e-6)
    #expect(HealthUnit(from: "mmol<180.1558800000541>/L") == .millimolesPerLiter)
    #expect(SampleType.bloodGlucose.canonicalUnit == .milligramsPerDeciliter)
  }

  @Test("M1/M2: metadata keys have their raw export strings")
  func m2Keys() {
    #expect(MetadataKey.wasUserEntered == "HKWasUserEntered")
    #expect(MetadataKey.syncIdentifier == "HKMetadataKeySyncIdentifier")
    #expect(MetadataKey.syncVersion == "HKMetadataKeySyncVersion")
    #expect(MetadataKey.externalUUID == "HKExternalUUID")
    #expect(MetadataValue.bool(true).description == "1")
  }

  @Test("W1: workouts carry an activity type in HealthKit's spelling and a duration")
  func w1Workout() throws {
    let store = makeStore()
    let workout = HealthSample(
      workout: WorkoutDetails(activityType: .functionalStrengthTraining, duration: 60),
      start: at(0))
    let saved = try store.save([workout])[0]
    #expect(saved.workout?.activityType.rawValue == "functionalStrengthTraining")
    #expect(saved.endDate == at(1))
    #expect(WorkoutActivityType.coreTraining.exportName == "HKWorkoutActivityTypeCoreTraining")
  }
}
