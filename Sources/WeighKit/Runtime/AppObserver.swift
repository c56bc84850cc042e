import HealthSim

/// The app's observer of body mass as a session runs it (`observe`, `fault`): the query
/// while it observes, the faults still to happen, and what the handler's syncs said,
/// waiting for the delivery events they belong to.
struct AppObserver {
  /// The observer query while the app observes.
  var query: ObserverQuery?
  /// The faults `fault` asked for that are still to happen.
  var faults = PendingFaults()
  /// What the handler's syncs printed, one note per delivery, oldest first.
  var handlerNotes: [String] = []
}
