/// weigh's exit statuses: the one table every front end and the session use.
///
/// The values are those of BSD's `sysexits.h` where one fits (`EX_USAGE`, `EX_DATAERR`,
/// `EX_NOINPUT`).
public enum ExitStatus: Int32, Sendable, CaseIterable {
  /// Every command succeeded.
  case success = 0
  /// A command or `expect` failed.
  case commandFailed = 1
  /// A bad flag or option value.
  case usage = 64
  /// The store cannot be read: damaged, corrupt, or written by a newer format.
  case unreadableStore = 65
  /// A script or input file cannot be read (missing, not permitted, not UTF-8).
  case unreadableInput = 66

  /// The status a failure of `kind` gives.
  public init(_ kind: FailureKind) {
    switch kind {
    case .command: self = .commandFailed
    case .unreadableStore: self = .unreadableStore
    case .unreadableInput: self = .unreadableInput
    }
  }
}

extension FailureKind {
  /// The exit status this failure gives.
  public var exitStatus: ExitStatus { ExitStatus(self) }

  /// Which of two failures decides the exit status: a store or input problem outranks a
  /// failed command, and the first such problem stays.
  func outranks(_ other: FailureKind?) -> Bool {
    guard let other else { return true }
    return other == .command && self != .command
  }
}
