/// What a session knows of a store's committed state: enough to tell, at the next open,
/// whether another process committed meanwhile.
struct StoreState: Equatable {
  var sequence: Int
  var documents: [String: JSONValue]

  init(_ store: Store) {
    sequence = store.committedSequence
    documents = store.documents
  }
}

/// What a session that closed its store between commands (the REPL) keeps of it: one part
/// of a ``Session``, set by `releaseStore()` and read by `acquireStore()`.
struct ReleasedStore {
  /// The store's state when the session released it: if it differs at the next open,
  /// another process committed meanwhile.
  var state: StoreState
  /// `health.sqlite`'s command count when the session released the store.
  var healthMark: Int64?
}
