/// How a sync matches Health samples to the log's entries (`set dedup uuid|fuzzy`).
enum DedupMode: String, CaseIterable, Sendable {
  /// Only by the sample's UUID.
  case uuid
  /// Also a sample of the same weight within a minute of an entry that links none.
  case fuzzy
}
