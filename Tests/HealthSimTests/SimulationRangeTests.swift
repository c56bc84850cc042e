import Foundation
import HealthSim
import Testing

@Suite("Simulations stop instead of writing readings outside the valid range")
struct SimulationRangeTests {
  func definition(_ model: SimulationDefinition.Model, name: String = "device")
    -> SimulationDefinition
  {
    SimulationDefinition(
      name: name, model: model, interval: 86_400, start: epoch,
      source: HealthSource(name: "Sim", bundleIdentifier: "sim.sim"))
  }

  func stops(_ events: [HealthEvent]) -> [(String, SampleType, Double)] {
    events.compactMap { event in
      if case .simulationStopped(let name, let type, let value) = event.kind {
        return (name, type, value)
      }
      return nil
    }
  }

  @Test("a scale drifting past 1000 kg stops at the first reading above it")
  func scaleAboveTheLimit() throws {
    let store = makeStore()
    try store.startSimulation(
      definition(.scale(SimulatedScale(startKilograms: 900, driftKilogramsPerDay: 60))))
    let events = store.advance(by: 86_400 * 5)
    #expect(store.allSamples(of: .bodyMass).map(\.value) == [960])
    #expect(stops(events).map(\.2) == [1020])
    #expect(store.simulations.isEmpty)
    #expect(store.allSamples(of: .bodyMass).allSatisfy { $0.value > 0 && $0.value <= 1000 })
  }

  @Test("a scale drifting to 0 kg stops instead of writing 0.0 kg")
  func scaleAtZero() throws {
    let store = makeStore()
    try store.startSimulation(
      definition(.scale(SimulatedScale(startKilograms: 1, driftKilogramsPerDay: -0.5))))
    let events = store.advance(by: 86_400 * 4)
    #expect(store.allSamples(of: .bodyMass).map(\.value) == [0.5])
    #expect(stops(events).count == 1)
    #expect(stops(events).first?.1 == .bodyMass)
    #expect(store.simulations.isEmpty)
  }

  @Test("a step counter above 1,000,000 steps stops; others keep running")
  func stepsAboveTheLimit() throws {
    let store = makeStore()
    try store.startSimulation(
      definition(.steps(SimulatedStepCounter(meanSteps: 2_000_000, noise: 0)), name: "steps"))
    try store.startSimulation(
      definition(.scale(SimulatedScale(startKilograms: 70)), name: "scale"))
    let events = store.advance(by: 86_400 * 2)
    #expect(stops(events).map(\.0) == ["steps"])
    #expect(store.allSamples(of: .stepCount).isEmpty)
    #expect(store.allSamples(of: .bodyMass).count == 2)
    #expect(store.simulations.map(\.definition.name) == ["scale"])
  }

  @Test("catch-up stops a simulation at its first bad reading and schedules the others")
  func catchUpStops() throws {
    let store = makeStore()
    try store.startSimulation(
      definition(.scale(SimulatedScale(startKilograms: 990, driftKilogramsPerDay: 4)), name: "a"))
    try store.startSimulation(
      definition(.scale(SimulatedScale(startKilograms: 70)), name: "b"))
    let report = store.catchUp(until: epoch.addingTimeInterval(86_400 * 5), limit: 100)
    #expect(stops(report.events).map(\.0) == ["a"])
    #expect(stops(report.events).first?.2 == 1002)
    #expect(store.simulations.map(\.definition.name) == ["b"])
    #expect(store.allSamples(of: .bodyMass).allSatisfy { $0.value <= 1000 })
    // The stopped simulation writes nothing later; the other one goes on.
    let later = store.advance(by: 86_400 * 2)
    #expect(stops(later).isEmpty)
    #expect(store.allSamples(of: .bodyMass).filter { $0.value > 900 }.count == 2)
  }
}

@Suite("Health refuses non-finite numbers")
struct NonFiniteValueTests {
  @Test("a sample with a non-finite value or sync version is refused and nothing is saved")
  func nonFiniteIsRefused() {
    let store = makeStore()
    for sample in [
      weight(.nan), weight(.infinity), weight(70, syncID: "a", version: .nan),
      weight(70, syncID: "a", version: .infinity),
    ] {
      #expect(throws: HealthError.self) { try store.save([sample], as: scaleSource) }
    }
    #expect(store.allSamples(of: .bodyMass).isEmpty)
  }
}
