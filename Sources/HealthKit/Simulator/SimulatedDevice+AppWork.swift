import HealthSim

/// The app's Tasks started by handlers during one step of the clock. A `Task { … }` created
/// in a handler inherits the step's task-local marker (and so do Tasks it starts), so the
/// marker lives exactly as long as the last of them: while it lives, the app is at work,
/// however long it goes without calling HealthKit.
extension SimulatedDevice {
  /// The marker; it holds nothing.
  final class AppWork: Sendable {}

  /// Watches a step's marker without keeping it alive.
  final class AppWorkWatch: @unchecked Sendable {
    weak var work: AppWork?

    /// Whether a Task the step's handlers started is still running.
    var isRunning: Bool { work != nil }
  }

  @TaskLocal static var appWork: AppWork?

  /// Runs the next event due by `date` with a fresh marker bound, so that Tasks its
  /// handlers start carry it; returns the step and a watch on the marker.
  func nextEvent(until date: Date)
    -> (step: (events: [HealthEvent], pending: PendingDelivery?), watch: AppWorkWatch)?
  {
    let work = AppWork()
    let watch = AppWorkWatch()
    watch.work = work
    let step = Self.$appWork.withValue(work) {
      mutex.withLock { engine.runNextEvent(until: date) }
    }
    return step.map { ($0, watch) }
  }
}
