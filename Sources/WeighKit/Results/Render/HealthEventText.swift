import HealthSim

/// Health's events as the timestamped lines weigh prints for them
/// (`2026-01-01 09:00:00 scale wrote 70.2 kg Withings`).
struct HealthEventText {
  var samples: SampleText
  var zone: ZonedClock

  /// The line for `event`; `handlerNote` is what the app's observer handler did for a
  /// delivery (`sync imported 1, …`).
  func line(for event: HealthEvent, handlerNote: String?) -> String {
    let time = zone.secondText(Instant.seconds(of: event.date))
    switch event.kind {
    case .sampleWritten(let simulation, let sample):
      return "\(time) \(simulation) wrote \(samples.describe(sample))"
    case .writeFailed(let simulation, let error):
      return "\(time) \(simulation) could not write: \(Session.describe(error))"
    case .simulationStopped(let simulation, let type, let value):
      let measure: Measure = type == .bodyMass ? .mass : type == .bloodGlucose ? .glucose : .steps
      return
        "\(time) \(simulation) stopped: its next reading would be \(DisplayUnit.formatNumber(value, decimals: 2)) \(measure.unit), and \(measure.noun) must be \(measure.rangeText)"
    case .delivered(_, let number, let reason, let completed):
      let note = handlerNote.map { ": " + $0 } ?? ""
      return "\(time) delivery #\(number) (\(reason.rawValue))\(note)"
        + (completed ? "" : "; completion not called")
    case .deliveryLost:
      return "\(time) wake lost: no observer query registered"
    case .retryScheduled(_, let at, let failures):
      let retryTime = zone.secondText(Instant.seconds(of: at))
      return
        "\(time) retry scheduled at \(retryTime) after \(English.counted(failures, "failed delivery", "failed deliveries"))"
    case .backgroundDeliveryStopped(_, let failures):
      return "\(time) background delivery stopped after \(failures) failed deliveries"
    }
  }
}
