/// Writes the app's entries as weigh's own CSV, which `WeighCSVImporter` reads back exactly.
///
/// Weights use Swift's shortest round-trip form (`68.5`, `68.12345678901234`); text fields
/// are always quoted and absent optional text is an empty unquoted cell, so a note `""`
/// and no note stay different.
public enum WeighCSVExporter {
  /// The header row.
  public static let header =
    "id,instant,kilograms,origin,source,note,revision,health_uuid,pushed_uuid,pushed_revision"

  /// The whole file.
  ///
  /// - Complexity: O(n) in the number of entries.
  public static func csv(_ entries: [Entry]) -> String {
    var out = header + "\n"
    for entry in entries {
      out += row(entry)
      out += "\n"
    }
    return out
  }

  /// One line for `entry` (a note with newlines spans several lines, inside quotes).
  public static func row(_ entry: Entry) -> String {
    [
      String(entry.id), WeighFileInstant.format(entry.instant), String(entry.kilograms),
      entry.origin.rawValue, quote(entry.source), entry.note.map(quote) ?? "",
      String(entry.revision), entry.healthUUID.map(quote) ?? "", entry.pushedUUID.map(quote) ?? "",
      entry.pushedRevision.map(String.init) ?? "",
    ].joined(separator: ",")
  }

  static func quote(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
