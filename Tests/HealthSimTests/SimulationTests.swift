import Foundation
import HealthSim
import Testing

@Suite("Seeded generator, simulated devices, catch-up")
struct SimulationTests {
  @Test("the generator is deterministic per seed and its UUIDs are version 4")
  func generatorDeterminism() {
    var a = SeededGenerator(seed: 42)
    var b = SeededGenerator(seed: 42)
    var c = SeededGenerator(seed: 43)
    let first = (0..<5).map { _ in a.next() }
    #expect(first == (0..<5).map { _ in b.next() })
    #expect(first != (0..<5).map { _ in c.next() })
    let uuid = a.nextUUID()
    #expect(uuid.uuidString.dropFirst(14).first == "4")
    var gaussian = SeededGenerator(seed: 1)
    let draws = (0..<20_000).map { _ in gaussian.nextGaussian() }
    let mean = draws.reduce(0, +) / Double(draws.count)
    let variance = draws.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(draws.count)
    #expect(abs(mean) < 0.05)
    #expect(abs(variance - 1) < 0.05)
  }

  func scale(
    name: String = "scale", noise: Double = 0.3, timeOfDay: SimulationDefinition.TimeOfDay? = nil,
    start: Date = epoch
  ) -> SimulationDefinition {
    SimulationDefinition(
      name: name,
      model: .scale(
        SimulatedScale(startKilograms: 80, driftKilogramsPerDay: -0.1, noiseKilograms: noise)),
      interval: 86_400, timeOfDay: timeOfDay, timeZoneIdentifier: "Europe/Berlin", start: start,
      source: scaleSource.source, sourceVersion: "6.2",
      device: HealthDevice(name: "Body+", manufacturer: "Withings", model: "WBS05"))
  }

  @Test("a scale writes start + drift · elapsed at each instant, with its own source and device")
  func scaleReadings() throws {
    let store = makeStore()
    try store.startSimulation(scale(noise: 0))
    let events = store.advance(by: 86_400 * 3)
    let written = events.compactMap { event -> HealthSample? in
      if case .sampleWritten(_, let sample) = event.kind { return sample }
      return nil
    }
    #expect(written.map(\.value) == [79.9, 79.8, 79.7])
    #expect(written.map(\.startDate) == [1, 2, 3].map { at(Double($0) * 1440) })
    #expect(written.allSatisfy { $0.source == scaleSource.source && $0.device?.name == "Body+" })
    #expect(store.simulations.first?.readings == 3)
  }

  @Test("the same seed gives the same readings and UUIDs; another seed differs")
  func seededReadings() throws {
    func run(_ seed: UInt64) throws -> [HealthSample] {
      let store = makeStore(seed: seed)
      try store.startSimulation(scale())
      store.advance(by: 86_400 * 5)
      return store.allSamples(of: .bodyMass)
    }
    #expect(try run(1) == run(1))
    #expect(try run(1).map(\.value) != run(2).map(\.value))
  }

  @Test("a time of day keeps local time across DST; list and stop work")
  func timeOfDayAndStop() throws {
    // 2026-03-27 00:00 CET: the readings span the switch to summer time on the 29th.
    let store = HealthStore(seed: 1, clock: Date(timeIntervalSince1970: 1_774_566_000))
    try store.startSimulation(
      scale(noise: 0, timeOfDay: .init(hour: 7, minute: 30), start: store.now))
    store.advance(by: 86_400 * 3)
    var berlin = Calendar(identifier: .gregorian)
    berlin.timeZone = TimeZone(identifier: "Europe/Berlin")!
    let hours = store.allSamples(of: .bodyMass).map {
      berlin.dateComponents([.hour, .minute], from: $0.startDate)
    }
    #expect(hours.count == 3)
    #expect(hours.allSatisfy { $0.hour == 7 && $0.minute == 30 })
    #expect(throws: HealthError.self) { try store.startSimulation(scale()) }
    #expect(store.stopSimulation(named: "scale"))
    store.advance(by: 86_400 * 3)
    #expect(store.liveSampleCount(of: .bodyMass) == 3)
  }

  @Test("glucose and step simulations write their types; steps cover the interval")
  func glucoseAndSteps() throws {
    let store = makeStore()
    try store.startSimulation(
      SimulationDefinition(
        name: "cgm",
        model: .glucose(SimulatedGlucoseMonitor(startMilligramsPerDeciliter: 110, noise: 10)),
        interval: 300, start: epoch,
        source: HealthSource(name: "Dexcom", bundleIdentifier: "com.dexcom.g7")))
    try store.startSimulation(
      SimulationDefinition(
        name: "phone", model: .steps(SimulatedStepCounter(meanSteps: 500)), interval: 3600,
        start: epoch,
        source: HealthSource(name: "iPhone", bundleIdentifier: "com.apple.health.phone")))
    store.advance(by: 3600)
    #expect(store.liveSampleCount(of: .bloodGlucose) == 12)
    let steps = store.allSamples(of: .stepCount)
    #expect(steps.count == 1)
    #expect(steps[0].endDate.timeIntervalSince(steps[0].startDate) == 3600)
    #expect(store.stopAllSimulations() == 2)
  }

  @Test("catch-up writes at most N of the readings that fell due and says how many")
  func catchUp() throws {
    let store = makeStore()
    let probe = try observe(store)
    try store.startSimulation(scale(noise: 0))
    let report = store.catchUp(until: at(1440 * 10 + 1), limit: 3)
    #expect(report.due == 10)
    #expect(report.written == 3)
    #expect(report.skipped == 7)
    #expect(
      store.allSamples(of: .bodyMass).map(\.startDate) == [8, 9, 10].map { at(Double($0) * 1440) })
    #expect(store.now == at(1440 * 10 + 1))
    #expect(probe.calls == 3)
    store.advance(by: 86_400)
    #expect(store.liveSampleCount(of: .bodyMass) == 4)
  }

  @Test("simulation definitions are Codable")
  func definitionCodable() throws {
    let definition = scale(timeOfDay: .init(hour: 7, minute: 0))
    let data = try JSONEncoder().encode(definition)
    #expect(try JSONDecoder().decode(SimulationDefinition.self, from: data) == definition)
  }
}
