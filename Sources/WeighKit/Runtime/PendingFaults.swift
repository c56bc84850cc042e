/// The faults a script injected with `fault` that have not happened yet.
struct PendingFaults {
  /// `fault completion skip n`: deliveries left whose handler skips its completion.
  var skipCompletions = 0
  /// `fault sync fail n`: sync attempts left that fail.
  var failSyncs = 0
}
