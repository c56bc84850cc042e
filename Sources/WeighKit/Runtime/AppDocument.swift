/// The app's small state that must survive restarts (the `app` document): its sync
/// anchor and sync settings, and whether it observes Health.
struct AppDocument: Equatable {
  /// The stored anchor of the last committed sync.
  var anchor: Int64?
  var lastSync: Int64?
  var syncCount = 0
  /// The observer's frequency while `observe on`.
  var observing: String?
  /// Samples of deleted pushed entries, deleted from Health at the next push.
  var pendingDeletes: [String] = []
  var dedup = DedupMode.uuid
  var autopush = false
  var syncOnLaunch = true
  /// No entry links a Health sample saved after this change position, so a sync that
  /// only adds newer samples need not read the log. Nil when not known yet (a store from
  /// before this was kept): the next sync finds out. `linksAnywhere` after entries came
  /// from a file with links of their own.
  var linkedThrough: Int64? = 0

  /// Entries may link any sample: every sync reads the log.
  static let linksAnywhere = Int64.max

  init() {}

  /// This document with the sync's progress (anchor, last sync, count, link position,
  /// deletions waiting for a push) taken from `earlier`: what `undo` of a sync, an import or
  /// a push puts back, keeping the settings changed since (`observe`, `set dedup`,
  /// `set autopush`, `set sync`).
  func withSyncProgress(of earlier: AppDocument) -> AppDocument {
    var document = self
    document.anchor = earlier.anchor
    document.lastSync = earlier.lastSync
    document.syncCount = earlier.syncCount
    document.linkedThrough = earlier.linkedThrough
    document.pendingDeletes = earlier.pendingDeletes
    return document
  }

  var json: JSONValue {
    // Sized for every member at once (made twice per sync: the new value and the undo's).
    var object = [String: JSONValue](minimumCapacity: 9)
    object["sync_count"] = .integer(syncCount)
    object["dedup"] = .string(dedup.rawValue)
    object["autopush"] = .bool(autopush)
    object["sync"] = .bool(syncOnLaunch)
    object["pending_deletes"] = .array(pendingDeletes.map(JSONValue.string))
    // checked: Int64 and Int have one width
    if let anchor { object["anchor"] = .integer(Int(anchor)) }
    // checked: Int64 and Int have one width
    if let lastSync { object["last_sync"] = .integer(Int(lastSync)) }
    if let observing { object["observing"] = .string(observing) }
    // checked: Int64 and Int have one width
    if let linkedThrough { object["linked_through"] = .integer(Int(linkedThrough)) }
    return .object(object)
  }
}
