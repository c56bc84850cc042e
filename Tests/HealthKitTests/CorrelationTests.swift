import HealthKit
import Testing

@Suite struct CorrelationTests {
  @Test func aBloodPressureCorrelationSavesItsObjectsAndReadsBackWithThem() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let mmHg = HKUnit.millimeterOfMercury()
      let systolicType = HKQuantityType(.bloodPressureSystolic)
      let diastolicType = HKQuantityType(.bloodPressureDiastolic)
      let now = device.now
      let systolic = HKQuantitySample(
        type: systolicType, quantity: HKQuantity(unit: mmHg, doubleValue: 120), start: now, end: now
      )
      let diastolic = HKQuantitySample(
        type: diastolicType, quantity: HKQuantity(unit: mmHg, doubleValue: 80), start: now, end: now
      )
      let pressure = HKCorrelation(
        type: HKCorrelationType(.bloodPressure), start: now, end: now,
        objects: [systolic, diastolic])
      try await store.save(pressure)

      let read = try await HKSampleQueryDescriptor(
        predicates: [.sample(type: HKCorrelationType(.bloodPressure))], sortDescriptors: []
      ).result(for: store)
      let correlation = try #require(read.first as? HKCorrelation)
      #expect(correlation.uuid == pressure.uuid)
      let top = try #require(correlation.objects(for: systolicType).first as? HKQuantitySample)
      #expect(top.quantity.doubleValue(for: mmHg) == 120)
      #expect(top.uuid == systolic.uuid)

      let members = try await HKSampleQueryDescriptor(
        predicates: [.quantitySample(type: diastolicType)], sortDescriptors: []
      ).result(for: store)
      #expect(members.map(\.uuid) == [diastolic.uuid])
    }
  }
}
