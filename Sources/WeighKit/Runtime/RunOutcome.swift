/// How a session's run is going: whether `quit` was asked for, and its failures, which
/// decide the exit status. One part of a ``Session``.
struct RunOutcome {
  /// Set by `quit`.
  var quitRequested = false
  /// The worst failure so far, which decides the exit status.
  private(set) var failure: FailureKind?
  /// How many commands failed.
  private(set) var failureCount = 0

  /// Counts a failure of `kind`; it decides the exit status when it outranks the worst so far.
  mutating func record(_ kind: FailureKind) {
    failureCount += 1
    if kind.outranks(failure) { failure = kind }
  }

  /// The exit status of the run so far (``ExitStatus``).
  var exitStatus: ExitStatus { failure.map(ExitStatus.init) ?? .success }
}
