/// Writes the app's entries as weigh's own JSON, one entry a line, which `WeighJSONImporter`
/// reads back exactly.
public enum WeighJSONExporter {
  /// The whole file: `{"format":"weigh","version":1,"settings":{…},"entries":[…]}`
  /// (`settings` only when given; a file without it is read as well).
  ///
  /// - Complexity: O(n) in the number of entries.
  public static func json(_ entries: [Entry], settings: ExportedSettings? = nil) -> String {
    var out = "{\"format\": \"weigh\", \"version\": 1, "
    if let settings { out += "\"settings\": \(settings.jsonText),\n " }
    out += "\"entries\": ["
    for (index, entry) in entries.enumerated() {
      out += index == 0 ? "\n  " : ",\n  "
      out += object(entry)
    }
    out += entries.isEmpty ? "]}\n" : "\n]}\n"
    return out
  }

  /// One entry as a JSON object on one line.
  public static func object(_ entry: Entry) -> String {
    let kilograms = entry.kilograms.isFinite ? String(entry.kilograms) : "null"
    return "{\"id\": \(entry.id), \"instant\": \(string(WeighFileInstant.format(entry.instant))), "
      + "\"kilograms\": \(kilograms), \"origin\": \(string(entry.origin.rawValue)), "
      + "\"source\": \(string(entry.source)), \"note\": \(entry.note.map(string) ?? "null"), "
      + "\"revision\": \(entry.revision), \"healthUUID\": \(entry.healthUUID.map(string) ?? "null"), "
      + "\"pushedUUID\": \(entry.pushedUUID.map(string) ?? "null"), "
      + "\"pushedRevision\": \(entry.pushedRevision.map(String.init) ?? "null")}"
  }

  /// A JSON string literal; non-ASCII text is written as UTF-8, control characters escaped
  /// (by ``JSONWriter``, the one JSON string escaper).
  public static func string(_ text: String) -> String {
    var writer = JSONWriter()
    writer.write(text)
    return String(decoding: writer.bytes, as: UTF8.self)
  }
}
