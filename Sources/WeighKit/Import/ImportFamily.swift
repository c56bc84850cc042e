/// The word a user writes after `import … as`: a family of formats told apart by content.
public enum ImportFamily: String, CaseIterable, Sendable {
  case appleHealth = "apple-health"
  case csv
  case json
}
