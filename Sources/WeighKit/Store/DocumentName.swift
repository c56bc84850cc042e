/// The named documents the app keeps in its store.
enum DocumentName: String, CaseIterable, Sendable {
  /// The user's settings and profile (``Settings``).
  case settings
  /// The app's sync state (``AppDocument``).
  case app
  /// Health's small state: settings, simulations, devices, counters.
  case health
  /// Marks the `health-sync` table as complete.
  case healthSyncIndex = "health-sync-index"
  /// Where Health is kept when not in the tables: `health.sqlite`.
  case healthFormat = "health-format"
  /// Whether Health runs simulations (written with Health's small state): a session opens
  /// `health.sqlite` at start only to catch up on them (docs/store.md).
  case healthSimulations = "health-simulations"
}

extension StoreChange {
  /// Sets the document `name` to `value`.
  static func set(_ name: DocumentName, to value: JSONValue) -> StoreChange {
    .setDocument(name: name.rawValue, value: value)
  }
}

extension Store {
  /// The document `name`, as of the last commit.
  func document(_ name: DocumentName) -> JSONValue? { documents[name.rawValue] }
}
