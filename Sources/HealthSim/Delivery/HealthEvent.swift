import Foundation

/// Something that happened while the simulator ran scheduled events; callers print these.
public struct HealthEvent: Hashable, Sendable, CustomStringConvertible {
  /// What happened.
  public enum Kind: Hashable, Sendable {
    /// A simulation wrote a sample.
    case sampleWritten(simulation: String, sample: HealthSample)
    /// A simulation's write failed.
    case writeFailed(simulation: String, error: HealthError)
    /// A simulation stopped because its next reading, `value` of `type`, fell outside the
    /// model's valid values (nothing was written).
    case simulationStopped(simulation: String, type: SampleType, value: Double)
    /// The app's observer handler ran: the `number`-th call for the type.
    case delivered(
      type: SampleType, number: Int, reason: BackgroundDelivery.Reason, completed: Bool)
    /// Health woke the app, but no observer query was registered: the event is lost (O21).
    case deliveryLost(type: SampleType)
    /// A failed delivery will be retried.
    case retryScheduled(type: SampleType, at: Date, failures: Int)
    /// Health stopped background delivery after too many failures.
    case backgroundDeliveryStopped(type: SampleType, failures: Int)
  }

  /// When it happened, on the virtual clock.
  public let date: Date
  /// What happened.
  public let kind: Kind

  /// An event.
  public init(date: Date, kind: Kind) {
    self.date = date
    self.kind = kind
  }

  /// A plain description; front ends usually format events their own way.
  public var description: String {
    let time = ISO8601DateFormatter().string(from: date)
    switch kind {
    case .sampleWritten(let simulation, let sample):
      return "\(time) \(simulation) wrote \(sample.type.rawValue) \(sample.value)"
    case .writeFailed(let simulation, let error):
      return "\(time) \(simulation) failed to write: \(error.message)"
    case .simulationStopped(let simulation, let type, let value):
      return "\(time) \(simulation) stopped: \(type.rawValue) reading \(value) is out of range"
    case .delivered(let type, let number, let reason, let completed):
      return "\(time) delivery #\(number) \(type.rawValue) (\(reason.rawValue))"
        + (completed ? "" : ", completion not called")
    case .deliveryLost(let type):
      return "\(time) \(type.rawValue) wake lost: no observer registered"
    case .retryScheduled(let type, let at, let failures):
      return
        "\(time) \(type.rawValue) retry \(failures) at \(ISO8601DateFormatter().string(from: at))"
    case .backgroundDeliveryStopped(let type, let failures):
      return "\(time) \(type.rawValue) background delivery stopped after \(failures) failures"
    }
  }
}
