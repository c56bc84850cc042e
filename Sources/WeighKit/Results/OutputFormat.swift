/// How results are shown: text for people, or JSON Lines or CSV for programs
/// (`--format`, `set format`; docs/output.md describes every shape).
public enum OutputFormat: String, CaseIterable, Sendable {
  case text, json, csv
}
