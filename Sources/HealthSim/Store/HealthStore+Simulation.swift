import Foundation

extension HealthStore {
  /// Running simulations, in start order.
  public var simulations: [SimulationState] { state.simulations }

  /// Starts a simulated device; its first reading is `definition.firstReading`.
  public func startSimulation(_ definition: SimulationDefinition) throws(HealthError) {
    guard !state.simulations.contains(where: { $0.definition.name == definition.name }) else {
      throw HealthError(
        .errorInvalidArgument,
        "a simulation named \(definition.name) is running; stop it or choose another name")
    }
    guard definition.interval > 0 else {
      throw HealthError(.errorInvalidArgument, "the interval must be positive; use e.g. every 1d")
    }
    let first = definition.firstReading
    let sequence = state.scheduler.schedule(.reading(definition.name), at: first)
    state.simulations.append(
      SimulationState(definition: definition, nextReading: first, readings: 0, sequence: sequence))
    commitState()
  }

  /// Stops one simulation; false when none has that name.
  @discardableResult
  public func stopSimulation(named name: String) -> Bool {
    let before = state.simulations.count
    state.simulations.removeAll { $0.definition.name == name }
    commitState()
    return state.simulations.count < before
  }

  /// Stops every simulation; returns how many ran.
  @discardableResult
  public func stopAllSimulations() -> Int {
    let count = state.simulations.count
    state.simulations = []
    commitState()
    return count
  }

  /// Catches up after the clock jumped (a session reopened in wall-clock mode): of the
  /// readings due in (now, `end`], writes the newest `limit` at their own instants,
  /// skips the older ones, then advances to `end` so deliveries follow.
  /// - Complexity: O(d log d) for d due readings.
  public func catchUp(until end: Date, limit: Int) -> CatchUpReport {
    var due: [(date: Date, simulation: Int)] = []
    var following: [Date] = []
    for (index, simulation) in state.simulations.enumerated() {
      var date = simulation.nextReading
      while date <= end {
        due.append((date, index))
        date = simulation.definition.reading(after: date)
      }
      following.append(date)
    }
    due.sort { ($0.date, $0.simulation) < ($1.date, $1.simulation) }
    let chosen = due.suffix(max(limit, 0))
    var events: [HealthEvent] = []
    // Sequence 0 matches no scheduler entry, so the old entries go stale.
    for index in state.simulations.indices { state.simulations[index].sequence = 0 }
    var stopped: Set<Int> = []
    for reading in chosen where !stopped.contains(reading.simulation) {
      if reading.date > state.clock { state.clock = reading.date }
      if !write(simulation: reading.simulation, at: reading.date, into: &events) {
        stopped.insert(reading.simulation)
      }
      events += advance(to: reading.date)
    }
    for index in state.simulations.indices where !stopped.contains(index) {
      let sequence = state.scheduler.schedule(
        .reading(state.simulations[index].definition.name), at: following[index])
      state.simulations[index].nextReading = following[index]
      state.simulations[index].sequence = sequence
    }
    for index in stopped.sorted(by: >) { state.simulations.remove(at: index) }
    events += advance(to: end)
    return CatchUpReport(due: due.count, written: chosen.count, events: events)
  }

  func takeReading(_ name: String, sequence: UInt64, into events: inout [HealthEvent]) {
    guard let index = state.simulations.firstIndex(where: { $0.definition.name == name }),
      state.simulations[index].sequence == sequence
    else { return }
    let date = state.simulations[index].nextReading
    guard write(simulation: index, at: date, into: &events) else {
      state.simulations.remove(at: index)
      return
    }
    let next = state.simulations[index].definition.reading(after: date)
    state.simulations[index].nextReading = next
    state.simulations[index].sequence = state.scheduler.schedule(.reading(name), at: next)
  }

  /// Writes the reading due at `date`; false when the model's value left the range of
  /// valid values (``SimulationDefinition/Model/validValues``): then nothing is written,
  /// a `simulationStopped` event says why and the caller stops the simulation.
  private func write(simulation index: Int, at date: Date, into events: inout [HealthEvent])
    -> Bool
  {
    let definition = state.simulations[index].definition
    let elapsedDays = date.timeIntervalSince(definition.start) / 86_400
    let noise = state.generator.nextGaussian()
    let sample: HealthSample
    let value: Double
    switch definition.model {
    case .scale(let scale):
      let kilograms =
        scale.startKilograms + scale.driftKilogramsPerDay * elapsedDays
        + scale.noiseKilograms * noise
      value = (kilograms * 100).rounded() / 100
      sample = HealthSample(type: .bodyMass, value: value, start: date, device: definition.device)
    case .glucose(let monitor):
      let level =
        monitor.startMilligramsPerDeciliter + monitor.driftPerDay * elapsedDays
        + monitor.noise * noise
      // Noise around a low level may dip below 1 mg/dL; the sensor reports its floor.
      value = level.isNaN ? level : max(1, level.rounded())
      sample = HealthSample(
        type: .bloodGlucose, value: value, start: date, device: definition.device)
    case .steps(let counter):
      // A phone counts no fewer than 0 steps, whatever the noise.
      let steps = counter.meanSteps + counter.noise * noise
      value = steps.isNaN ? steps : max(0, steps.rounded())
      sample = HealthSample(
        type: .stepCount, value: value, start: date.addingTimeInterval(-definition.interval),
        end: date, device: definition.device)
    }
    guard definition.model.accepts(value) else {
      events.append(
        HealthEvent(
          date: date,
          kind: .simulationStopped(
            simulation: definition.name, type: definition.model.sampleType, value: value)))
      return false
    }
    let revision = SourceRevision(source: definition.source, version: definition.sourceVersion)
    do {
      let saved = try write([sample], revision: revision)
      state.simulations[index].readings += 1
      if let first = saved.first {
        events.append(
          HealthEvent(date: date, kind: .sampleWritten(simulation: definition.name, sample: first)))
      }
    } catch {
      events.append(
        HealthEvent(date: date, kind: .writeFailed(simulation: definition.name, error: error)))
    }
    return true
  }
}
