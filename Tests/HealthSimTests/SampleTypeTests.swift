import Foundation
import HealthSim
import Testing

@Suite("Sample types and units beyond body mass")
struct SampleTypeTests {
  @Test("stored raw values of the first six types are unchanged, new types come after them")
  func rawValuesKeepTheirOrder() {
    let old = [
      "bodyMass", "bloodGlucose", "stepCount", "activeEnergyBurned",
      "appleExerciseTime", "workout",
    ]
    #expect(SampleType.allCases.prefix(6).map(\.rawValue) == old)
    #expect(SampleType.allCases.count == 16)
    #expect(SampleType.workout < SampleType.height)
    #expect(SampleType.allCases.sorted() == SampleType.allCases)
  }

  @Test("a type hashes as itself: equal types hash alike, and every type is its own key")
  func typesHashByCase() {
    var seen: [SampleType: Int] = [:]
    for (index, type) in SampleType.allCases.enumerated() {
      #expect(type.hashValue == SampleType(rawValue: type.rawValue)?.hashValue)
      seen[type] = index
    }
    #expect(seen.count == SampleType.allCases.count)
    for (index, type) in SampleType.allCases.enumerated() {
      #expect(seen[type] == index)
      // `<` follows `allCases`, one step at a time.
      if index > 0 { #expect(SampleType.allCases[index - 1] < type) }
    }
    #expect(Set(SampleType.allCases.map(\.hashValue)).count == SampleType.allCases.count)
  }

  @Test("every type round-trips through its HealthKit identifier")
  func identifiersRoundTrip() {
    for type in SampleType.allCases { #expect(SampleType(identifier: type.identifier) == type) }
    #expect(Set(SampleType.allCases.map(\.identifier)).count == SampleType.allCases.count)
    #expect(SampleType.bloodPressure.identifier == "HKCorrelationTypeIdentifierBloodPressure")
    #expect(SampleType.heartRate.identifier == "HKQuantityTypeIdentifierHeartRate")
    #expect(SampleType(identifier: "HKQuantityTypeIdentifierDietaryWater") == nil)
  }

  @Test("aggregation styles as Apple documents them, and instantaneous discrete types")
  func aggregationStyles() {
    let discrete: [SampleType] = [
      .height, .bodyMassIndex, .bodyFatPercentage, .leanBodyMass, .heartRate,
      .bloodPressureSystolic, .bloodPressureDiastolic,
    ]
    for type in discrete {
      #expect(type.aggregationStyle == .discrete)
      #expect(type.isInstantaneous)
    }
    for type in [SampleType.basalEnergyBurned, .distanceWalkingRunning] {
      #expect(type.aggregationStyle == .cumulative)
      #expect(!type.isInstantaneous)
    }
    #expect(SampleType.bloodPressure.aggregationStyle == .none)
    #expect(SampleType.bloodPressure.isCorrelation)
    #expect(!SampleType.bloodPressureSystolic.isCorrelation)
    #expect(
      SampleType.bloodPressure.permissionTypes == [.bloodPressureSystolic, .bloodPressureDiastolic])
    #expect(SampleType.heartRate.permissionTypes == [.heartRate])
  }

  @Test("canonical units: m, count, %, kg, kcal, count/min, mmHg")
  func canonicalUnits() {
    #expect(SampleType.height.canonicalUnit == .meter)
    #expect(SampleType.distanceWalkingRunning.canonicalUnit == .meter)
    #expect(SampleType.bodyMassIndex.canonicalUnit == .count)
    #expect(SampleType.bodyFatPercentage.canonicalUnit == .percent)
    #expect(SampleType.leanBodyMass.canonicalUnit == .kilogram)
    #expect(SampleType.basalEnergyBurned.canonicalUnit == .kilocalorie)
    #expect(SampleType.heartRate.canonicalUnit.unitString == "count/min")
    #expect(SampleType.bloodPressureSystolic.canonicalUnit.unitString == "mmHg")
  }

  @Test("lengths convert with the exact international factors")
  func lengths() throws {
    #expect(try HealthQuantity(1, .inch).doubleValue(for: .meter) == 0.0254)
    #expect(abs(try HealthQuantity(1, .foot).doubleValue(for: .inch) - 12) < 1e-12)
    #expect(try HealthQuantity(1, .mile).doubleValue(for: .meter) == 1609.344)
    #expect(try HealthQuantity(180, .centimeter).doubleValue(for: .meter) == 1.8)
    #expect(try HealthQuantity(2.5, .kilometer).doubleValue(for: .meter) == 2500)
    let tall = try HealthSample(
      type: .height, quantity: HealthQuantity(72, .inch), start: at(0))
    #expect(abs(tall.value - 1.8288) < 1e-12)
    #expect(throws: HealthError.self) { try HealthQuantity(1, .meter).doubleValue(for: .count) }
    #expect(throws: HealthError.self) {
      try HealthQuantity(60, .countPerMinute).doubleValue(for: .count)
    }
    #expect(throws: HealthError.self) {
      try HealthQuantity(0.2, .percent).doubleValue(for: .millimeterOfMercury)
    }
  }

  @Test("body fat is a fraction: 0.25 is saved, 25 is refused with code 3")
  func bodyFatIsAFraction() throws {
    let store = makeStore()
    let saved = try store.save([HealthSample(type: .bodyFatPercentage, value: 0.25, start: at(0))])
    #expect(saved[0].quantity == HealthQuantity(0.25, .percent))
    #expect {
      try store.save([HealthSample(type: .bodyFatPercentage, value: 25, start: at(1))])
    } throws: { ($0 as? HealthError)?.code == .errorInvalidArgument }
    #expect(store.liveSampleCount(of: .bodyFatPercentage) == 1)
  }

  @Test("new types are stored, queried and summed like the old ones")
  func newTypesWork() throws {
    let store = makeStore()
    try store.save([
      HealthSample(type: .heartRate, value: 60, start: at(0)),
      HealthSample(type: .heartRate, value: 80, start: at(1)),
      HealthSample(type: .distanceWalkingRunning, value: 400, start: at(0), end: at(10)),
      HealthSample(type: .distanceWalkingRunning, value: 600, start: at(10), end: at(20)),
    ])
    let rate = try store.statistics(of: .heartRate, options: [.discreteAverage, .discreteMax])
    #expect(rate.averageQuantity() == HealthQuantity(70, .countPerMinute))
    #expect(rate.maximumQuantity() == HealthQuantity(80, .countPerMinute))
    let walked = try store.statistics(of: .distanceWalkingRunning, options: .cumulativeSum)
    #expect(walked.sumQuantity() == HealthQuantity(1000, .meter))
    #expect(throws: HealthError.self) {
      try store.statistics(of: .heartRate, options: .cumulativeSum)
    }
    let result = try store.anchoredResult(type: .heartRate, anchor: nil)
    #expect(result.samples.map(\.value) == [60, 80])
    #expect(try store.samples(of: .bodyMass).isEmpty)
  }

  @Test("a store holding the new types survives the snapshot and the change feed")
  func persistence() throws {
    let store = makeStore()
    var feed: [HealthChange] = []
    store.recorder = { feed.append($0) }
    try store.save([
      HealthSample(type: .height, value: 1.8, start: at(0)),
      HealthSample(type: .bodyMassIndex, value: 22.5, start: at(0)),
    ])
    let decoded = try JSONDecoder().decode(
      HealthSnapshot.self, from: JSONEncoder().encode(store.snapshot()))
    #expect(HealthStore(snapshot: decoded).allSamples(of: .height) == store.allSamples(of: .height))
    let replayed = HealthStore(clock: epoch)
    for change in feed { replayed.apply(change) }
    #expect(replayed.allSamples(of: .bodyMassIndex) == store.allSamples(of: .bodyMassIndex))
  }
}
