import Glibc
import Synchronization

/// Signal handlers that only record what happened, so the editor's loop can react outside the handler.
///
/// Readline's own handlers (`rl_catch_signals`) are turned off: with the callback interface the
/// loop waits in `poll`, and a handler that sets a flag and wakes that `poll` through a pipe is
/// both async-signal-safe and independent of which thread the kernel picks for delivery.
enum TerminalSignals {
  /// The signals the editor takes over while it exists; SIGTSTP is taken only during a prompt.
  static let watched: [Int32] = [SIGINT, SIGWINCH]

  /// Installs the recording handler for `signal` and returns the action it replaced.
  static func install(_ signal: Int32) -> sigaction {
    // Touch the lazily initialised globals now, never for the first time inside a handler.
    _ = wakePipe
    _ = exchangePending(signal, false)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = recordSignal
    sigemptyset(&action.sa_mask)
    // No SA_RESTART: an interrupted poll should return at once.
    action.sa_flags = 0
    var previous = sigaction()
    sigaction(signal, &action, &previous)
    return previous
  }

  /// Puts back the action `install` replaced.
  static func restore(_ signal: Int32, to previous: sigaction) {
    var previous = previous
    sigaction(signal, &previous, nil)
  }

  /// Whether `signal` arrived since the last call; clears the record.
  static func take(_ signal: Int32) -> Bool {
    exchangePending(signal, false)
  }

  /// Whether `signal` arrived and nobody took it yet; leaves the record as it is.
  static func isPending(_ signal: Int32) -> Bool {
    switch signal {
    case SIGINT: interruptPending.load(ordering: .relaxed)
    case SIGWINCH: resizePending.load(ordering: .relaxed)
    case SIGTSTP: suspendPending.load(ordering: .relaxed)
    default: false
    }
  }

  /// The read end of the pipe a handler writes to; `poll` on it to wake up for a signal.
  static var wakeDescriptor: Int32 { wakePipe.read }

  /// Empties the wake pipe after `poll` reported it readable.
  static func drainWakePipe() {
    var scratch = [UInt8](repeating: 0, count: 64)
    while read(wakePipe.read, &scratch, scratch.count) > 0 {}
  }

  /// Tells the SIGINT handler whether a prompt is waiting, which decides what a repeated Ctrl-C means.
  static func setPromptActive(_ active: Bool) {
    promptActive.store(active, ordering: .relaxed)
  }

  /// Sets the record for `signal` to `value` and returns what it was.
  fileprivate static func exchangePending(_ signal: Int32, _ value: Bool) -> Bool {
    switch signal {
    case SIGINT: interruptPending.exchange(value, ordering: .relaxed)
    case SIGWINCH: resizePending.exchange(value, ordering: .relaxed)
    case SIGTSTP: suspendPending.exchange(value, ordering: .relaxed)
    default: false
    }
  }
}

private let interruptPending = Atomic<Bool>(false)
private let resizePending = Atomic<Bool>(false)
private let suspendPending = Atomic<Bool>(false)
private let promptActive = Atomic<Bool>(false)

private let wakePipe: (read: Int32, write: Int32) = {
  var ends: [Int32] = [-1, -1]
  guard pipe(&ends) == 0 else { return (-1, -1) }
  for end in ends {
    _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
  }
  return (ends[0], ends[1])
}()

private let recordSignal: @convention(c) (Int32) -> Void = { signal in
  let savedErrno = errno
  if signal == SIGINT, interruptPending.exchange(true, ordering: .relaxed),
    !promptActive.load(ordering: .relaxed)
  {
    // A second Ctrl-C while a command runs, before anyone looked at the first: the user means
    // it, so let the default action end the process.
    Glibc.signal(SIGINT, SIG_DFL)
    raise(SIGINT)
  } else if signal != SIGINT {
    _ = TerminalSignals.exchangePending(signal, true)
  }
  var byte: UInt8 = 1
  _ = write(wakePipe.write, &byte, 1)
  errno = savedErrno
}
