import HealthSim

/// Health's events while time ran (`advance`, a reopened session catching up, the events
/// that fell due during a command), each with what the app's observer handler did when the
/// event was a delivery.
public struct HealthEventList: Sendable {
  /// One event and, for a delivery, the handler's note (`sync imported 1, …`).
  public struct Row: Sendable {
    public var event: HealthEvent
    public var handlerNote: String?
  }

  /// The events in the order they happened.
  public var rows: [Row]

  /// The name a machine format gives an event's kind (docs/output.md).
  static func kindName(_ kind: HealthEvent.Kind) -> String {
    switch kind {
    case .sampleWritten: "written"
    case .writeFailed: "write-failed"
    case .simulationStopped: "simulation-stopped"
    case .delivered: "delivered"
    case .deliveryLost: "delivery-lost"
    case .retryScheduled: "retry-scheduled"
    case .backgroundDeliveryStopped: "delivery-stopped"
    }
  }
}
