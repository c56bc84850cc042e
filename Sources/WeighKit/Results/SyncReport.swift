/// What one sync from Health did to the app's log.
public struct SyncReport: Sendable {
  /// What ran the sync.
  public enum Trigger: String, Sendable {
    /// `sync`, `sync all`.
    case command
    /// The sync at `app launch`.
    case launch
  }

  public var trigger: Trigger = .command
  public var imported: Int
  public var removed: Int
  public var skipped: Int
  /// The app's anchor after the sync.
  public var anchor: Int64

  /// `imported 1, removed 0, skipped 0 (anchor 31)`, without the trigger.
  public var summary: String {
    "imported \(imported), removed \(removed), skipped \(skipped) (anchor \(anchor))"
  }
}

/// What one push to Health did.
public struct PushReport: Sendable {
  /// What ran the push.
  public enum Trigger: String, Sendable {
    /// `sync push`.
    case command
    /// `set autopush on` after a change to the log.
    case autopush
  }

  public var trigger: Trigger = .command
  public var added: Int
  public var updated: Int
  public var deleted: Int

  /// `pushed 1 new, 0 updated, 0 deleted`, without the trigger.
  public var summary: String { "pushed \(added) new, \(updated) updated, \(deleted) deleted" }
}
